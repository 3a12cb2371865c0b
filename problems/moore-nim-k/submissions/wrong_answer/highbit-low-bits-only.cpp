// Mistake: the right rule, but only bits 0..19 are counted (the author assumed
// piles below 10^6); positions that differ only in bits 20..29 are misjudged.
#include <cstdio>

int main() {
    int n, k;
    scanf("%d %d", &n, &k);
    int cnt[20] = {0};
    for (int i = 0; i < n; i++) {
        int a;
        scanf("%d", &a);
        for (int b = 0; b < 20; b++)
            if (a >> b & 1) cnt[b]++;
    }
    bool lose = true;
    for (int b = 0; b < 20; b++)
        if (cnt[b] % (k + 1)) lose = false;
    puts(lose ? "No" : "Yes");
    return 0;
}

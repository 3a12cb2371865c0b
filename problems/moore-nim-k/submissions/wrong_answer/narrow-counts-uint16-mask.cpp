// Mistake: the right rule, but each pile is first stored in an unsigned short
// ("to save memory" in an array of 10^5 piles), so bits 16..29 are gone before
// the bit columns are counted.
#include <cstdio>

unsigned short a[100005];

int main() {
    int n, k;
    scanf("%d %d", &n, &k);
    for (int i = 0; i < n; i++) {
        int v;
        scanf("%d", &v);
        a[i] = v;
    }
    int cnt[31] = {0};
    for (int i = 0; i < n; i++)
        for (int b = 0; b < 31; b++)
            if (a[i] >> b & 1) cnt[b]++;
    bool lose = true;
    for (int b = 0; b < 31; b++)
        if (cnt[b] % (k + 1) != 0) lose = false;
    puts(lose ? "No" : "Yes");
}

// Mistake: checks the parity of each bit column, but only for bits 0..19 (as if piles were <= 10^6).
#include <cstdio>

int main() {
    int n;
    scanf("%d", &n);
    int cnt[20] = {0};
    for (int i = 0; i < n; i++) {
        int a;
        scanf("%d", &a);
        for (int b = 0; b < 20; b++)
            if (a >> b & 1) cnt[b]++;
    }
    bool win = false;
    for (int b = 0; b < 20; b++)
        if (cnt[b] % 2) win = true;
    puts(win ? "Yes" : "No");
    return 0;
}

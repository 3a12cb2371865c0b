// Mistake: parity of each bit column over the odd steps, but only bits 0..19 (as if a_i <= 10^6).
#include <cstdio>

int main() {
    int n;
    scanf("%d", &n);
    int cnt[20] = {0};
    for (int i = 1; i <= n; i++) {
        int x;
        scanf("%d", &x);
        if (i % 2 == 0) continue;
        for (int b = 0; b < 20; b++)
            if (x >> b & 1) cnt[b]++;
    }
    bool win = false;
    for (int b = 0; b < 20; b++)
        if (cnt[b] % 2) win = true;
    puts(win ? "Yes" : "No");
    return 0;
}

// Mistake: the XOR is taken bit column by column, but only for bits 0..11 (the
// author took 2^12 = 4096 to be above every pile; piles go up to 4747, so bit 12
// is lost). Positions whose XOR is exactly 4096 are judged as XOR 0.
#include <cstdio>

int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        int n;
        scanf("%d", &n);
        int cnt[12] = {0};
        bool big = false;
        for (int i = 0; i < n; i++) {
            int a;
            scanf("%d", &a);
            if (a > 1) big = true;
            for (int b = 0; b < 12; b++)
                if (a >> b & 1) cnt[b]++;
        }
        bool nonzero = false;
        for (int b = 0; b < 12; b++)
            if (cnt[b] % 2) nonzero = true;
        bool john = big ? nonzero : n % 2 == 0;
        puts(john ? "John" : "Brother");
    }
}

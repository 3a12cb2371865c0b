// Mistake: trusts the POI statement's "at most 1000 stones" and XORs the
// differences bit column by column over bits 0..9 only; piles here go up to 10^4,
// so bits 10..13 are lost: an arrangement whose XOR is exactly 2^12 reads as 0.
#include <cstdio>

int main() {
    int u;
    scanf("%d", &u);
    while (u--) {
        int n;
        scanf("%d", &n);
        static int a[1001];
        a[0] = 0;
        for (int i = 1; i <= n; i++) scanf("%d", &a[i]);
        int cnt[10] = {0};
        for (int i = n; i >= 1; i -= 2) {
            int d = a[i] - a[i - 1];
            for (int b = 0; b < 10; b++)
                if (d >> b & 1) cnt[b]++;
        }
        bool tak = false;
        for (int b = 0; b < 10; b++)
            if (cnt[b] % 2) tak = true;
        puts(tak ? "TAK" : "NIE");
    }
}

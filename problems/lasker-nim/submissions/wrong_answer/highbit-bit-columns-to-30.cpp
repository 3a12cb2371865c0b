// Mistake: XORs the SG values bit column by column over bits 0..30 ("piles are
// below 2^31, so 31 bits"), but SG(2^31 - 1) = 2^31 lives in bit 31. A position
// whose SG XOR is exactly 2^31 is judged as XOR 0.
#include <cstdio>

int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        int n;
        scanf("%d", &n);
        int cnt[31] = {0};
        for (int i = 0; i < n; i++) {
            long long s;
            scanf("%lld", &s);
            long long g = s % 4 == 0 ? s - 1 : s % 4 == 3 ? s + 1 : s;
            for (int b = 0; b < 31; b++)
                if (g >> b & 1) cnt[b]++;
        }
        bool alice = false;
        for (int b = 0; b < 31; b++)
            if (cnt[b] % 2) alice = true;
        puts(alice ? "Alice" : "Bob");
    }
}

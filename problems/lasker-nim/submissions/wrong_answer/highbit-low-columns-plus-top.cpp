// Mistake: knows the trap of 2^31 - 1 (its SG value is 2^31) and handles those
// piles on their own, but counts the other SG values' bit columns over bits 0..19
// only ("random tests are big anyway"). A position whose SG XOR is exactly 2^b
// for some b in 20..30 is judged as XOR 0.
#include <cstdio>

int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        int n;
        scanf("%d", &n);
        int cnt[20] = {0};
        int top = 0;
        for (int i = 0; i < n; i++) {
            long long s;
            scanf("%lld", &s);
            if (s == 2147483647LL) {
                top ^= 1;  // SG = 2^31, bit 31 alone
                continue;
            }
            long long g = s % 4 == 0 ? s - 1 : s % 4 == 3 ? s + 1 : s;
            for (int b = 0; b < 20; b++)
                if (g >> b & 1) cnt[b]++;
        }
        bool alice = top;
        for (int b = 0; b < 20; b++)
            if (cnt[b] % 2) alice = true;
        puts(alice ? "Alice" : "Bob");
    }
}

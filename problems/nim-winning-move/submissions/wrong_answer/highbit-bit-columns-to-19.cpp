// Mistake: builds the XOR from the parity of each bit column, but only for
// bits 0..19 (as if heaps were <= 10^6): a XOR living in bits 20..29 is lost.
#include <cstdio>
#include <vector>

int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        int n;
        scanf("%d", &n);
        std::vector<long long> a(n);
        int cnt[20] = {0};
        for (int i = 0; i < n; i++) {
            scanf("%lld", &a[i]);
            for (int b = 0; b < 20; b++)
                if (a[i] >> b & 1) cnt[b]++;
        }
        long long x = 0;
        for (int b = 0; b < 20; b++)
            if (cnt[b] % 2) x |= 1LL << b;
        if (x == 0) {
            puts("lose");
            continue;
        }
        for (int i = 0; i < n; i++)
            if ((a[i] ^ x) < a[i]) {
                printf("%d %lld\n", i + 1, a[i] - (a[i] ^ x));
                break;
            }
    }
}

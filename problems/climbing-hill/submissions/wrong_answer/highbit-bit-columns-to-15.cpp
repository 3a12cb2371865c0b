// Mistake: XORs the gaps bit column by column over bits 0..15 (the author took
// 2^16 for "about 10^5"); a gap of 65536 or more loses bit 16, so a position whose
// value is exactly 2^16 reads as 0.
#include <cstdio>

int a[1005];

int main() {
    int n, k;
    while (scanf("%d %d", &n, &k) == 2) {
        for (int i = 1; i <= n; i++) scanf("%d", &a[i]);
        if (k == 1) {
            puts("Alice");
            continue;
        }
        int cnt[16] = {0};
        auto add = [&](int g) {
            for (int b = 0; b < 16; b++)
                if (g >> b & 1) cnt[b]++;
        };
        int i = 1;
        if (n % 2 == 1) {
            add(k == 2 ? a[1] - 1 : a[1]);
            i = 2;
        }
        for (; i + 1 <= n; i += 2) add(a[i + 1] - a[i] - 1);
        bool alice = false;
        for (int b = 0; b < 16; b++)
            if (cnt[b] % 2) alice = true;
        puts(alice ? "Alice" : "Bob");
    }
}

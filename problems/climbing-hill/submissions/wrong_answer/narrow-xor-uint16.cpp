// Mistake: keeps the staircase XOR in an unsigned 16-bit variable ("gaps are
// small"), but distances go up to 99999, so a gap can be 65536 or more and bit 16
// is cut off: a position whose value is exactly 2^16 reads as 0.
#include <cstdint>
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
        uint16_t x = 0;
        int i = 1;
        if (n % 2 == 1) {
            x = k == 2 ? a[1] - 1 : a[1];
            i = 2;
        }
        for (; i + 1 <= n; i += 2) x ^= a[i + 1] - a[i] - 1;
        puts(x ? "Alice" : "Bob");
    }
}

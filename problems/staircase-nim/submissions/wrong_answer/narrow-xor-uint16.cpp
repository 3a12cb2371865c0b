// Mistake: keeps the odd-step XOR in an unsigned 16-bit variable, so a XOR that
// lives in bits 16..29 only is seen as 0.
#include <cstdint>
#include <cstdio>

int main() {
    int n;
    scanf("%d", &n);
    uint16_t x = 0;
    for (int i = 1; i <= n; i++) {
        int a;
        scanf("%d", &a);
        if (i % 2 == 1) x ^= a;
    }
    puts(x ? "Yes" : "No");
}

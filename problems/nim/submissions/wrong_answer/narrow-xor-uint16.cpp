// Mistake: keeps the XOR in an unsigned 16-bit variable; the piles are read as
// int but every XOR step is cut to the low 16 bits, so a XOR that lives in bits
// 16..29 only is seen as 0.
#include <cstdint>
#include <cstdio>

int main() {
    int n;
    scanf("%d", &n);
    uint16_t x = 0;
    for (int i = 0; i < n; i++) {
        int a;
        scanf("%d", &a);
        x ^= a;
    }
    puts(x ? "Yes" : "No");
}

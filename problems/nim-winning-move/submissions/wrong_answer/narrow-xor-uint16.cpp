// Mistake: keeps the XOR in an unsigned 16-bit variable: a XOR that lives in
// bits 16..29 only is seen as 0 (`lose`), and where the low bits survive the
// move is computed from the wrong XOR.
#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        int n;
        scanf("%d", &n);
        std::vector<int> a(n);
        uint16_t x = 0;
        for (int i = 0; i < n; i++) {
            scanf("%d", &a[i]);
            x ^= a[i];
        }
        if (x == 0) {
            puts("lose");
            continue;
        }
        for (int i = 0; i < n; i++)
            if ((a[i] ^ x) < a[i]) {
                printf("%d %d\n", i + 1, a[i] - (a[i] ^ x));
                break;
            }
    }
}

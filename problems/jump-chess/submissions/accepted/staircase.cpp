#include <cstdio>
#include <algorithm>

// Staircase view of a row: scanning from the right edge (column 20), every
// block of pieces that has an odd number of empty cells to its right adds its
// length to the XOR.
int main() {
    int T;
    scanf("%d", &T);
    while (T--) {
        int n, x = 0;
        scanf("%d", &n);
        while (n--) {
            int m;
            scanf("%d", &m);
            bool occ[22] = {false};
            for (int i = 0; i < m; i++) {
                int p;
                scanf("%d", &p);
                occ[p] = true;
            }
            int empty = 0;
            for (int c = 20; c >= 1;) {
                if (!occ[c]) {
                    empty++;
                    c--;
                    continue;
                }
                int len = 0;
                while (c >= 1 && occ[c]) len++, c--;
                if (empty & 1) x ^= len;
            }
        }
        puts(x ? "YES" : "NO");
    }
    return 0;
}

#include <bits/stdc++.h>
using namespace std;

// lft[i][j]: the pile size x with (x, a_i..a_j) losing for the mover; rgt[i][j]: mirror image.
static int lft[1005][1005], rgt[1005][1005];

int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n;
        scanf("%d", &n);
        vector<int> a(n + 1);
        for (int i = 1; i <= n; i++) scanf("%d", &a[i]);
        for (int i = 1; i <= n; i++) lft[i][i] = rgt[i][i] = a[i];
        for (int len = 2; len <= n; len++) {
            for (int i = 1; i + len - 1 <= n; i++) {
                int j = i + len - 1;
                int L = lft[i][j - 1], R = rgt[i][j - 1], X = a[j];
                if (X == R) lft[i][j] = 0;
                else if ((X < L && X < R) || (X > L && X > R)) lft[i][j] = X;
                else if (L > R) lft[i][j] = X - 1;
                else lft[i][j] = X + 1;
                L = lft[i + 1][j], R = rgt[i + 1][j], X = a[i];
                if (X == L) rgt[i][j] = 0;
                else if ((X < L && X < R) || (X > L && X > R)) rgt[i][j] = X;
                else if (R > L) rgt[i][j] = X - 1;
                else rgt[i][j] = X + 1;
            }
        }
        int win = (n == 1) ? 1 : (lft[2][n] != a[1]);
        printf("%d\n", win);
    }
    return 0;
}

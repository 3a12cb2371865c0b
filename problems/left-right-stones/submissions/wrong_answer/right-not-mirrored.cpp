// Wrong: the right-hand table reuses the left-hand orientation rule (L > R -> X - 1)
// instead of its mirror image (R > L -> X - 1).
#include <bits/stdc++.h>
using namespace std;
static long long lft[1005][1005], rgt[1005][1005];
int main() {
    int T;
    scanf("%d", &T);
    while (T--) {
        int n;
        scanf("%d", &n);
        vector<long long> a(n + 1);
        for (int i = 1; i <= n; i++) scanf("%lld", &a[i]);
        for (int i = 1; i <= n; i++) lft[i][i] = rgt[i][i] = a[i];
        for (int len = 2; len <= n; len++)
            for (int i = 1; i + len - 1 <= n; i++) {
                int j = i + len - 1;
                long long L = lft[i][j - 1], R = rgt[i][j - 1], X = a[j];
                if (X == R) lft[i][j] = 0;
                else if ((X < L && X < R) || (X > L && X > R)) lft[i][j] = X;
                else if (L > R) lft[i][j] = X - 1;
                else lft[i][j] = X + 1;
                L = lft[i + 1][j], R = rgt[i + 1][j], X = a[i];
                if (X == L) rgt[i][j] = 0;
                else if ((X < L && X < R) || (X > L && X > R)) rgt[i][j] = X;
                else if (L > R) rgt[i][j] = X - 1;
                else rgt[i][j] = X + 1;
            }
        printf("%d\n", n == 1 ? 1 : (int)(lft[2][n] != a[1]));
    }
}

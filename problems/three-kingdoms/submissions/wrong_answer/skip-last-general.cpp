// Right idea, but the row loop stops at n - 1 (the input has n - 1 lines...), so the last
// general's row is never examined.
#include <cstdio>

int a[505][505];

int main() {
    int n;
    scanf("%d", &n);
    for (int i = 1; i < n; i++)
        for (int j = i + 1; j <= n; j++) {
            scanf("%d", &a[i][j]);
            a[j][i] = a[i][j];
        }
    int ans = 0;
    for (int i = 1; i < n; i++) {
        int m1 = -1, m2 = -1;
        for (int j = 1; j <= n; j++) {
            if (j == i) continue;
            if (a[i][j] > m1) { m2 = m1; m1 = a[i][j]; }
            else if (a[i][j] > m2) m2 = a[i][j];
        }
        if (m2 > ans) ans = m2;
    }
    printf("1\n%d\n", ans);
    return 0;
}

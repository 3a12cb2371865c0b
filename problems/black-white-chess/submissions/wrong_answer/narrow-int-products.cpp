// Mistake: keeps everything in `int`, so the products of two residues
// overflow before the modulo.
#include <bits/stdc++.h>
using namespace std;

const int MOD = 1000000007;
int C[10005][105];
int f[10005], g[10005];

int main() {
    int n, k, d;
    scanf("%d %d %d", &n, &k, &d);
    for (int i = 0; i <= n; i++) {
        C[i][0] = 1;
        for (int j = 1; j <= min(i, k); j++) C[i][j] = (C[i - 1][j - 1] + C[i - 1][j]) % MOD;
    }
    int m = k / 2, top = n - k;
    f[0] = 1;
    for (int step = d + 1; step <= top; step *= 2) {
        for (int s = 0; s <= top; s++) g[s] = 0;
        for (int s = 0; s <= top; s++)
            for (int l = 0; l * (d + 1) <= m && s + l * step <= top; l++)
                g[s + l * step] = (g[s + l * step] + f[s] * C[m][l * (d + 1)]) % MOD;
        for (int s = 0; s <= top; s++) f[s] = g[s];
    }
    int ans = C[n][k];
    for (int s = 0; s <= top; s++) ans = ((ans - f[s] * C[n - m - s][m]) % MOD + MOD) % MOD;
    printf("%d\n", ans);
}

#include <bits/stdc++.h>
using namespace std;

const long long MOD = 1000000007;
int C[10005][105];
long long f[10005], g[10005];

long long binom(int a, int b) {
    if (b < 0 || a < 0 || b > a) return 0;
    return C[a][b];
}

int main() {
    int n, k, d;
    scanf("%d %d %d", &n, &k, &d);
    for (int i = 0; i <= n; i++) {
        C[i][0] = 1;
        for (int j = 1; j <= min(i, k); j++)
            C[i][j] = (C[i - 1][j - 1] + (j <= i - 1 ? C[i - 1][j] : 0)) % MOD;
    }
    int m = k / 2, top = n - k;
    f[0] = 1;
    for (int step = d + 1; step <= top; step *= 2) {
        memset(g, 0, sizeof(long long) * (top + 1));
        for (int s = 0; s <= top; s++) {
            if (!f[s]) continue;
            for (int l = 0; l * (d + 1) <= m && s + l * step <= top; l++)
                g[s + l * step] = (g[s + l * step] + f[s] * binom(m, l * (d + 1))) % MOD;
        }
        memcpy(f, g, sizeof(long long) * (top + 1));
    }
    long long ans = binom(n, k);
    for (int s = 0; s <= top; s++)
        ans = (ans - f[s] * binom(n - m - s, m) % MOD + MOD) % MOD;
    printf("%lld\n", ans);
    return 0;
}

// Mistake: subtracts the losing count from C(n, k) with `%` only, so the
// answer comes out negative when C(n, k) mod p is the smaller residue.
#include <bits/stdc++.h>
using namespace std;

const long long MOD = 1000000007;
long long C[10005][105];
long long f[10005], g[10005];

int main() {
    int n, k, d;
    cin >> n >> k >> d;
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
    long long lose = 0;
    for (int s = 0; s <= top; s++) lose = (lose + f[s] * C[n - m - s][m]) % MOD;
    cout << (C[n][k] - lose) % MOD << endl;
}

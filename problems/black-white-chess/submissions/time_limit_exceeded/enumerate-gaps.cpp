// Correct but exponential: tries every vector of pair gaps (g_1..g_m) with
// total <= n - k, keeps the ones where every bit is set in a multiple of d+1
// of them, and places the other gaps in C(n - k - s + m, m) ways.
#include <bits/stdc++.h>
using namespace std;

const long long MOD = 1000000007;
int n, k, d, m, top;
long long C[10005][105];
int cnt[20];
long long lose = 0;

void go(int i, int s) {
    if (i == m) {
        for (int b = 0; b < 20; b++)
            if (cnt[b] % (d + 1)) return;
        lose = (lose + C[n - k - s + m][m]) % MOD;
        return;
    }
    for (int g = 0; s + g <= top; g++) {
        for (int b = 0; b < 20; b++)
            if (g >> b & 1) cnt[b]++;
        go(i + 1, s + g);
        for (int b = 0; b < 20; b++)
            if (g >> b & 1) cnt[b]--;
    }
}

int main() {
    scanf("%d %d %d", &n, &k, &d);
    for (int i = 0; i <= n; i++) {
        C[i][0] = 1;
        for (int j = 1; j <= min(i, k); j++) C[i][j] = (C[i - 1][j - 1] + C[i - 1][j]) % MOD;
    }
    m = k / 2;
    top = n - k;
    go(0, 0);
    printf("%lld\n", ((C[n][k] - lose) % MOD + MOD) % MOD);
}

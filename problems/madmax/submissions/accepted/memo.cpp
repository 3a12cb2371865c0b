#include <bits/stdc++.h>
using namespace std;

int n, m;
vector<pair<int, int>> g[105];   // (target, letter 0..25)
signed char dp[105][105][26];     // 0 unknown, 1 win, -1 lose

// The player to move sits on x, the other marble on y, next letter must be >= c.
bool win(int x, int y, int c) {
    signed char &r = dp[x][y][c];
    if (r) return r == 1;
    bool w = false;
    for (auto [u, l] : g[x])
        if (l >= c && !win(y, u, l)) { w = true; break; }
    r = w ? 1 : -1;
    return w;
}

int main() {
    scanf("%d %d", &n, &m);
    for (int i = 0; i < m; i++) {
        int v, u;
        char c;
        scanf("%d %d %c", &v, &u, &c);
        g[v].push_back({u, c - 'a'});
    }
    for (int i = 1; i <= n; i++) {
        string row;
        for (int j = 1; j <= n; j++) row += win(i, j, 0) ? 'A' : 'B';
        puts(row.c_str());
    }
}

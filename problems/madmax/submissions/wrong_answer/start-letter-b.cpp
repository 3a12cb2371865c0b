// Wrong: letters are stored as 0..25, but the search is started with minimum letter 1
// (as if letters were numbered from 1), so edges labelled 'a' can never be used.
#include <bits/stdc++.h>
using namespace std;
int n, m;
vector<pair<int, int>> g[105];
signed char dp[105][105][27];
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
        for (int j = 1; j <= n; j++) putchar(win(i, j, 1) ? 'A' : 'B');
        putchar('\n');
    }
}

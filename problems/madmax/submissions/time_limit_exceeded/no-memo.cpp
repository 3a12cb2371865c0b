// Correct recursion, but without memoisation: the game tree is explored afresh for every
// starting pair, exponential on large graphs.
#include <bits/stdc++.h>
using namespace std;
int n, m;
vector<pair<int, int>> g[105];
bool win(int x, int y, int c) {
    for (auto [u, l] : g[x])
        if (l >= c && !win(y, u, l)) return true;
    return false;
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
        for (int j = 1; j <= n; j++) putchar(win(i, j, 0) ? 'A' : 'B');
        putchar('\n');
    }
}

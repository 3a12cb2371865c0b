// Wrong: stores the graph as to[v][letter], so when a vertex has several outgoing edges
// with the same letter only the last one read survives.
#include <bits/stdc++.h>
using namespace std;
int n, m;
int to[105][26];
signed char dp[105][105][26];
bool win(int x, int y, int c) {
    signed char &r = dp[x][y][c];
    if (r) return r == 1;
    bool w = false;
    for (int l = c; l < 26 && !w; l++)
        if (to[x][l] && !win(y, to[x][l], l)) w = true;
    r = w ? 1 : -1;
    return w;
}
int main() {
    scanf("%d %d", &n, &m);
    for (int i = 0; i < m; i++) {
        int v, u;
        char c;
        scanf("%d %d %c", &v, &u, &c);
        to[v][c - 'a'] = u;
    }
    for (int i = 1; i <= n; i++) {
        for (int j = 1; j <= n; j++) putchar(win(i, j, 0) ? 'A' : 'B');
        putchar('\n');
    }
}

// Correct Grundy recursion without memoisation: exponential in the number of
// paths (layered graphs have 2^1000 of them).
#include <bits/stdc++.h>
using namespace std;

int n, m, k;
vector<int> g[2005];

int SG(int u) {
    vector<int> vals;
    for (int v : g[u]) vals.push_back(SG(v));
    sort(vals.begin(), vals.end());
    int x = 0;
    for (int v : vals)
        if (v == x) x++;
    return x;
}

int main() {
    scanf("%d %d %d", &n, &m, &k);
    for (int i = 0; i < m; i++) {
        int x, y;
        scanf("%d %d", &x, &y);
        g[x].push_back(y);
    }
    int res = 0;
    for (int i = 0; i < k; i++) {
        int u;
        scanf("%d", &u);
        res ^= SG(u);
    }
    puts(res ? "win" : "lose");
}

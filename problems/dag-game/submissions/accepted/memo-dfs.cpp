#include <bits/stdc++.h>
using namespace std;

int n, m, k;
vector<int> g[2005];
int sg[2005];

int SG(int u) {
    if (sg[u] != -1) return sg[u];
    set<int> s;
    for (int v : g[u]) s.insert(SG(v));
    int x = 0;
    while (s.count(x)) x++;
    return sg[u] = x;
}

int main() {
    scanf("%d %d %d", &n, &m, &k);
    for (int i = 0; i < m; i++) {
        int x, y;
        scanf("%d %d", &x, &y);
        g[x].push_back(y);
    }
    memset(sg, -1, sizeof sg);
    int res = 0;
    for (int i = 0; i < k; i++) {
        int u;
        scanf("%d", &u);
        res ^= SG(u);
    }
    puts(res ? "win" : "lose");
    return 0;
}

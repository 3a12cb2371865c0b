// Right strategy, but its output sits in a buffer that is never flushed:
// both sides wait for each other until the wall clock stops it.
#include <bits/stdc++.h>
using namespace std;

vector<vector<int>> g;
vector<int> sg;

int get(int u) {
    if (sg[u] >= 0) return sg[u];
    vector<char> seen(g[u].size() + 1, 0);
    for (int v : g[u]) {
        int s = get(v);
        if (s < (int)seen.size()) seen[s] = 1;
    }
    int x = 0;
    while (seen[x]) x++;
    return sg[u] = x;
}

int main() {
    static char buf[1 << 16];
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int n, m, k;
        if (scanf("%d %d %d", &n, &m, &k) != 3) return 0;
        g.assign(n + 1, {});
        sg.assign(n + 1, -1);
        for (int i = 0; i < m; i++) {
            int x, y;
            if (scanf("%d %d", &x, &y) != 2) return 0;
            g[x].push_back(y);
        }
        vector<int> p(k);
        for (int &u : p) if (scanf("%d", &u) != 1) return 0;
        auto over = [&] {
            for (int u : p) if (!g[u].empty()) return false;
            return true;
        };
        int x = 0;
        for (int u : p) x ^= get(u);
        bool mine = x != 0;
        printf("%s\n", mine ? "first" : "second");
        while (!over()) {
            if (mine) {
                x = 0;
                for (int u : p) x ^= get(u);
                bool done = false;
                for (int j = 0; j < k && !done; j++)
                    for (int v : g[p[j]])
                        if (get(v) == (get(p[j]) ^ x)) {
                            printf("%d %d\n", j + 1, v);
                            p[j] = v;
                            done = true;
                            break;
                        }
            } else {
                int j, v;
                if (scanf("%d %d", &j, &v) != 2) return 0;
                p[j - 1] = v;
            }
            mine = !mine;
        }
    }
}

// Mistake: the mex of each node is taken over a 64-bit mask of its
// successors' SG values ("SG values stay small"); values >= 64 are dropped and
// the mex is capped at 64. With dag-game's bounds an SG value reaches 109:
// pieces on nodes of SG 64..109 all count 64, so two of them cancel.
// Otherwise it plays like the accepted one (any legal move when it finds no
// move to XOR 0).
#include <bits/stdc++.h>
using namespace std;

vector<vector<int>> g;
vector<int> sg;

int get(int u) {
    if (sg[u] >= 0) return sg[u];
    unsigned long long seen = 0;
    for (int v : g[u]) {
        int s = get(v);
        if (s < 64) seen |= 1ULL << s;
    }
    int x = 0;
    while (x < 64 && (seen >> x & 1)) x++;
    return sg[u] = x;
}

int main() {
    int t;
    cin >> t;
    while (t--) {
        int n, m, k;
        cin >> n >> m >> k;
        g.assign(n + 1, {});
        sg.assign(n + 1, -1);
        for (int i = 0; i < m; i++) {
            int x, y;
            cin >> x >> y;
            g[x].push_back(y);
        }
        vector<int> p(k);
        for (int &u : p) cin >> u;
        auto over = [&] {
            for (int u : p) if (!g[u].empty()) return false;
            return true;
        };
        int x = 0;
        for (int u : p) x ^= get(u);
        bool mine = x != 0;
        cout << (mine ? "first" : "second") << endl;
        while (!over()) {
            if (mine) {
                x = 0;
                for (int u : p) x ^= get(u);
                int bj = -1, bv = -1;
                for (int j = 0; j < k && bj < 0; j++)
                    for (int v : g[p[j]])
                        if (get(v) == (get(p[j]) ^ x)) { bj = j; bv = v; break; }
                for (int j = 0; j < k && bj < 0; j++)
                    if (!g[p[j]].empty()) { bj = j; bv = g[p[j]][0]; }
                cout << bj + 1 << ' ' << bv << endl;
                p[bj] = bv;
            } else {
                int j, v;
                cin >> j >> v;
                p[j - 1] = v;
            }
            mine = !mine;
        }
    }
}

// SG values by memoised DFS; first iff their XOR is non-zero; each move
// slides a piece to a node that makes the XOR 0. Flushes after every line.
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
                bool done = false;
                for (int j = 0; j < k && !done; j++)
                    for (int v : g[p[j]])
                        if (get(v) == (get(p[j]) ^ x)) {
                            cout << j + 1 << ' ' << v << endl;
                            p[j] = v;
                            done = true;
                            break;
                        }
            } else {
                int j, v;
                cin >> j >> v;
                p[j - 1] = v;
            }
            mine = !mine;
        }
    }
}

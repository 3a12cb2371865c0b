// Mistake: the mex of each node is taken over a 64-bit mask of its successors'
// SG values ("SG values stay small"); values >= 64 are dropped and the mex is
// capped at 64. With M up to 6000 an SG value reaches 109, and every node whose
// value is 64 or more gets 64.
#include <cstdio>
#include <vector>
using namespace std;

int n, m, k, sg[2005];
vector<int> g[2005];

int get(int u) {
    if (sg[u] != -1) return sg[u];
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
    scanf("%d %d %d", &n, &m, &k);
    for (int i = 0; i < m; i++) {
        int x, y;
        scanf("%d %d", &x, &y);
        g[x].push_back(y);
    }
    for (int i = 1; i <= n; i++) sg[i] = -1;
    int res = 0;
    for (int i = 0; i < k; i++) {
        int s;
        scanf("%d", &s);
        res ^= get(s);
    }
    puts(res ? "win" : "lose");
}

// Mistake: the two new piles are required to be non-empty (1 <= p, q), so a
// pile of 1 is treated as dead.
#include <cstdio>
#include <cstring>
#include <set>
using namespace std;

int f[110];

int sg(int x) {
    if (f[x] != -1) return f[x];
    set<int> S;
    for (int i = 1; i < x; i++)
        for (int j = 1; j <= i; j++)
            S.insert(sg(i) ^ sg(j));
    for (int i = 0;; i++)
        if (!S.count(i)) return f[x] = i;
}

int main() {
    int n;
    scanf("%d", &n);
    memset(f, -1, sizeof f);
    int res = 0;
    while (n--) {
        int x;
        scanf("%d", &x);
        res ^= sg(x);
    }
    puts(res ? "Yes" : "No");
    return 0;
}

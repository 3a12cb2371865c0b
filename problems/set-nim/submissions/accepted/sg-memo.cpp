// Memoised SG function, as in the classic template (recursion depth <= 10^4).
#include <cstdio>
#include <cstring>
#include <unordered_set>
using namespace std;

const int N = 110, M = 10010;
int k, n, s[N], f[M];

int sg(int x) {
    if (f[x] != -1) return f[x];
    unordered_set<int> S;
    for (int i = 0; i < k; i++) {
        if (x >= s[i]) S.insert(sg(x - s[i]));
    }
    for (int i = 0;; i++)
        if (!S.count(i)) return f[x] = i;
}

int main() {
    scanf("%d", &k);
    for (int i = 0; i < k; i++) scanf("%d", &s[i]);
    scanf("%d", &n);
    memset(f, -1, sizeof f);
    int res = 0;
    for (int i = 0; i < n; i++) {
        int x;
        scanf("%d", &x);
        res ^= sg(x);
    }
    puts(res ? "Yes" : "No");
    return 0;
}

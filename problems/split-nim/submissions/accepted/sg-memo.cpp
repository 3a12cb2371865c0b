#include <cstdio>
#include <cstring>
#include <unordered_set>
using namespace std;

int f[110];

int sg(int x) {
    if (f[x] != -1) return f[x];
    unordered_set<int> S;
    for (int i = 0; i < x; i++)
        for (int j = 0; j <= i; j++)
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

// Naive: the SG recursion without memoisation -- exponential as soon as S has
// two elements and the piles are large.
#include <cstdio>
#include <set>
using namespace std;

int k, n, s[110];

int sg(int x) {
    set<int> S;
    for (int i = 0; i < k; i++)
        if (x >= s[i]) S.insert(sg(x - s[i]));
    for (int i = 0;; i++)
        if (!S.count(i)) return i;
}

int main() {
    scanf("%d", &k);
    for (int i = 0; i < k; i++) scanf("%d", &s[i]);
    scanf("%d", &n);
    int res = 0;
    for (int i = 0; i < n; i++) {
        int h;
        scanf("%d", &h);
        res ^= sg(h);
    }
    puts(res ? "Yes" : "No");
    return 0;
}

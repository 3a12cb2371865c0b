// Naive: the SG recursion without memoisation; the call tree grows like
// (x!)^2, hopeless beyond piles of about 8.
#include <cstdio>
#include <set>
using namespace std;

int sg(int x) {
    set<int> S;
    for (int i = 0; i < x; i++)
        for (int j = 0; j <= i; j++)
            S.insert(sg(i) ^ sg(j));
    for (int i = 0;; i++)
        if (!S.count(i)) return i;
}

int main() {
    int n;
    scanf("%d", &n);
    int res = 0;
    while (n--) {
        int x;
        scanf("%d", &x);
        res ^= sg(x);
    }
    puts(res ? "Yes" : "No");
    return 0;
}

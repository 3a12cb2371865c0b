// Naive: plain game-tree search over the heaps, without theory and without
// memoisation. Correct (any winning move it finds is one) but exponential.
#include <cstdio>
#include <vector>
using namespace std;

int n;
vector<long long> a;

bool win() {
    for (int i = 0; i < n; i++) {
        long long old = a[i];
        for (long long v = 0; v < old; v++) {
            a[i] = v;
            bool w = win();
            a[i] = old;
            if (!w) return true;
        }
    }
    return false;
}

int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        scanf("%d", &n);
        a.assign(n, 0);
        for (auto &v : a) scanf("%lld", &v);
        bool found = false;
        for (int i = 0; i < n && !found; i++) {
            long long old = a[i];
            for (long long v = 0; v < old && !found; v++) {
                a[i] = v;
                if (!win()) {
                    printf("%d %lld\n", i + 1, old - v);
                    found = true;
                }
                a[i] = old;
            }
        }
        if (!found) puts("lose");
    }
}

// Mistake: C precedence. `a[i] ^ x < a[i]` parses as `a[i] ^ (x < a[i])`, which
// is non-zero for almost every non-empty heap, so the "winning heap" is just
// the first non-empty one (and the count taken may be negative).
#include <bits/stdc++.h>
using namespace std;

int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        int n;
        scanf("%d", &n);
        vector<long long> a(n);
        long long x = 0;
        for (auto &v : a) {
            scanf("%lld", &v);
            x ^= v;
        }
        if (x == 0) {
            puts("lose");
            continue;
        }
        for (int i = 0; i < n; i++)
            if (a[i] ^ x < a[i]) {
                printf("%d %lld\n", i + 1, a[i] - (a[i] ^ x));
                break;
            }
    }
}

// Right strategy, but its output sits in a full buffer that is never
// flushed: it waits for the judge's move while the judge waits for its
// answer, until the wall clock stops it.
#include <bits/stdc++.h>
using namespace std;

int main() {
    static char buf[1 << 16];
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int n;
        if (scanf("%d", &n) != 1) return 0;
        vector<int> a(n);
        for (int &x : a) if (scanf("%d", &x) != 1) return 0;
        auto empty = [&] { return all_of(a.begin(), a.end(), [](int x) { return x == 0; }); };
        int x = 0;
        for (int v : a) x ^= v;
        bool mine = x != 0;
        printf("%s\n", mine ? "first" : "second");
        while (!empty()) {
            if (mine) {
                x = 0;
                for (int v : a) x ^= v;
                int i = 0;
                while ((a[i] ^ x) >= a[i]) i++;
                printf("%d %d\n", i + 1, a[i] - (a[i] ^ x));
                a[i] ^= x;
            } else {
                int i, k;
                if (scanf("%d %d", &i, &k) != 2) return 0;
                a[i - 1] -= k;
            }
            mine = !mine;
        }
    }
}

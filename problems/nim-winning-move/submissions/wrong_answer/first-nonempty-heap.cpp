// Mistake: knows the target size a ^ X but always moves on the first non-empty
// heap, which need not hold the XOR's top bit: there a ^ X > a and the "move"
// takes a negative number of stones.
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
        int i = 0;
        while (a[i] == 0) i++;
        printf("%d %lld\n", i + 1, a[i] - (a[i] ^ x));
    }
}

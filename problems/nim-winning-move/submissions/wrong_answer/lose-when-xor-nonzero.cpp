// Mistake: the condition swapped, as if a non-zero XOR were the lost
// position: prints `lose` there, and from a XOR-0 position "plays for time"
// by taking one stone from the first non-empty heap (or `lose` if none).
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
        int i = 0;
        while (i < n && a[i] == 0) i++;
        if (x != 0 || i == n)
            puts("lose");
        else
            printf("%d 1\n", i + 1);
    }
}

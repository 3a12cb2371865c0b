// Mistake: treats every gap (including the one in front of the first piece) as
// an independent Nim pile and XORs them all -- plain Nim where staircase Nim
// is needed (a move also widens the gap behind the moved piece).
#include <algorithm>
#include <cstdio>
#include <vector>
using namespace std;

int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        int n;
        scanf("%d", &n);
        vector<int> p(n);
        for (auto &x : p) scanf("%d", &x);
        sort(p.begin(), p.end());
        int x = p[0] - 1;
        for (int i = 1; i < n; i++) x ^= p[i] - p[i - 1] - 1;
        puts(x ? "Georgia will win" : "Bob will win");
    }
    return 0;
}

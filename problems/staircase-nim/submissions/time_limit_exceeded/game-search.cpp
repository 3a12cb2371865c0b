// Naive: plain game-tree search over the whole staircase, no theory and no
// memoisation. Tries the highest step first and moves all of its stones first.
#include <cstdio>
#include <vector>
using namespace std;

int n;
vector<long long> a; // a[0] = ground (ignored), a[1..n] = steps

bool win() {
    for (int i = n; i >= 1; i--) {
        if (a[i] == 0) continue;
        long long old = a[i];
        for (long long t = old; t >= 1; t--) {
            a[i] -= t;
            a[i - 1] += t;
            bool w = win();
            a[i - 1] -= t;
            a[i] += t;
            if (!w) return true;
        }
    }
    return false;
}

int main() {
    scanf("%d", &n);
    a.assign(n + 1, 0);
    for (int i = 1; i <= n; i++) scanf("%lld", &a[i]);
    puts(win() ? "Yes" : "No");
    return 0;
}

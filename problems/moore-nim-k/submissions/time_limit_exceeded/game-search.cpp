// Naive: plain game-tree search over the real moves (choose 1..k non-empty
// piles, lower each), without theory and without memoisation. Correct, but
// exponential.
#include <cstdio>
#include <vector>
using namespace std;

int n, k;
vector<long long> a;

bool win();

// Extends a move that has already lowered `changed` piles, using piles >= from.
// Returns true if some completed move leaves the opponent in a lost position.
bool extend(int from, int changed) {
    if (changed > 0 && !win()) return true;
    if (changed == k) return false;
    for (int i = from; i < n; i++) {
        long long old = a[i];
        for (long long v = 0; v < old; v++) {
            a[i] = v;
            bool found = extend(i + 1, changed + 1);
            a[i] = old;
            if (found) return true;
        }
    }
    return false;
}

bool win() { return extend(0, 0); }

int main() {
    scanf("%d %d", &n, &k);
    a.resize(n);
    for (auto &x : a) scanf("%lld", &x);
    puts(win() ? "Yes" : "No");
    return 0;
}

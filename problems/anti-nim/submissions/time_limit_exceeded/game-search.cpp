// Naive: plain misère game-tree search, no theory and no memoisation.
// Correct on tiny positions, exponential in general.
#include <cstdio>
#include <vector>
using namespace std;

int n;
vector<int> a;

// Whether the player to move wins; taking the last stone loses.
bool win(int left) {
    if (left == 0) return true;  // the opponent took the last stone
    for (int i = 0; i < n; i++) {
        int old = a[i];
        for (int v = 0; v < old; v++) {
            a[i] = v;
            bool w = win(left - (old - v));
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
        int total = 0;
        for (int i = 0; i < n; i++) {
            scanf("%d", &a[i]);
            total += a[i];
        }
        puts(win(total) ? "John" : "Brother");
    }
    return 0;
}

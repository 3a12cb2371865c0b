// Naive: plain game-tree search over the real moves (slide one piece left to
// any free cell before its neighbour), without theory or memoisation.
// Correct, but exponential.
#include <algorithm>
#include <cstdio>
#include <vector>
using namespace std;

int n;
vector<int> p;  // sorted cells

bool win() {
    for (int i = 0; i < n; i++) {
        int left = i == 0 ? 0 : p[i - 1];
        int old = p[i];
        for (int c = left + 1; c < old; c++) {
            p[i] = c;
            bool w = win();
            p[i] = old;
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
        p.resize(n);
        for (auto &x : p) scanf("%d", &x);
        sort(p.begin(), p.end());
        puts(win() ? "Georgia will win" : "Bob will win");
    }
    return 0;
}

// Correct but exponential: a plain game-tree search over the positions of
// all people, with no theory at all.
#include <cstdio>
#include <vector>

static std::vector<int> d;
static int king;

bool wins() {
    int n = d.size();
    for (int i = 0; i < n; i++) {
        if (d[i] == 0) continue;
        int lowest = (i == 0 || d[i - 1] == 0) ? 0 : d[i - 1] + 1;
        if (i == king && lowest == 0) return true;  // the king reaches the top
        int orig = d[i];
        for (int c = lowest; c < orig; c++) {
            d[i] = c;
            bool w = wins();
            d[i] = orig;
            if (!w) return true;
        }
    }
    return false;
}

int main() {
    int n, k;
    while (scanf("%d %d", &n, &k) == 2) {
        d.assign(n, 0);
        for (int i = 0; i < n; i++) scanf("%d", &d[i]);
        king = k - 1;
        puts(wins() ? "Alice" : "Bob");
    }
    return 0;
}

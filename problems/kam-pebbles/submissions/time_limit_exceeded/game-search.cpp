// Correct but exponential: plain game-tree search over the pile sizes, no
// theory. Fine for a few tiny piles, hopeless for real inputs.
#include <cstdio>
#include <vector>

static std::vector<int> a;

bool wins() {
    int n = a.size();
    for (int i = n - 1; i >= 0; i--) {
        int low = i ? a[i - 1] : 0;
        int orig = a[i];
        for (int v = low; v < orig; v++) {  // biggest removals first
            a[i] = v;
            bool w = wins();
            a[i] = orig;
            if (!w) return true;
        }
    }
    return false;
}

int main() {
    int u;
    scanf("%d", &u);
    while (u--) {
        int n;
        scanf("%d", &n);
        a.assign(n, 0);
        for (int i = 0; i < n; i++) scanf("%d", &a[i]);
        puts(wins() ? "TAK" : "NIE");
    }
    return 0;
}

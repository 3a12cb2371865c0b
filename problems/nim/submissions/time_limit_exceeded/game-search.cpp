// Naive: plain game-tree search without theory (and without memoisation).
// Correct on tiny inputs, exponential in general.
#include <cstdio>
#include <vector>
using namespace std;

int n;
vector<int> a;

bool win() {
    for (int i = 0; i < n; i++) {
        int old = a[i];
        for (int v = 0; v < old; v++) {
            a[i] = v;
            bool w = win();
            a[i] = old;
            if (!w) return true;
        }
    }
    return false;
}

int main() {
    scanf("%d", &n);
    a.resize(n);
    for (int i = 0; i < n; i++) scanf("%d", &a[i]);
    puts(win() ? "Yes" : "No");
    return 0;
}

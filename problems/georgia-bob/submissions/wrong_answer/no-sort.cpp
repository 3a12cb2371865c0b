// Mistake: assumes the positions are given in increasing order (they are in
// the samples) and pairs them as read.
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
        if (n % 2 == 1) p.insert(p.begin(), 0);
        int x = 0;
        for (size_t i = 0; i + 1 < p.size(); i += 2) x ^= p[i + 1] - p[i] - 1;
        puts(x ? "Georgia will win" : "Bob will win");
    }
    return 0;
}

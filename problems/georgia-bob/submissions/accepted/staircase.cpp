#include <algorithm>
#include <cstdio>
#include <vector>
using namespace std;

int main() {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int n;
        scanf("%d", &n);
        vector<int> p(n);
        for (auto &x : p) scanf("%d", &x);
        if (n % 2 == 1) p.push_back(0);
        sort(p.begin(), p.end());
        int x = 0;
        for (size_t i = 0; i + 1 < p.size(); i += 2) x ^= p[i + 1] - p[i] - 1;
        puts(x ? "Georgia will win" : "Bob will win");
    }
    return 0;
}

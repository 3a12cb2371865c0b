// Mistake: XORs the pair gaps bit column by column over bits 0..12 only (the
// author took 2^13 = 8192 for "above 10^4"), but a gap reaches 9998, so bit 13
// is lost: a position whose gap XOR is exactly 8192 is judged as XOR 0.
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
        if (n % 2 == 1) p.push_back(0);
        sort(p.begin(), p.end());
        int cnt[13] = {0};
        for (size_t i = 0; i + 1 < p.size(); i += 2) {
            int g = p[i + 1] - p[i] - 1;
            for (int b = 0; b < 13; b++)
                if (g >> b & 1) cnt[b]++;
        }
        bool georgia = false;
        for (int b = 0; b < 13; b++)
            if (cnt[b] % 2) georgia = true;
        puts(georgia ? "Georgia will win" : "Bob will win");
    }
}

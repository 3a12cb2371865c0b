// Plays Nim by the XOR rule: be first iff the XOR is non-zero, then always
// move to a position of XOR 0. Flushes after every line (endl).
#include <bits/stdc++.h>
using namespace std;

int main() {
    int t;
    cin >> t;
    while (t--) {
        int n;
        cin >> n;
        vector<int> a(n);
        for (int &x : a) cin >> x;
        auto empty = [&] { return all_of(a.begin(), a.end(), [](int x) { return x == 0; }); };
        int x = 0;
        for (int v : a) x ^= v;
        bool mine = x != 0;
        cout << (mine ? "first" : "second") << endl;
        while (!empty()) {
            if (mine) {
                x = 0;
                for (int v : a) x ^= v;
                for (int i = 0; i < n; i++)
                    if ((a[i] ^ x) < a[i]) {
                        cout << i + 1 << ' ' << a[i] - (a[i] ^ x) << endl;
                        a[i] ^= x;
                        break;
                    }
            } else {
                int i, k;
                cin >> i >> k;
                a[i - 1] -= k;
            }
            mine = !mine;
        }
    }
}

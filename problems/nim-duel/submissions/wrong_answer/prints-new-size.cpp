// Right pile, but writes the size the pile is left with instead of the
// stones taken: emptying a pile becomes "take 0 stones" (illegal), and
// other moves take the wrong count.
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
                int i = 0;
                while ((a[i] ^ x) >= a[i]) i++;
                int left = a[i] ^ x;
                cout << i + 1 << ' ' << left << endl;
                a[i] -= left;
            } else {
                int i, k;
                cin >> i >> k;
                a[i - 1] -= k;
            }
            mine = !mine;
        }
    }
}

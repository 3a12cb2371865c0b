// Plays the first game right, then leaves without reading the next one.
#include <bits/stdc++.h>
using namespace std;

int main() {
    int t, n;
    cin >> t >> n;
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
            cout << i + 1 << ' ' << a[i] - (a[i] ^ x) << endl;
            a[i] ^= x;
        } else {
            int i, k;
            cin >> i >> k;
            a[i - 1] -= k;
        }
        mine = !mine;
    }
    return 0;
}

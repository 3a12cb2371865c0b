// Names the LAST winning heap (the reference names the first): where several
// heaps win, its answer differs from the answer file and must still pass.
#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int t;
    cin >> t;
    while (t--) {
        int n;
        cin >> n;
        vector<long long> a(n);
        long long x = 0;
        for (auto &v : a) {
            cin >> v;
            x ^= v;
        }
        if (x == 0) {
            cout << "lose\n";
            continue;
        }
        for (int i = n - 1; i >= 0; i--) {
            if ((a[i] ^ x) < a[i]) {
                cout << i + 1 << ' ' << a[i] - (a[i] ^ x) << '\n';
                break;
            }
        }
    }
    return 0;
}

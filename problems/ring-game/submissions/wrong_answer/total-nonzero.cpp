// Wrong: uses the parity of the total number of non-zero edges instead of the two runs
// that touch the coin.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n;
    cin >> n;
    int cnt = 0;
    for (int i = 0; i < n; i++) {
        int x;
        cin >> x;
        if (x != 0) cnt++;
    }
    cout << (cnt % 2 == 1 ? "YES" : "NO") << endl;
}

#include <bits/stdc++.h>
using namespace std;
int main() {
    int n;
    cin >> n;
    vector<int> a(n);
    for (auto &x : a) cin >> x;
    int l = 0, r = 0;
    for (int i = 0; i < n && a[i] != 0; i++) l++;
    for (int i = n - 1; i >= 0 && a[i] != 0; i--) r++;
    cout << ((l % 2 == 1 || r % 2 == 1) ? "YES" : "NO") << endl;
    return 0;
}

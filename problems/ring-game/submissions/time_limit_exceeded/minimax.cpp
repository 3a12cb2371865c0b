// Correct but exponential: plays the game out by plain minimax, without memoisation.
#include <bits/stdc++.h>
using namespace std;
int n;
int e[25];
// edge k (0-based) joins node k and node k+1 (mod n); the coin starts at node 0.
bool win(int node) {
    int ef = node, eb = (node + n - 1) % n;
    int tf = (node + 1) % n, tb = (node + n - 1) % n;
    for (int side = 0; side < 2; side++) {
        int ei = side == 0 ? ef : eb, to = side == 0 ? tf : tb;
        int old = e[ei];
        for (int v = old - 1; v >= 0; v--) {
            e[ei] = v;
            bool w = win(to);
            e[ei] = old;
            if (!w) return true;
        }
    }
    return false;
}
int main() {
    cin >> n;
    for (int i = 0; i < n; i++) cin >> e[i];
    cout << (win(0) ? "YES" : "NO") << endl;
}

// Correct but slow: fills the win/lose table up to the largest n, trying 1 and every
// prime power as a move.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    scanf("%d", &T);
    vector<int> q(T);
    int mx = 1;
    for (auto &x : q) scanf("%d", &x), mx = max(mx, x);
    vector<int> moves = {1};
    vector<char> comp(mx + 1, 0);
    for (long long i = 2; i <= mx; i++) {
        if (comp[i]) continue;
        for (long long j = i * i; j <= mx; j += i) comp[j] = 1;
        for (long long x = i; x <= mx; x *= i) moves.push_back((int)x);
    }
    sort(moves.begin(), moves.end());
    vector<char> win(mx + 1, 0);
    for (int n = 1; n <= mx; n++)
        for (int m : moves) {
            if (m > n) break;
            if (!win[n - m]) { win[n] = 1; break; }
        }
    for (int x : q) puts(win[x] ? "October wins!" : "Roy wins!");
}

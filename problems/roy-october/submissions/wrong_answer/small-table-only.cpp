// Wrong (a partial solution): plays the game out exactly with a win/lose table, but only up
// to 1000 stones; for larger piles it guesses that October, the first player, wins.
#include <bits/stdc++.h>
using namespace std;
const int LIM = 1000;
int main() {
    vector<int> moves = {1};
    for (int x = 2; x <= LIM; x++) {
        int p = 2;
        while (x % p) p++;
        int y = x;
        while (y % p == 0) y /= p;
        if (y == 1) moves.push_back(x);
    }
    vector<char> win(LIM + 1, 0);
    for (int n = 1; n <= LIM; n++)
        for (int m : moves) {
            if (m > n) break;
            if (!win[n - m]) { win[n] = 1; break; }
        }
    int T;
    scanf("%d", &T);
    while (T--) {
        int n;
        scanf("%d", &n);
        bool first = n > LIM ? true : win[n];
        puts(first ? "October wins!" : "Roy wins!");
    }
}

// The right recursion for SG(w, h), but without memoisation: exponential in the board size.
#include <cstdio>
#include <cstring>

int sg(int w, int h) {
    bool vis[64];
    memset(vis, 0, sizeof vis);
    for (int i = 2; i <= w - 2; i++) vis[sg(i, h) ^ sg(w - i, h)] = true;
    for (int j = 2; j <= h - 2; j++) vis[sg(w, j) ^ sg(w, h - j)] = true;
    int m = 0;
    while (vis[m]) m++;
    return m;
}

int main() {
    int w, h;
    while (scanf("%d %d", &w, &h) == 2) {
        puts(sg(w, h) ? "WIN" : "LOSE");
        fflush(stdout);
    }
    return 0;
}

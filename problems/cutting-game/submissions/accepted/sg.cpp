#include <cstdio>
#include <cstring>

int sg[205][205];

int main() {
    for (int w = 2; w <= 200; w++) {
        for (int h = 2; h <= 200; h++) {
            bool vis[64];
            memset(vis, 0, sizeof vis);
            for (int i = 2; i <= w - 2; i++) vis[sg[i][h] ^ sg[w - i][h]] = true;
            for (int j = 2; j <= h - 2; j++) vis[sg[w][j] ^ sg[w][h - j]] = true;
            int m = 0;
            while (vis[m]) m++;
            sg[w][h] = m;
        }
    }
    int w, h;
    while (scanf("%d %d", &w, &h) == 2) puts(sg[w][h] ? "WIN" : "LOSE");
    return 0;
}

// Keeps only win/lose per piece and calls a cut good when it leaves two losing pieces.
// The sum of two winning pieces can be a loss too, so win/lose bits are not enough: SG values are.
#include <cstdio>

bool win[205][205];

int main() {
    for (int w = 2; w <= 200; w++)
        for (int h = 2; h <= 200; h++) {
            bool any = false;
            for (int i = 2; i <= w - 2 && !any; i++)
                if (!win[i][h] && !win[w - i][h]) any = true;
            for (int j = 2; j <= h - 2 && !any; j++)
                if (!win[w][j] && !win[w][h - j]) any = true;
            win[w][h] = any;
        }
    int w, h;
    while (scanf("%d%d", &w, &h) == 2) puts(win[w][h] ? "WIN" : "LOSE");
    return 0;
}

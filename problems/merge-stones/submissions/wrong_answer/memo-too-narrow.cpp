// Mistake: sizes the memo for b <= 50 * 1000 = 50000, but b = sum + count - 1 reaches 50049, so f[0][b] spills into row 1.
#include <bits/stdc++.h>
using namespace std;

// a: number of 1-piles; b: moves left in the part made of the piles >= 2.
const int N = 55, M = 50000;
int f[N][M];

int dp(int a, int b) {
    int &v = f[a][b];
    if (v != -1) return v;
    if (a == 0) return v = b % 2;
    if (b == 1) return v = dp(a + 1, 0);
    if (a && !dp(a - 1, b)) return v = 1;
    if (b && !dp(a, b - 1)) return v = 1;
    if (a >= 2 && !dp(a - 2, b ? b + 3 : 2)) return v = 1;
    if (a && b && !dp(a - 1, b + 1)) return v = 1;
    return v = 0;
}

int main() {
    memset(f, -1, sizeof f);
    int T;
    scanf("%d", &T);
    while (T--) {
        int n;
        scanf("%d", &n);
        int a = 0, b = 0;
        for (int i = 0; i < n; i++) {
            int x;
            scanf("%d", &x);
            if (x == 1) a++;
            else b += b ? x + 1 : x;
        }
        puts(dp(a, b) ? "YES" : "NO");
    }
    return 0;
}

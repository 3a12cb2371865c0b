// Mistake: computes for each pile only whether it is a win (SG != 0) and
// XORs those bits, losing the information of SG values above 1.
#include <cstdio>
#include <cstring>

int k, n, s[110];
int win[10010];

int main() {
    scanf("%d", &k);
    for (int i = 0; i < k; i++) scanf("%d", &s[i]);
    scanf("%d", &n);
    win[0] = 0;
    for (int x = 1; x <= 10000; x++) {
        win[x] = 0;
        for (int i = 0; i < k; i++)
            if (s[i] <= x && !win[x - s[i]]) win[x] = 1;
    }
    int res = 0;
    for (int i = 0; i < n; i++) {
        int h;
        scanf("%d", &h);
        res ^= win[h];
    }
    puts(res ? "Yes" : "No");
    return 0;
}

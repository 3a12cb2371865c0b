// Mistake: computes each mex with a 64-bit mask of the successors' SG values
// ("SG values are small"), ignoring values >= 64 and capping the mex at 64. With
// k up to 100 moves an SG value reaches 100: from S = {1..100}, SG(65) = 65 but
// this gives 0.
#include <cstdio>

int k, n, s[105], f[10005];

int main() {
    scanf("%d", &k);
    for (int i = 0; i < k; i++) scanf("%d", &s[i]);
    scanf("%d", &n);
    for (int x = 1; x <= 10000; x++) {
        unsigned long long seen = 0;
        for (int i = 0; i < k; i++)
            if (s[i] <= x && f[x - s[i]] < 64) seen |= 1ULL << f[x - s[i]];
        int g = 0;
        while (g < 64 && (seen >> g & 1)) g++;
        f[x] = g;
    }
    int res = 0;
    for (int i = 0; i < n; i++) {
        int h;
        scanf("%d", &h);
        res ^= f[h];
    }
    puts(res ? "Yes" : "No");
}

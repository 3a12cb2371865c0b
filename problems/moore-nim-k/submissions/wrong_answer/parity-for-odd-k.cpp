// Mistake: for odd k (k + 1 even) checks only that every bit count is even, i.e. plain
// Nim's XOR; misses counts like 2 with k = 3 (even, but not a multiple of k + 1 = 4).
#include <cstdio>

int main() {
    int n, k;
    scanf("%d %d", &n, &k);
    int cnt[31] = {0};
    for (int i = 0; i < n; i++) {
        int a;
        scanf("%d", &a);
        for (int b = 0; b < 31; b++)
            if (a >> b & 1) cnt[b]++;
    }
    int mod = (k % 2 == 1) ? 2 : k + 1;
    bool lose = true;
    for (int b = 0; b < 31; b++)
        if (cnt[b] % mod) lose = false;
    puts(lose ? "No" : "Yes");
    return 0;
}

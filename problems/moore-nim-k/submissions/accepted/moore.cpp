#include <cstdio>

int main() {
    int n, k;
    if (scanf("%d %d", &n, &k) != 2) return 0;
    int cnt[31] = {0};
    for (int i = 0; i < n; i++) {
        int a;
        scanf("%d", &a);
        for (int b = 0; b < 31; b++)
            if (a >> b & 1) cnt[b]++;
    }
    bool lose = true;
    for (int b = 0; b < 31; b++)
        if (cnt[b] % (k + 1) != 0) lose = false;
    puts(lose ? "No" : "Yes");
    return 0;
}

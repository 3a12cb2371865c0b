// Wrong: treats the top as a person at -1 for odd N even when k = 2, where
// person 1 may only come up to distance 1 (first gap a1 - 1, not a1).
#include <cstdio>

int a[1005];

int main() {
    int n, k;
    while (scanf("%d %d", &n, &k) == 2) {
        for (int i = 1; i <= n; i++) scanf("%d", &a[i]);
        if (k == 1) {
            puts("Alice");
            continue;
        }
        a[0] = -1;
        int x = 0;
        for (int i = n; i >= 1; i -= 2) x ^= a[i] - a[i - 1] - 1;
        puts(x ? "Alice" : "Bob");
    }
    return 0;
}

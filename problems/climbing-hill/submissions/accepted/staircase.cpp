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
        int x = 0;
        if (n % 2 == 0) {
            for (int i = 2; i <= n; i += 2) x ^= a[i] - a[i - 1] - 1;
        } else {
            // the hilltop acts as a person at -1; with k = 2 the first
            // person may only come up to distance 1
            x = (k == 2) ? a[1] - 1 : a[1];
            for (int i = 3; i <= n; i += 2) x ^= a[i] - a[i - 1] - 1;
        }
        puts(x ? "Alice" : "Bob");
    }
    return 0;
}

#include <cstdio>

int main() {
    int n;
    scanf("%d", &n);
    int res = 0;
    for (int i = 1; i <= n; i++) {
        int x;
        scanf("%d", &x);
        if (i & 1) res ^= x;
    }
    puts(res ? "Yes" : "No");
    return 0;
}

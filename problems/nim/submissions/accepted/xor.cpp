#include <cstdio>

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    int x = 0;
    for (int i = 0; i < n; i++) {
        int a;
        scanf("%d", &a);
        x ^= a;
    }
    puts(x ? "Yes" : "No");
    return 0;
}

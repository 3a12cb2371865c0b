#include <cstdio>

int main() {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        long long n;
        scanf("%lld", &n);
        puts(n % 4 == 0 ? "Roy wins!" : "October wins!");
    }
    return 0;
}

#include <cstdio>
int main() {
    int T;
    scanf("%d", &T);
    while (T--) {
        long long n;
        scanf("%lld", &n);
        puts(n % 6 == 0 ? "Roy wins!" : "October wins!");
    }
    return 0;
}

// Mistake: "splitting a pile never helps", so it plays plain Nim on the pile
// sizes. Agrees with the samples, but e.g. 1 2 3 is a win (SG 1, 2, 4).
#include <cstdio>

int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        int n;
        scanf("%d", &n);
        long long x = 0;
        for (int i = 0; i < n; i++) {
            long long s;
            scanf("%lld", &s);
            x ^= s;
        }
        puts(x ? "Alice" : "Bob");
    }
    return 0;
}

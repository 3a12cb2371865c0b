// Mistake: 32-bit signed arithmetic with a sign test. SG(2^31 - 1) = 2^31
// wraps to INT_MIN, so the XOR becomes negative and `x > 0` says Bob.
#include <cstdio>

int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        int n;
        scanf("%d", &n);
        int x = 0;
        for (int i = 0; i < n; i++) {
            unsigned s;
            scanf("%u", &s);
            unsigned g = s;
            if (s % 4 == 0) g = s - 1;
            else if (s % 4 == 3) g = s + 1;  // 2^31 for s = 2^31 - 1
            x ^= (int)g;                     // ... which is INT_MIN here
        }
        puts(x > 0 ? "Alice" : "Bob");
    }
    return 0;
}

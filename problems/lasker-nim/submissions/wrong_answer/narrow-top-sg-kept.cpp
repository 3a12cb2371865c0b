// Lasker's Nim with SG(2^31 - 1) kept at 2^31 - 1 "to avoid the overflow of
// v + 1" in an int. The true value is 2^31. With an even number of such piles
// both cancel; with an odd number the XOR differs only in that the true one has
// bit 31 and the kept one has bits 0..30: the answers differ exactly when the
// other piles' SG values XOR to 2^31 - 1 (the kept XOR is then 0: "Bob").
#include <climits>
#include <cstdio>

int main() {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int n;
        if (scanf("%d", &n) != 1) return 0;
        int x = 0;
        for (int i = 0; i < n; i++) {
            int s;
            if (scanf("%d", &s) != 1) return 0;
            int g;
            if (s % 4 == 0) g = s - 1;
            else if (s % 4 == 3) g = s == INT_MAX ? INT_MAX : s + 1;
            else g = s;
            x ^= g;
        }
        puts(x ? "Alice" : "Bob");
    }
    return 0;
}

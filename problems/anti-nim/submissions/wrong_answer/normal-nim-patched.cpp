// Mistake: plays normal Nim (XOR != 0 wins) and only patches the case the
// sample shows -- a single pile of one stone loses. Wrong for all-ones
// positions with two or more piles (the parity is the opposite of Nim's).
#include <cstdio>

int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        int n;
        scanf("%d", &n);
        int x = 0, first = 0;
        for (int i = 0; i < n; i++) {
            int a;
            scanf("%d", &a);
            if (i == 0) first = a;
            x ^= a;
        }
        if (n == 1 && first == 1) puts("Brother");
        else puts(x ? "John" : "Brother");
    }
    return 0;
}

#include <cstdio>

int main() {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int n;
        scanf("%d", &n);
        int x = 0;
        bool big = false;
        for (int i = 0; i < n; i++) {
            int a;
            scanf("%d", &a);
            x ^= a;
            if (a > 1) big = true;
        }
        bool john = big ? (x != 0) : (n % 2 == 0);
        puts(john ? "John" : "Brother");
    }
    return 0;
}

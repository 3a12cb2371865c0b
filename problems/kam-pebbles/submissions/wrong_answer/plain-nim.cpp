// Wrong: ignores the order constraint and plays plain Nim on the piles.
#include <cstdio>

int main() {
    int u;
    scanf("%d", &u);
    while (u--) {
        int n, x = 0;
        scanf("%d", &n);
        for (int i = 0; i < n; i++) {
            int v;
            scanf("%d", &v);
            x ^= v;
        }
        puts(x ? "TAK" : "NIE");
    }
    return 0;
}

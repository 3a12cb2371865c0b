#include <cstdio>
#include <vector>

int main() {
    int u;
    if (scanf("%d", &u) != 1) return 0;
    while (u--) {
        int n;
        scanf("%d", &n);
        std::vector<int> a(n + 1, 0);
        for (int i = 1; i <= n; i++) scanf("%d", &a[i]);
        // differences d_i = a_i - a_{i-1}; staircase Nim with the ground at the right
        int x = 0;
        for (int i = n; i >= 1; i -= 2) x ^= a[i] - a[i - 1];
        puts(x ? "TAK" : "NIE");
    }
    return 0;
}

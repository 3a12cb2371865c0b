// Mistake: right SG values, wrong combination -- parity of their sum instead of their XOR.
#include <cstdio>

int k, n, s[110], f[10010];

int main() {
    scanf("%d", &k);
    for (int i = 0; i < k; i++) scanf("%d", &s[i]);
    scanf("%d", &n);
    for (int x = 1; x <= 10000; x++) {
        bool vis[110] = {false};
        for (int i = 0; i < k; i++)
            if (s[i] <= x) vis[f[x - s[i]]] = true;
        int m = 0;
        while (vis[m]) m++;
        f[x] = m;
    }
    int sum = 0;
    for (int i = 0; i < n; i++) {
        int h;
        scanf("%d", &h);
        sum += f[h];
    }
    puts(sum % 2 ? "Yes" : "No");
    return 0;
}

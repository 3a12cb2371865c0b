// Mistake: the mex marks live in one global array, cleared at the start of
// every call; the recursive calls inside the loop wipe and refill the
// caller's marks.
#include <cstdio>
#include <cstring>

int k, n, s[110], f[10010];
bool vis[10010];

int sg(int x) {
    if (f[x] != -1) return f[x];
    memset(vis, 0, sizeof vis);
    for (int i = 0; i < k; i++)
        if (x >= s[i]) vis[sg(x - s[i])] = true;
    int m = 0;
    while (vis[m]) m++;
    return f[x] = m;
}

int main() {
    scanf("%d", &k);
    for (int i = 0; i < k; i++) scanf("%d", &s[i]);
    scanf("%d", &n);
    memset(f, -1, sizeof f);
    int res = 0;
    for (int i = 0; i < n; i++) {
        int h;
        scanf("%d", &h);
        res ^= sg(h);
    }
    puts(res ? "Yes" : "No");
    return 0;
}

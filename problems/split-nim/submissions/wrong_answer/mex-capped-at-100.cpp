// Mistake: assumes SG(x) <= x <= 100, so the mex marks are an array of 101
// entries (values above 100 are ignored) -- but SG(52) = 103.
#include <cstdio>

int sg[105];

int main() {
    for (int x = 1; x <= 100; x++) {
        bool st[101] = {false};
        for (int i = 0; i < x; i++)
            for (int j = 0; j <= i; j++) {
                int v = sg[i] ^ sg[j];
                if (v <= 100) st[v] = true;
            }
        int m = 0;
        while (m <= 100 && st[m]) m++;
        sg[x] = m;
    }
    int n;
    scanf("%d", &n);
    int res = 0;
    for (int i = 0; i < n; i++) {
        int x;
        scanf("%d", &x);
        res ^= sg[x];
    }
    puts(res ? "Yes" : "No");
    return 0;
}

// Correct recurrences, but computed top-down without memoisation: every interval value
// is recomputed from scratch, about 2^n calls.
#include <bits/stdc++.h>
using namespace std;
int n;
vector<long long> a;
long long rgt(int i, int j);
long long lft(int i, int j) {
    if (i == j) return a[i];
    long long L = lft(i, j - 1), R = rgt(i, j - 1), X = a[j];
    if (X == R) return 0;
    if ((X < L && X < R) || (X > L && X > R)) return X;
    return L > R ? X - 1 : X + 1;
}
long long rgt(int i, int j) {
    if (i == j) return a[i];
    long long L = lft(i + 1, j), R = rgt(i + 1, j), X = a[i];
    if (X == L) return 0;
    if ((X < L && X < R) || (X > L && X > R)) return X;
    return R > L ? X - 1 : X + 1;
}
int main() {
    int T;
    scanf("%d", &T);
    while (T--) {
        scanf("%d", &n);
        a.assign(n + 1, 0);
        for (int i = 1; i <= n; i++) scanf("%lld", &a[i]);
        printf("%d\n", n == 1 ? 1 : (int)(lft(2, n) != a[1]));
    }
}

// Mistake: treats the game like the one-pile "take 1..k" game (Bachet) and
// looks at the total number of stones modulo k + 1.
#include <cstdio>

int main() {
    int n, k;
    scanf("%d %d", &n, &k);
    long long sum = 0;
    for (int i = 0; i < n; i++) {
        long long a;
        scanf("%lld", &a);
        sum += a;
    }
    puts(sum % (k + 1) ? "Yes" : "No");
    return 0;
}

// Mistake: decides by the parity of the total number of stones
// (as if every move removed exactly one stone).
#include <cstdio>

int main() {
    int n;
    scanf("%d", &n);
    long long sum = 0;
    for (int i = 0; i < n; i++) {
        long long a;
        scanf("%lld", &a);
        sum += a;
    }
    puts(sum % 2 == 1 ? "Yes" : "No");
    return 0;
}

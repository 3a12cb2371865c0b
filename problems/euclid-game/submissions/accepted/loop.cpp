#include <cstdio>
#include <algorithm>

int main() {
    long long a, b;
    while (scanf("%lld %lld", &a, &b) == 2) {
        if (a == 0 && b == 0) break;
        bool stan = true;
        while (true) {
            if (a < b) std::swap(a, b);
            if (a % b == 0 || a >= 2 * b) break;
            a -= b;
            stan = !stan;
        }
        puts(stan ? "Stan wins" : "Ollie wins");
    }
    return 0;
}

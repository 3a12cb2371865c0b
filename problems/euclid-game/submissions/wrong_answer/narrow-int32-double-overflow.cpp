// Wrong: 32-bit ints; 2*b wraps when b > 2^30, so a >= 2*b is wrongly true.
#include <cstdio>
#include <algorithm>

int main() {
    int a, b;
    while (scanf("%d %d", &a, &b) == 2) {
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

#include <cstdio>

int main() {
    int a, b, r;
    if (scanf("%d %d %d", &a, &b, &r) != 3) return 0;
    // One plate fits -> put it in the centre, then mirror every reply.
    puts(2 * r <= a && 2 * r <= b ? "First" : "Second");
    return 0;
}

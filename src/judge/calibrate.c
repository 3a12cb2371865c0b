#include <stdint.h>
#include <stdio.h>

/* grundy's calibration program: the Sprague-Grundy values of 400 subtraction
   games (8 moves each, drawn by a fixed xorshift) on heaps up to 2^16, as a
   fixed amount of integer, branch and memory work. It prints one checksum,
   the same on every machine. */

#define HEAPS (1 << 16)
#define GAMES 400
#define MOVES 8

static uint8_t g[HEAPS];

int main(void) {
    uint64_t x = 0x9E3779B97F4A7C15ULL, sum = 0;
    for (int game = 0; game < GAMES; game++) {
        int moves[MOVES];
        for (int k = 0; k < MOVES; k++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            moves[k] = 1 + (int)(x % 97);
        }
        for (int n = 0; n < HEAPS; n++) {
            unsigned seen = 0;
            for (int k = 0; k < MOVES; k++) {
                if (moves[k] <= n) {
                    seen |= 1u << g[n - moves[k]];
                }
            }
            g[n] = (uint8_t)__builtin_ctz(~seen);
            sum = sum * 31 + g[n];
        }
    }
    printf("%llu\n", (unsigned long long)sum);
    return 0;
}

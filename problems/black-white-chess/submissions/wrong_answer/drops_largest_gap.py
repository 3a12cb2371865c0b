# Mistake: the final sum over the total pile size s stops at n - k - 1, so the
# placements with no empty cell outside the pairs (s = n - k) are never
# subtracted.
import sys

MOD = 10**9 + 7


def main():
    n, k, d = map(int, sys.stdin.read().split())
    m = k // 2
    fact = [1] * (n + 1)
    for i in range(1, n + 1):
        fact[i] = fact[i - 1] * i % MOD

    def C(a, b):
        if b < 0 or b > a:
            return 0
        return fact[a] * pow(fact[b] * fact[a - b] % MOD, MOD - 2, MOD) % MOD

    top = n - k
    f = [0] * (top + 1)
    f[0] = 1
    step = d + 1
    while step <= top:
        g = [0] * (top + 1)
        for s in range(0, top + 1, d + 1):
            if f[s]:
                l = 0
                while l * (d + 1) <= m and s + l * step <= top:
                    g[s + l * step] = (g[s + l * step] + f[s] * C(m, l * (d + 1))) % MOD
                    l += 1
        f = g
        step *= 2
    lose = 0
    for s in range(top):
        lose = (lose + f[s] * C(n - m - s, m)) % MOD
    print((C(n, k) - lose) % MOD)


main()

import sys

MOD = 10**9 + 7


def main():
    n, k, d = map(int, sys.stdin.read().split())
    m = k // 2
    fact = [1] * (n + 1)
    for i in range(1, n + 1):
        fact[i] = fact[i - 1] * i % MOD
    inv = [1] * (n + 1)
    inv[n] = pow(fact[n], MOD - 2, MOD)
    for i in range(n, 0, -1):
        inv[i - 1] = inv[i] * i % MOD

    def C(a, b):
        if b < 0 or b > a:
            return 0
        return fact[a] * inv[b] % MOD * inv[a - b] % MOD

    top = n - k
    # choose[l] = C(m, l*(d+1)): ways to give the current bit to l*(d+1) piles
    choose = [C(m, l * (d + 1)) for l in range(m // (d + 1) + 1)]
    f = {0: 1}
    step = d + 1
    while step <= top:
        g = {}
        for s, ways in f.items():
            for l, c in enumerate(choose):
                t = s + l * step
                if t > top:
                    break
                g[t] = (g.get(t, 0) + ways * c) % MOD
        f = g
        step *= 2
    lose = 0
    for s, ways in f.items():
        lose += ways * C(n - m - s, m)
    print((C(n, k) - lose) % MOD)


main()

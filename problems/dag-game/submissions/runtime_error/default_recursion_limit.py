# Memoised recursion with Python's default recursion limit (1000): a chain of
# 2000 nodes overflows it (RecursionError).
import sys


def main():
    data = sys.stdin.read().split()
    n, m, k = int(data[0]), int(data[1]), int(data[2])
    adj = [[] for _ in range(n + 1)]
    for i in range(m):
        adj[int(data[3 + 2 * i])].append(int(data[4 + 2 * i]))
    sg = [-1] * (n + 1)

    def f(u):
        if sg[u] < 0:
            s = {f(v) for v in adj[u]}
            x = 0
            while x in s:
                x += 1
            sg[u] = x
        return sg[u]

    res = 0
    for t in data[3 + 2 * m:3 + 2 * m + k]:
        res ^= f(int(t))
    print("win" if res else "lose")


main()

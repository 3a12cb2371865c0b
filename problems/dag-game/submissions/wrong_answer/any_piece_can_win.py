# Mistake: the first player is said to win as soon as some piece stands on a
# winning node (non-zero Grundy value), instead of XOR-ing the values.
import sys

sys.setrecursionlimit(10000)


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

    starts = [int(t) for t in data[3 + 2 * m:3 + 2 * m + k]]
    print("win" if any(f(u) for u in starts) else "lose")


main()

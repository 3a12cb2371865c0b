# Believes the first player wins whenever some piece can move, and then
# always slides the first movable piece along its first edge.
import sys


def main():
    inp = sys.stdin
    t = int(inp.readline())
    for _ in range(t):
        n, m, k = map(int, inp.readline().split())
        out = [[] for _ in range(n + 1)]
        for _ in range(m):
            x, y = map(int, inp.readline().split())
            out[x].append(y)
        p = list(map(int, inp.readline().split()))
        mine = any(out[u] for u in p)
        print("first" if mine else "second", flush=True)
        while any(out[u] for u in p):
            if mine:
                j = next(j for j in range(k) if out[p[j]])
                print(j + 1, out[p[j]][0], flush=True)
                p[j] = out[p[j]][0]
            else:
                j, v = map(int, inp.readline().split())
                p[j - 1] = v
            mine = not mine


main()

# Right strategy, but names the piece by the node it stands on (`u v`
# instead of `j v`): a piece number that does not exist, or the wrong piece.
import sys


def main():
    inp = sys.stdin
    t = int(inp.readline())
    for _ in range(t):
        n, m, k = map(int, inp.readline().split())
        out = [[] for _ in range(n + 1)]
        indeg = [0] * (n + 1)
        for _ in range(m):
            x, y = map(int, inp.readline().split())
            out[x].append(y)
            indeg[y] += 1
        p = list(map(int, inp.readline().split()))
        order = [u for u in range(1, n + 1) if indeg[u] == 0]
        for u in order:
            for v in out[u]:
                indeg[v] -= 1
                if indeg[v] == 0:
                    order.append(v)
        sg = [0] * (n + 1)
        for u in reversed(order):
            seen = {sg[v] for v in out[u]}
            g = 0
            while g in seen:
                g += 1
            sg[u] = g
        x = 0
        for u in p:
            x ^= sg[u]
        mine = x != 0
        print("first" if mine else "second", flush=True)
        while any(out[u] for u in p):
            if mine:
                x = 0
                for u in p:
                    x ^= sg[u]
                j, v = next((j, v) for j in range(k) for v in out[p[j]] if sg[v] == sg[p[j]] ^ x)
                print(p[j], v, flush=True)
                p[j] = v
            else:
                line = inp.readline().split()
                if not line:
                    return
                j, v = map(int, line)
                p[j - 1] = v
            mine = not mine


main()

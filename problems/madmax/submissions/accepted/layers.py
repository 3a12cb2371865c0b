import sys


def main():
    data = sys.stdin.buffer.read().split()
    n, m = int(data[0]), int(data[1])
    out = [[[] for _ in range(26)] for _ in range(n)]
    indeg = [0] * n
    adj = [[] for _ in range(n)]
    p = 2
    for _ in range(m):
        v = int(data[p]) - 1
        u = int(data[p + 1]) - 1
        c = data[p + 2][0] - 97
        p += 3
        out[v][c].append(u)
        adj[v].append(u)
        indeg[u] += 1
    # topological positions
    pos = [0] * n
    stack = [v for v in range(n) if indeg[v] == 0]
    k = 0
    while stack:
        v = stack.pop()
        pos[v] = k
        k += 1
        for u in adj[v]:
            indeg[u] -= 1
            if indeg[u] == 0:
                stack.append(u)
    # W[x][y]: the mover on x wins against y when the next letter must be >= c.
    # Going from c = 'z' down to 'a', only edges with letter exactly c add new moves;
    # a move x->u needs the layer-c value of (y, u), and pos[y] + pos[u] > pos[x] + pos[y],
    # so pairs are handled by decreasing pos[x] + pos[y].
    W = [[False] * n for _ in range(n)]
    for c in range(25, -1, -1):
        xs = [x for x in range(n) if out[x][c]]
        if not xs:
            continue
        pairs = [(pos[x] + pos[y], x, y) for x in xs for y in range(n)]
        pairs.sort(reverse=True)
        for _, x, y in pairs:
            row = W[x]
            if row[y]:
                continue
            wy = W[y]
            for u in out[x][c]:
                if not wy[u]:
                    row[y] = True
                    break
    sys.stdout.write("\n".join("".join("A" if w else "B" for w in row) for row in W) + "\n")


main()

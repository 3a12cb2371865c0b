import sys
from collections import deque


def main():
    data = sys.stdin.buffer.read().split()
    n, m, k = int(data[0]), int(data[1]), int(data[2])
    adj = [[] for _ in range(n + 1)]
    indeg = [0] * (n + 1)
    p = 3
    for _ in range(m):
        x, y = int(data[p]), int(data[p + 1])
        p += 2
        adj[x].append(y)
        indeg[y] += 1
    q = deque(u for u in range(1, n + 1) if indeg[u] == 0)
    order = []
    while q:
        u = q.popleft()
        order.append(u)
        for v in adj[u]:
            indeg[v] -= 1
            if indeg[v] == 0:
                q.append(v)
    sg = [0] * (n + 1)
    for u in reversed(order):
        seen = {sg[v] for v in adj[u]}
        x = 0
        while x in seen:
            x += 1
        sg[u] = x
    res = 0
    for t in data[p:p + k]:
        res ^= sg[int(t)]
    print("win" if res else "lose")


main()

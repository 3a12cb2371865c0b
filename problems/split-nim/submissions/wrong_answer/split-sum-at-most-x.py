# Mistake: reads the move as a split, requiring p + q <= x.
import sys

data = sys.stdin.read().split()
n = int(data[0])
a = [int(x) for x in data[1:1 + n]]
sg = [0] * 101
for x in range(1, 101):
    seen = set()
    for p in range(x):
        for q in range(p + 1):
            if p + q <= x:
                seen.add(sg[p] ^ sg[q])
    m = 0
    while m in seen:
        m += 1
    sg[x] = m
res = 0
for x in a:
    res ^= sg[x]
print("Yes" if res else "No")

# SG over cuts 2..w-2, but the second loop (cuts across the height) was forgotten.
import sys

N = 200
sg = [[0] * (N + 1) for _ in range(N + 1)]
for w in range(2, N + 1):
    for h in range(2, N + 1):
        seen = set()
        for i in range(2, w - 1):
            seen.add(sg[i][h] ^ sg[w - i][h])
        m = 0
        while m in seen:
            m += 1
        sg[w][h] = m

data = sys.stdin.read().split()
out = []
for k in range(0, len(data), 2):
    out.append("WIN" if sg[int(data[k])][int(data[k + 1])] else "LOSE")
print("\n".join(out))

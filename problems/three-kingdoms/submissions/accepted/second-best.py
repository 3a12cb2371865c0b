import sys

data = sys.stdin.buffer.read().split()
n = int(data[0])
rows = [[] for _ in range(n)]
k = 1
for i in range(n - 1):
    for j in range(i + 1, n):
        x = int(data[k])
        k += 1
        rows[i].append(x)
        rows[j].append(x)
ans = max(sorted(r)[-2] for r in rows)
print(1)
print(ans)

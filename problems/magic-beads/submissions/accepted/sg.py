import sys

M = 1000
divs = [[] for _ in range(M + 1)]
for i in range(1, M + 1):
    for j in range(2 * i, M + 1, i):
        divs[j].append(i)
sg = [0] * (M + 1)
for p in range(2, M + 1):
    x = 0
    for b in divs[p]:
        x ^= sg[b]
    opts = {x ^ sg[b] for b in divs[p]}
    m = 0
    while m in opts:
        m += 1
    sg[p] = m

data = sys.stdin.buffer.read().split()
out = []
i = 0
while i < len(data):
    n = int(data[i])
    s = 0
    for a in data[i + 1:i + 1 + n]:
        s ^= sg[int(a)]
    out.append("freda" if s else "rainbow")
    i += 1 + n
sys.stdout.write("\n".join(out) + "\n")

# Mistake: prints the heap's new size a ^ X instead of the number of stones
# taken, a - (a ^ X).
import sys

data = sys.stdin.buffer.read().split()
t = int(data[0])
pos = 1
out = []
for _ in range(t):
    n = int(data[pos])
    a = [int(v) for v in data[pos + 1:pos + 1 + n]]
    pos += 1 + n
    x = 0
    for v in a:
        x ^= v
    if x == 0:
        out.append("lose")
        continue
    for i, v in enumerate(a):
        if v ^ x < v:
            out.append("%d %d" % (i + 1, v ^ x))
            break
print("\n".join(out))

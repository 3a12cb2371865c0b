# Mistake: pairs the sorted pieces from the left, (p1,p2), (p3,p4), ..., and
# simply drops the last piece when N is odd, instead of pairing the first piece
# with the wall at cell 0.
import sys

data = sys.stdin.buffer.read().split()
t = int(data[0])
pos = 1
out = []
for _ in range(t):
    n = int(data[pos])
    p = sorted(int(v) for v in data[pos + 1:pos + 1 + n])
    pos += 1 + n
    x = 0
    for i in range(0, n - 1, 2):
        x ^= p[i + 1] - p[i] - 1
    out.append("Georgia will win" if x else "Bob will win")
print("\n".join(out))

# Mistake: misremembered SG table -- adds 1 to piles that are 1 mod 4 instead
# of 3 mod 4 (the samples, with piles 2 and 3 only, cannot tell).
import sys

data = sys.stdin.buffer.read().split()
t = int(data[0])
pos = 1
out = []
for _ in range(t):
    n = int(data[pos])
    pos += 1
    x = 0
    for v in map(int, data[pos:pos + n]):
        r = v % 4
        if r == 0:
            x ^= v - 1
        elif r == 1:
            x ^= v + 1
        else:
            x ^= v
    pos += n
    out.append("Alice" if x else "Bob")
print("\n".join(out))

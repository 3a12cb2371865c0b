# Mistake: "piles of one stone are only tempo moves", so the XOR is taken
# over the piles larger than 1 only; all-ones positions are handled by parity.
# Wrong when an odd number of 1-piles changes the XOR (e.g. 2 2 1).
import sys

data = sys.stdin.buffer.read().split()
t = int(data[0])
pos = 1
out = []
for _ in range(t):
    n = int(data[pos])
    piles = [int(v) for v in data[pos + 1:pos + 1 + n]]
    pos += 1 + n
    big = [a for a in piles if a > 1]
    if not big:
        out.append("John" if n % 2 == 0 else "Brother")
    else:
        x = 0
        for a in big:
            x ^= a
        out.append("John" if x else "Brother")
print("\n".join(out))

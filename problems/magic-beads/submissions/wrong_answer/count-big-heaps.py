# Pattern guess from primes: "every heap with more than one bead is worth one move", so the
# answer would be the parity of the number of heaps larger than 1.
import sys

data = sys.stdin.read().split()
i = 0
out = []
while i < len(data):
    n = int(data[i])
    big = sum(1 for a in data[i + 1:i + 1 + n] if int(a) > 1)
    out.append("freda" if big % 2 == 1 else "rainbow")
    i += 1 + n
print("\n".join(out))

# Mistake: generalises Nim "to base k+1" -- writes the piles in base k + 1 and
# asks every digit sum to be a multiple of k + 1. Right for k = 1 (binary) and
# on the sample, wrong in general: Moore's rule counts BINARY digits mod k + 1.
import sys

data = sys.stdin.buffer.read().split()
n, k = int(data[0]), int(data[1])
piles = [int(v) for v in data[2:2 + n]]
base = k + 1
sums = {}
for a in piles:
    pos = 0
    while a:
        sums[pos] = sums.get(pos, 0) + a % base
        a //= base
        pos += 1
print("Yes" if any(s % base for s in sums.values()) else "No")

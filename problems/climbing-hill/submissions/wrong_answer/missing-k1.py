# Wrong: forgets that with k = 1 the king can walk straight to the top.
import sys

data = sys.stdin.read().split()
p = 0
out = []
while p + 1 < len(data):
    n, k = int(data[p]), int(data[p + 1])
    a = [-1] + [int(x) for x in data[p + 2:p + 2 + n]]
    p += 2 + n
    if n % 2 == 1 and k == 2:
        a[0] = 0
    x = 0
    for i in range(n, 0, -2):
        x ^= a[i] - a[i - 1] - 1
    out.append("Alice" if x else "Bob")
print("\n".join(out))

# Wrong: only walks in the direction of edge 1, forgetting that the first player may
# also start along edge N.
import sys

data = sys.stdin.read().split()
n = int(data[0])
a = [int(x) for x in data[1:1 + n]]
k = 0
while k < n and a[k] != 0:
    k += 1
print("YES" if k % 2 == 1 else "NO")

# Mistake: counts the steps from the top of the staircase (a_n is taken as
# step 1), so for even n it XORs the wrong class of steps.
import sys

data = sys.stdin.buffer.read().split()
n = int(data[0])
a = list(map(int, data[1:1 + n]))
res = 0
for i in range(n - 1, -1, -2):
    res ^= a[i]
print("Yes" if res else "No")

import sys

data = sys.stdin.buffer.read().split()
n = int(data[0])
res = 0
for i in range(1, n + 1, 2):
    res ^= int(data[i])
print("Yes" if res else "No")

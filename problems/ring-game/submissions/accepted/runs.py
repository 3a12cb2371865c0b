import sys

data = sys.stdin.read().split()
n = int(data[0])
a = [int(x) for x in data[1:1 + n]]
left = 0
while left < n and a[left] != 0:
    left += 1
right = 0
while right < n and a[n - 1 - right] != 0:
    right += 1
print("YES" if left % 2 == 1 or right % 2 == 1 else "NO")

# Wrong: believes a pile of a single stone cannot be taken (1 is not a prime power when
# p^0 is overlooked), so n = 1 is reported as a loss for October.
import sys

data = sys.stdin.buffer.read().split()
t = int(data[0])
res = []
for x in data[1:1 + t]:
    n = int(x)
    res.append("Roy wins!" if n == 1 or n % 6 == 0 else "October wins!")
sys.stdout.write("\n".join(res) + "\n")

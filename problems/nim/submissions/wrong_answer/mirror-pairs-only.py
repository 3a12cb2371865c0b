# Mistake: only knows the mirror strategy -- the second player wins iff the
# piles can be matched into equal pairs; misses XOR-zero positions such as 1 2 3.
import sys
from collections import Counter

data = sys.stdin.buffer.read().split()
n = int(data[0])
cnt = Counter(data[1:1 + n])
print("Yes" if any(c % 2 for c in cnt.values()) else "No")

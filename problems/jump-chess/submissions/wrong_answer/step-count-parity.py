# Wrong: assumes every move is worth "one step" and only counts, for every
# piece, the empty cells to its right; the parity of the total decides.
import sys

lines = sys.stdin.buffer.read().split(b"\n")
t = int(lines[0])
pos = 1
out = []
for _ in range(t):
    n = int(lines[pos]); pos += 1
    total = 0
    for line in lines[pos:pos + n]:
        ps = sorted(map(int, line.split()[1:]), reverse=True)
        # the i-th piece from the right has i pieces to its right
        for i, p in enumerate(ps):
            total += 20 - p - i
    pos += n
    out.append("YES" if total % 2 else "NO")
print("\n".join(out))

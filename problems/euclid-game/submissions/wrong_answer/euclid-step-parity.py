# Wrong: counts the division steps of Euclid's algorithm and gives the win to
# whoever makes the last one, ignoring that a quotient >= 2 lets the mover
# choose the parity.
import sys

data = sys.stdin.read().split()
out = []
for i in range(0, len(data) - 1, 2):
    a, b = int(data[i]), int(data[i + 1])
    if a == 0 and b == 0:
        break
    if a < b:
        a, b = b, a
    steps = 0
    while b:
        a, b = b, a % b
        steps += 1
    out.append("Stan wins" if steps % 2 == 1 else "Ollie wins")
print("\n".join(out))

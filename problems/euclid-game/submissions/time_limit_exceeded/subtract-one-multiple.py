# Correct but slow: plays the forced part of the game by subtracting the
# smaller number one multiple at a time, so (2147483647, 1) takes 2^31 steps.
import sys


def main():
    data = sys.stdin.read().split()
    out = []
    for i in range(0, len(data) - 1, 2):
        a, b = int(data[i]), int(data[i + 1])
        if a == 0 and b == 0:
            break
        stan = True
        while True:
            if a < b:
                a, b = b, a
            q = 0
            while a >= b:
                a -= b
                q += 1
            # a is now the remainder
            if a == 0 or q >= 2:
                break
            stan = not stan
        out.append("Stan wins" if stan else "Ollie wins")
    print("\n".join(out))


main()

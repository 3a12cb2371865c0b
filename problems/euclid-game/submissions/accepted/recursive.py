import sys


def wins(a, b):
    # True if the player to move wins from (a, b)
    if a < b:
        a, b = b, a
    if a % b == 0 or a // b >= 2:
        return True
    return not wins(b, a - b)


def main():
    data = sys.stdin.buffer.read().split()
    out = []
    for i in range(0, len(data) - 1, 2):
        a = int(data[i])
        b = int(data[i + 1])
        if a == 0 and b == 0:
            break
        out.append("Stan wins" if wins(a, b) else "Ollie wins")
    sys.stdout.write("\n".join(out) + "\n")


main()

# Bouton: lose iff the XOR is 0; else the first heap with a ^ X < a.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        a = list(map(int, data[pos + 1:pos + 1 + n]))
        pos += 1 + n
        x = 0
        for v in a:
            x ^= v
        if x == 0:
            out.append("lose")
            continue
        for i, v in enumerate(a):
            if v ^ x < v:
                out.append("%d %d" % (i + 1, v - (v ^ x)))
                break
    sys.stdout.write("\n".join(out) + "\n")


main()

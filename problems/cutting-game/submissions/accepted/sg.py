import sys

def main():
    N = 200
    sg = [[0] * (N + 1) for _ in range(N + 1)]
    for w in range(2, N + 1):
        rw = sg[w]
        for h in range(w, N + 1):
            seen = set()
            for i in range(2, w // 2 + 1):
                seen.add(sg[i][h] ^ sg[w - i][h])
            for j in range(2, h // 2 + 1):
                seen.add(rw[j] ^ rw[h - j])
            m = 0
            while m in seen:
                m += 1
            rw[h] = m
            sg[h][w] = m
    data = sys.stdin.buffer.read().split()
    out = []
    for k in range(0, len(data) - 1, 2):
        out.append("WIN" if sg[int(data[k])][int(data[k + 1])] else "LOSE")
    sys.stdout.write("\n".join(out) + "\n")

main()

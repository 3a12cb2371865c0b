import sys

data = sys.stdin.buffer.read().split()
t = int(data[0])
out = []
for i in range(1, t + 1):
    out.append("Roy wins!" if int(data[i]) % 4 == 0 else "October wins!")
sys.stdout.write("\n".join(out) + "\n")

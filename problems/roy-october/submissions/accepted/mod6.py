import sys

data = sys.stdin.buffer.read().split()
t = int(data[0])
res = ["Roy wins!" if int(x) % 6 == 0 else "October wins!" for x in data[1:1 + t]]
sys.stdout.write("\n".join(res) + "\n")

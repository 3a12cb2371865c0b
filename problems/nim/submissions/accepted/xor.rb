data = $stdin.read.split.map(&:to_i)
n = data[0]
x = data[1, n].reduce(0) { |acc, v| acc ^ v }
puts(x != 0 ? "Yes" : "No")

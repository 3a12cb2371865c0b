n = $stdin.read.split.first.to_i
if n > 0
  puts "Yes"

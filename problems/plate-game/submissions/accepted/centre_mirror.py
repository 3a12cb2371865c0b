a, b, r = map(int, input().split())
print("First" if 2 * r <= min(a, b) else "Second")

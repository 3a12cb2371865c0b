# Mistake: checks the plate against the first side of the table only.
a, b, r = map(int, input().split())
print("First" if 2 * r <= a else "Second")

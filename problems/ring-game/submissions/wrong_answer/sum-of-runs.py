# Wrong: adds the two runs and takes the parity of the sum; both runs odd gives NO.
# parity of l + r
import sys
d=sys.stdin.read().split()
n=int(d[0]); a=list(map(int,d[1:n+1]))
l=0
while a[l]!=0: l+=1
r=0
while a[n-1-r]!=0: r+=1
print("YES" if (l+r)%2 else "NO")

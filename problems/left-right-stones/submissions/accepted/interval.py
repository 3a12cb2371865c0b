# Interval DP over lengths, keeping only the previous length: lf[i] / rg[i] are the
# pile sizes that make (x, a_i..a_j) / (a_i..a_j, x) losing for the player to move.
import sys
def main():
    d=sys.stdin.buffer.read().split();T=int(d[0]);p=1;o=[]
    for _ in range(T):
        n=int(d[p]);p+=1;a=list(map(int,d[p:p+n]));p+=n
        if n==1: o.append("1");continue
        # lf[i] for current length: lf[i] = value for interval starting at i
        lf=a[:];rg=a[:]
        for ln in range(2,n):
            nl=[0]*(n-ln+1);nr=[0]*(n-ln+1)
            for i in range(n-ln+1):
                j=i+ln-1
                L=lf[i];R=rg[i];x=a[j]
                if R==x: nl[i]=0
                elif (x<L and x<R) or (x>L and x>R): nl[i]=x
                elif L>R: nl[i]=x-1
                else: nl[i]=x+1
                L=lf[i+1];R=rg[i+1];x=a[i]
                if L==x: nr[i]=0
                elif (x<L and x<R) or (x>L and x>R): nr[i]=x
                elif R>L: nr[i]=x-1
                else: nr[i]=x+1
            lf=nl;rg=nr
        o.append("0" if lf[1]==a[0] else "1")
    print("\n".join(o))
main()

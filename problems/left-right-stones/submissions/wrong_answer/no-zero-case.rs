// Wrong: forgets the case where the new end equals the near-side losing value (the
// interval itself is then a P-position and its losing value is 0).
use std::io::{self, Read};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|x| x.parse::<i64>().unwrap());
    let t = it.next().unwrap();
    let mut out = String::new();
    for _ in 0..t {
        let n = it.next().unwrap() as usize;
        let a: Vec<i64> = (0..n).map(|_| it.next().unwrap()).collect();
        if n == 1 {
            out.push_str("1\n");
            continue;
        }
        let mut l = vec![vec![0i64; n]; n];
        let mut r = vec![vec![0i64; n]; n];
        for i in 0..n {
            l[i][i] = a[i];
            r[i][i] = a[i];
        }
        for len in 2..=n {
            for i in 0..=n - len {
                let j = i + len - 1;
                let (ll, rr, x) = (l[i][j - 1], r[i][j - 1], a[j]);
                l[i][j] = if (x < ll && x < rr) || (x > ll && x > rr) {
                    x
                } else if ll > rr {
                    x - 1
                } else {
                    x + 1
                };
                let (ll, rr, x) = (l[i + 1][j], r[i + 1][j], a[i]);
                r[i][j] = if (x < ll && x < rr) || (x > ll && x > rr) {
                    x
                } else if rr > ll {
                    x - 1
                } else {
                    x + 1
                };
            }
        }
        out.push_str(if l[1][n - 1] == a[0] { "0\n" } else { "1\n" });
    }
    print!("{}", out);
}

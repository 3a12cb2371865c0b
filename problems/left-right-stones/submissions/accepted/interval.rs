use std::io::{self, Read, Write};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|x| x.parse::<i64>().unwrap());
    let t = it.next().unwrap();
    let mut out = String::new();
    for _ in 0..t {
        let n = it.next().unwrap() as usize;
        let a: Vec<i64> = (0..n).map(|_| it.next().unwrap()).collect();
        // l[i][j], r[i][j] over 0-based indices
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
                l[i][j] = if x == rr {
                    0
                } else if (x < ll && x < rr) || (x > ll && x > rr) {
                    x
                } else if ll > rr {
                    x - 1
                } else {
                    x + 1
                };
                let (ll, rr, x) = (l[i + 1][j], r[i + 1][j], a[i]);
                r[i][j] = if x == ll {
                    0
                } else if (x < ll && x < rr) || (x > ll && x > rr) {
                    x
                } else if rr > ll {
                    x - 1
                } else {
                    x + 1
                };
            }
        }
        let win = n == 1 || l[1][n - 1] != a[0];
        out.push_str(if win { "1\n" } else { "0\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}

// Reference solution for left-right-stones (ZJOI2009 取石子游戏).
// lft[i][j]: the unique pile size x > 0 such that (x, a_i..a_j) is a P-position
// (0 if a_i..a_j is already a P-position); rgt[i][j] symmetric on the right.
use std::io::{self, Read, Write};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|x| x.parse::<i64>().unwrap());
    let t = it.next().unwrap() as usize;
    let mut out = String::new();
    for _ in 0..t {
        let n = it.next().unwrap() as usize;
        let a: Vec<i64> = (0..n).map(|_| it.next().unwrap()).collect();
        if n == 1 {
            out.push_str("1\n");
            continue;
        }
        // Work on b = a[1..], diagonal by diagonal: lf[i], rg[i] hold the values for the
        // interval of the current length starting at i.
        let b = &a[1..];
        let m = b.len();
        let mut lf: Vec<i64> = b.to_vec();
        let mut rg: Vec<i64> = b.to_vec();
        for len in 2..=m {
            let cnt = m - len + 1;
            let mut nl = vec![0i64; cnt];
            let mut nr = vec![0i64; cnt];
            for i in 0..cnt {
                let j = i + len - 1;
                // left of [i, j] from [i, j-1] and the new right end b[j]
                let (l, r, x) = (lf[i], rg[i], b[j]);
                nl[i] = if x == r {
                    0
                } else if (x < l && x < r) || (x > l && x > r) {
                    x
                } else if l > r {
                    x - 1
                } else {
                    x + 1
                };
                // right of [i, j] from [i+1, j] and the new left end b[i]
                let (l, r, x) = (lf[i + 1], rg[i + 1], b[i]);
                nr[i] = if x == l {
                    0
                } else if (x < l && x < r) || (x > l && x > r) {
                    x
                } else if r > l {
                    x - 1
                } else {
                    x + 1
                };
            }
            lf = nl;
            rg = nr;
        }
        out.push_str(if lf[0] == a[0] { "0\n" } else { "1\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}

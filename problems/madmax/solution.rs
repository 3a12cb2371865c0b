// Reference solution for madmax (Codeforces 917B MADMAX).
// win(x, y, c): the player to move, whose marble is on x, wins when the other marble is on
// y and the next letter must be >= c. Since a larger c only removes moves,
// win(x, y, c) = win(x, y, c + 1) or some edge x -> u with letter exactly c has !win(y, u, c).
use std::io::{self, Read, Write};

struct G {
    n: usize,
    // out[x][c]: targets of the edges leaving x with letter c
    out: Vec<Vec<Vec<usize>>>,
    // memo: 0 unknown, 1 lose, 2 win; index (c * n + x) * n + y, c in 0..=26
    memo: Vec<u8>,
}

impl G {
    fn win(&mut self, x: usize, y: usize, c: usize) -> bool {
        if c == 26 {
            return false;
        }
        let k = (c * self.n + x) * self.n + y;
        if self.memo[k] != 0 {
            return self.memo[k] == 2;
        }
        let mut res = self.win(x, y, c + 1);
        if !res {
            for i in 0..self.out[x][c].len() {
                let u = self.out[x][c][i];
                if !self.win(y, u, c) {
                    res = true;
                    break;
                }
            }
        }
        self.memo[k] = if res { 2 } else { 1 };
        res
    }
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace();
    let n: usize = it.next().unwrap().parse().unwrap();
    let m: usize = it.next().unwrap().parse().unwrap();
    let mut out = vec![vec![Vec::new(); 26]; n];
    for _ in 0..m {
        let v: usize = it.next().unwrap().parse().unwrap();
        let u: usize = it.next().unwrap().parse().unwrap();
        let c = (it.next().unwrap().as_bytes()[0] - b'a') as usize;
        out[v - 1][c].push(u - 1);
    }
    let mut g = G { n, out, memo: vec![0; 26 * n * n] };
    let mut res = Vec::with_capacity(n * (n + 1));
    for i in 0..n {
        for j in 0..n {
            res.push(if g.win(i, j, 0) { b'A' } else { b'B' });
        }
        res.push(b'\n');
    }
    io::stdout().write_all(&res).unwrap();
}

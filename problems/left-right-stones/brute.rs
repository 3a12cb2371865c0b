// Brute force for left-right-stones: memoised win/lose search over the real positions.
// A position is the index range [i, j] of the surviving piles, with the two end piles
// possibly reduced to lv (pile i) and rv (pile j); inner piles are untouched.
use std::collections::HashMap;
use std::io::{self, Read};

struct Solver {
    a: Vec<u64>,
    memo: HashMap<(usize, usize, u64, u64), bool>,
}

impl Solver {
    // Is the position (piles i..=j, end values lv, rv) a win for the player to move?
    fn win(&mut self, i: usize, j: usize, lv: u64, rv: u64) -> bool {
        let key = (i, j, lv, rv);
        if let Some(&w) = self.memo.get(&key) {
            return w;
        }
        let mut res = false;
        if i == j {
            // one pile: take all of it
            res = true;
        } else {
            // take from the left pile, leaving k in it
            for k in 0..lv {
                let w = if k == 0 {
                    let nl = if i + 1 == j { rv } else { self.a[i + 1] };
                    self.win(i + 1, j, nl, rv)
                } else {
                    self.win(i, j, k, rv)
                };
                if !w {
                    res = true;
                    break;
                }
            }
            if !res {
                for k in 0..rv {
                    let w = if k == 0 {
                        let nr = if i + 1 == j { lv } else { self.a[j - 1] };
                        self.win(i, j - 1, lv, nr)
                    } else {
                        self.win(i, j, lv, k)
                    };
                    if !w {
                        res = true;
                        break;
                    }
                }
            }
        }
        self.memo.insert(key, res);
        res
    }
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<u64> = s.split_ascii_whitespace().map(|x| x.parse().unwrap()).collect();
    let t = v[0] as usize;
    let mut p = 1;
    let mut cases = Vec::new();
    for _ in 0..t {
        let n = v[p] as usize;
        let a = v[p + 1..p + 1 + n].to_vec();
        p += 1 + n;
        // states: O(n^2 * max^2); keep it modest
        let mx = *a.iter().max().unwrap();
        let est = (n as u128) * (n as u128 + 1) / 2 * (mx as u128 + 1) * (mx as u128 + 1);
        // (a single pile is one position whatever its size)
        if n > 1 && (n > 12 || est > 300_000) {
            std::process::exit(3);
        }
        cases.push(a);
    }
    let mut out = String::new();
    for a in cases {
        let n = a.len();
        let (lv, rv) = (a[0], a[n - 1]);
        let mut s = Solver { a, memo: HashMap::new() };
        let w = s.win(0, n - 1, lv, rv);
        out.push_str(if w { "1\n" } else { "0\n" });
    }
    print!("{}", out);
}

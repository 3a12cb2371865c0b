// Brute force for `split-nim`: memoised win/lose search over the real
// positions. A position is the multiset of non-empty piles, stored as counts
// c[1..=M] (piles of size 0 can never be picked, so they are dropped). A move
// replaces one pile x by two piles p, q with 0 <= p, q < x.
use std::collections::HashMap;
use std::io::{self, Read};

fn wins(c: &mut Vec<u32>, memo: &mut HashMap<Vec<u32>, bool>) -> bool {
    if let Some(&w) = memo.get(c.as_slice()) {
        return w;
    }
    let m = c.len() - 1;
    let mut win = false;
    'outer: for x in 1..=m {
        if c[x] == 0 {
            continue;
        }
        for p in 0..x {
            for q in 0..=p {
                c[x] -= 1;
                c[p] += 1;
                c[q] += 1;
                c[0] = 0;
                let opponent = wins(c, memo);
                c[x] += 1;
                if p > 0 {
                    c[p] -= 1;
                }
                if q > 0 {
                    c[q] -= 1;
                }
                if !opponent {
                    win = true;
                    break 'outer;
                }
            }
        }
    }
    memo.insert(c.clone(), win);
    win
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<usize> = s.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let n = v[0];
    let piles = &v[1..1 + n];
    let m = *piles.iter().max().unwrap();
    // Reach: sum over piles of 2^(size-1) never grows (2^(p-1) + 2^(q-1) <= 2^(x-1)),
    // so every reachable count vector has sum c_v 2^(v-1) <= W. Count those vectors
    // and search only when there are at most 300000 of them.
    if m > 20 {
        std::process::exit(3);
    }
    let w: usize = piles.iter().map(|&a| 1usize << (a - 1)).sum();
    if w > 2_000_000 {
        std::process::exit(3);
    }
    let mut ways = vec![0u64; w + 1];
    ways[0] = 1;
    for val in 1..=m {
        let weight = 1usize << (val - 1);
        for t in weight..=w {
            ways[t] = (ways[t] + ways[t - weight]).min(1 << 40);
        }
    }
    if ways.iter().fold(0u64, |a, &b| (a + b).min(1 << 40)) > 300_000 {
        std::process::exit(3);
    }
    let mut c = vec![0u32; m + 1];
    for &a in piles {
        c[a] += 1;
    }
    let mut memo = HashMap::new();
    println!("{}", if wins(&mut c, &mut memo) { "Yes" } else { "No" });
}

// Brute force over the real game: a position is the multiset of heap sizes (heaps of one bead are
// dropped: they can never be chosen). A move picks a heap p > 1, replaces it by one heap for each
// divisor of p below p, and throws one of those new heaps away. No moves left = the mover loses.
// Memoised win/lose search over sorted heap lists; no SG theory involved.
use std::collections::HashMap;
use std::io::{self, Read};

// Within reach: up to 4 heaps of 2..=24 beads, or a single heap of 2..=60 beads (beside any
// number of one-bead heaps, which cost nothing).
fn in_reach(heaps: &[usize]) -> bool {
    let big: Vec<usize> = heaps.iter().copied().filter(|&a| a > 1).collect();
    let max = big.iter().copied().max().unwrap_or(0);
    (big.len() <= 4 && max <= 24) || (big.len() == 1 && max <= 60)
}

fn wins(pos: &Vec<u16>, memo: &mut HashMap<Vec<u16>, bool>) -> bool {
    if let Some(&r) = memo.get(pos) {
        return r;
    }
    let mut result = false;
    'outer: for k in 0..pos.len() {
        if k > 0 && pos[k] == pos[k - 1] {
            continue;
        }
        let p = pos[k];
        let divs: Vec<u16> = (1..p).filter(|d| p % d == 0).collect();
        for drop in 0..divs.len() {
            let mut next: Vec<u16> = pos.clone();
            next.remove(k);
            for (i, &d) in divs.iter().enumerate() {
                if i != drop && d > 1 {
                    next.push(d);
                }
            }
            next.sort_unstable();
            if !wins(&next, memo) {
                result = true;
                break 'outer;
            }
        }
    }
    memo.insert(pos.clone(), result);
    result
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<usize> = s.split_whitespace().map(|x| x.parse().unwrap()).collect();
    let mut cases = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let n = v[i];
        let heaps = &v[i + 1..i + 1 + n];
        if !in_reach(heaps) {
            std::process::exit(3);
        }
        cases.push(heaps.to_vec());
        i += 1 + n;
    }
    let mut memo = HashMap::new();
    let mut out = String::new();
    for heaps in cases {
        let mut pos: Vec<u16> = heaps.iter().filter(|&&a| a > 1).map(|&a| a as u16).collect();
        pos.sort_unstable();
        out.push_str(if wins(&pos, &mut memo) { "freda\n" } else { "rainbow\n" });
    }
    print!("{out}");
}

// Brute force for `moore-nim-k`: memoised win/lose search over the real game.
// A position is the sorted tuple of pile sizes (empty piles kept as 0). A move
// chooses between 1 and k non-empty piles and lowers each chosen pile to any
// smaller size. The player to move with no stones left loses.
use std::collections::HashMap;
use std::io::{self, Read};

struct Search {
    k: usize,
    memo: HashMap<Vec<u32>, bool>,
}

impl Search {
    fn wins(&mut self, state: &[u32]) -> bool {
        if let Some(&w) = self.memo.get(state) {
            return w;
        }
        let mut cur = state.to_vec();
        let win = self.moves(&mut cur, 0, 0);
        self.memo.insert(state.to_vec(), win);
        win
    }

    // Tries every way to change piles at index >= from, `changed` piles having
    // been lowered already; true iff some completed move reaches a lost position.
    fn moves(&mut self, cur: &mut Vec<u32>, from: usize, changed: usize) -> bool {
        if changed > 0 {
            let mut next = cur.clone();
            next.sort_unstable();
            if !self.wins(&next) {
                return true;
            }
        }
        if changed == self.k {
            return false;
        }
        for i in from..cur.len() {
            let old = cur[i];
            for v in 0..old {
                cur[i] = v;
                let found = self.moves(cur, i + 1, changed + 1);
                cur[i] = old;
                if found {
                    return true;
                }
            }
        }
        false
    }
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<u64> = s.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let (n, k) = (v[0] as usize, v[1] as usize);
    let piles = &v[2..2 + n];
    // Reach: (sorted positions below this one) x (ways to lower the piles) must
    // stay below 6 * 10^7: C(n + m, n) * (m + 1)^n with m the largest pile.
    let m = *piles.iter().max().unwrap() as u128;
    const BUDGET: u128 = 60_000_000;
    let mut work: u128 = 1;
    for i in 1..=n as u128 {
        work = work * (m + i) / i; // C(m + i, i), exact at every step
        if work > BUDGET {
            std::process::exit(3);
        }
    }
    for _ in 0..n {
        work *= m + 1;
        if work > BUDGET {
            std::process::exit(3);
        }
    }
    let mut state: Vec<u32> = piles.iter().map(|&p| p as u32).collect();
    state.sort_unstable();
    let mut search = Search { k, memo: HashMap::new() };
    println!("{}", if search.wins(&state) { "Yes" } else { "No" });
}

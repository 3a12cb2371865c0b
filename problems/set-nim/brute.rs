// Brute force for `set-nim`: memoised win/lose search over the real multi-pile
// positions (sorted tuples of pile sizes). A move subtracts some s of the set
// from one pile holding at least s stones. No SG values are used.
use std::collections::HashMap;
use std::io::{self, Read};

fn wins(state: &Vec<u32>, set: &[u32], memo: &mut HashMap<Vec<u32>, bool>) -> bool {
    if let Some(&w) = memo.get(state) {
        return w;
    }
    let mut win = false;
    'outer: for i in 0..state.len() {
        for &s in set {
            if s <= state[i] {
                let mut next = state.clone();
                next[i] -= s;
                next.sort_unstable();
                if !wins(&next, set, memo) {
                    win = true;
                    break 'outer;
                }
            }
        }
    }
    memo.insert(state.clone(), win);
    win
}

fn main() {
    let mut text = String::new();
    io::stdin().read_to_string(&mut text).unwrap();
    let v: Vec<u64> = text.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let k = v[0] as usize;
    let set: Vec<u32> = v[1..1 + k].iter().map(|&x| x as u32).collect();
    let n = v[1 + k] as usize;
    let piles: Vec<u32> = v[2 + k..2 + k + n].iter().map(|&x| x as u32).collect();
    // Reach: sorted n-tuples of values <= H number C(H + n, n); search only
    // when that is at most 200000.
    let h = u64::from(*piles.iter().max().unwrap());
    if n > 8 || h > 60 {
        std::process::exit(3);
    }
    let mut positions: u64 = 1;
    for i in 1..=n as u64 {
        positions = positions * (h + i) / i;
    }
    if positions > 200_000 {
        std::process::exit(3);
    }
    let mut state = piles.clone();
    state.sort_unstable();
    let mut memo = HashMap::new();
    println!("{}", if wins(&state, &set, &mut memo) { "Yes" } else { "No" });
}

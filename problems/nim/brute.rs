// Brute force for `nim`: memoised win/lose search over the real positions.
// A position is the sorted tuple of pile sizes; a move lowers one pile to any
// smaller value. The player to move with every pile empty loses.
use std::collections::HashMap;
use std::io::{self, Read};

fn wins(state: &Vec<u32>, memo: &mut HashMap<Vec<u32>, bool>) -> bool {
    if let Some(&w) = memo.get(state) {
        return w;
    }
    let mut win = false;
    'outer: for i in 0..state.len() {
        if i > 0 && state[i] == state[i - 1] {
            continue; // same move as on the previous equal pile
        }
        for v in 0..state[i] {
            let mut next = state.clone();
            next[i] = v;
            next.sort_unstable();
            if !wins(&next, memo) {
                win = true;
                break 'outer;
            }
        }
    }
    memo.insert(state.clone(), win);
    win
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<u64> = s.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let n = v[0] as usize;
    let piles = &v[1..1 + n];
    // Reach: at most 5 piles of at most 8 stones (<= 1287 sorted tuples).
    if n > 5 || piles.iter().any(|&p| p > 8) {
        std::process::exit(3);
    }
    let mut state: Vec<u32> = piles.iter().map(|&p| p as u32).collect();
    state.sort_unstable();
    let mut memo = HashMap::new();
    println!("{}", if wins(&state, &mut memo) { "Yes" } else { "No" });
}

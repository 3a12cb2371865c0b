// Brute force for `staircase-nim`: memoised win/lose search over the whole
// staircase. A position is the tuple (a_1, ..., a_n); a move takes t >= 1 stones
// from a step i and puts them on step i-1 (from step 1 they leave the game).
use std::collections::HashMap;
use std::io::{self, Read};

fn wins(state: &mut Vec<u32>, memo: &mut HashMap<Vec<u32>, bool>) -> bool {
    if let Some(&w) = memo.get(state.as_slice()) {
        return w;
    }
    let mut win = false;
    'outer: for i in 0..state.len() {
        for t in 1..=state[i] {
            state[i] -= t;
            if i > 0 {
                state[i - 1] += t;
            }
            let opponent = wins(state, memo);
            if i > 0 {
                state[i - 1] -= t;
            }
            state[i] += t;
            if !opponent {
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
    let steps = &v[1..1 + n];
    // Reach: with S stones on n steps there are at most C(S + n, n) positions;
    // search only when that is at most 100000.
    let total: u64 = steps.iter().sum();
    let mut positions: u64 = 1;
    for i in 1..=n as u64 {
        if n > 12 || total > 40 {
            std::process::exit(3);
        }
        positions = positions * (total + i) / i;
    }
    if positions > 100_000 {
        std::process::exit(3);
    }
    let mut state: Vec<u32> = steps.iter().map(|&a| a as u32).collect();
    let mut memo = HashMap::new();
    println!("{}", if wins(&mut state, &mut memo) { "Yes" } else { "No" });
}

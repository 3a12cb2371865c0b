// Brute force for `georgia-bob`: memoised win/lose search over the real game.
// A position is the sorted tuple of occupied cells (cells are 1, 2, 3, ...).
// A move slides one piece left to any free cell strictly between its left
// neighbour (or the edge, cell 0) and itself. No move -> the player loses.
use std::collections::HashMap;
use std::io::{self, Read};

fn wins(state: &Vec<u32>, memo: &mut HashMap<Vec<u32>, bool>) -> bool {
    if let Some(&w) = memo.get(state) {
        return w;
    }
    let mut win = false;
    'outer: for i in 0..state.len() {
        let left = if i == 0 { 0 } else { state[i - 1] };
        for c in left + 1..state[i] {
            let mut next = state.clone();
            next[i] = c; // stays sorted: left < c < old position
            if !wins(&next, memo) {
                win = true;
                break 'outer;
            }
        }
    }
    memo.insert(state.clone(), win);
    win
}

// C(m, n) <= limit, computed step by step.
fn small_binomial(m: u64, n: u64, limit: u128) -> bool {
    let n = n.min(m - n);
    let mut c: u128 = 1;
    for i in 1..=n as u128 {
        c = c * (m as u128 - n as u128 + i) / i;
        if c > limit {
            return false;
        }
    }
    true
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<u64> = s.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let t = v[0] as usize;
    let mut pos = 1;
    let mut tests = Vec::new();
    for _ in 0..t {
        let n = v[pos] as usize;
        let cells = v[pos + 1..pos + 1 + n].to_vec();
        pos += 1 + n;
        // Reach: positions below this one use n distinct cells in 1..=max:
        // at most C(max, n) of them, kept <= 200000.
        let m = *cells.iter().max().unwrap();
        if !small_binomial(m, n as u64, 200_000) {
            std::process::exit(3);
        }
        tests.push(cells);
    }
    let mut memo = HashMap::new();
    let mut out = String::new();
    for cells in tests {
        let mut state: Vec<u32> = cells.iter().map(|&c| c as u32).collect();
        state.sort_unstable();
        let w = wins(&state, &mut memo);
        out.push_str(if w { "Georgia will win\n" } else { "Bob will win\n" });
    }
    print!("{out}");
}

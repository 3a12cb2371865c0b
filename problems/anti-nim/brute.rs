// Brute force for `anti-nim`: memoised win/lose search over the real game.
// A position is the sorted tuple of non-empty piles; a move lowers one pile to
// any smaller value (an emptied pile disappears). Misère play: the player who
// takes the last stone loses, so a player facing an empty table has WON.
use std::collections::HashMap;
use std::io::{self, Read};

fn to_move_wins(state: &Vec<u32>, memo: &mut HashMap<Vec<u32>, bool>) -> bool {
    if state.is_empty() {
        return true; // the opponent took the last stone
    }
    if let Some(&w) = memo.get(state) {
        return w;
    }
    let mut win = false;
    'outer: for i in 0..state.len() {
        for v in 0..state[i] {
            let mut next = state.clone();
            if v == 0 {
                next.remove(i);
            } else {
                next[i] = v;
            }
            next.sort_unstable();
            if !to_move_wins(&next, memo) {
                win = true;
                break 'outer;
            }
        }
    }
    memo.insert(state.clone(), win);
    win
}

fn within_reach(n: u64, m: u64) -> bool {
    // C(n + m, n) computed incrementally, stopping once it exceeds the budget.
    let mut c: u128 = 1;
    for i in 1..=m.min(n) as u128 {
        c = c * (n.max(m) as u128 + i) / i;
        if c > 200_000 {
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
        let piles: Vec<u64> = v[pos + 1..pos + 1 + n].to_vec();
        pos += 1 + n;
        // Reach: the positions below this one are sorted tuples of n values in
        // 0..=m (m = the largest pile): C(n + m, n) of them, kept <= 200000.
        let m = piles.iter().copied().max().unwrap_or(0);
        if !within_reach(n as u64, m) {
            std::process::exit(3);
        }
        tests.push(piles);
    }
    let mut memo = HashMap::new();
    let mut out = String::new();
    for piles in tests {
        let mut state: Vec<u32> = piles.iter().map(|&p| p as u32).collect();
        state.sort_unstable();
        out.push_str(if to_move_wins(&state, &mut memo) { "John\n" } else { "Brother\n" });
    }
    print!("{out}");
}

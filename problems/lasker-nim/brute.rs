// Brute force for `lasker-nim`: memoised win/lose search over the real game.
// A position is the sorted multiset of non-empty piles. A move either lowers
// one pile to any smaller size (size 0 removes it) or replaces a pile x by two
// non-empty piles i and x - i. The player to move with no piles left loses.
// The total number of stones never grows, so positions with a total of at most
// 32 stones (about 10^5 multisets) are within reach.
use std::collections::HashMap;
use std::io::{self, Read};

fn wins(state: &Vec<u32>, memo: &mut HashMap<Vec<u32>, bool>) -> bool {
    if let Some(&w) = memo.get(state) {
        return w;
    }
    let mut win = false;
    'outer: for i in 0..state.len() {
        if i > 0 && state[i] == state[i - 1] {
            continue; // same moves as on the previous, equal pile
        }
        let x = state[i];
        let mut rest = state.clone();
        rest.remove(i);
        // Take stones: x -> v for 0 <= v < x.
        for v in 0..x {
            let mut next = rest.clone();
            if v > 0 {
                next.push(v);
            }
            next.sort_unstable();
            if !wins(&next, memo) {
                win = true;
                break 'outer;
            }
        }
        // Split: x -> (a, x - a), 1 <= a <= x - a.
        for a in 1..=x / 2 {
            let mut next = rest.clone();
            next.push(a);
            next.push(x - a);
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
    let t = v[0] as usize;
    let mut pos = 1;
    let mut tests = Vec::new();
    for _ in 0..t {
        let n = v[pos] as usize;
        let piles = v[pos + 1..pos + 1 + n].to_vec();
        pos += 1 + n;
        if piles.iter().sum::<u64>() > 32 {
            std::process::exit(3);
        }
        tests.push(piles);
    }
    let mut memo = HashMap::new();
    let mut out = String::new();
    for piles in tests {
        let mut state: Vec<u32> = piles.iter().map(|&p| p as u32).collect();
        state.sort_unstable();
        out.push_str(if wins(&state, &mut memo) { "Alice\n" } else { "Bob\n" });
    }
    print!("{out}");
}

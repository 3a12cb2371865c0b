// Brute force for `dag-game`: memoised win/lose search over the real
// positions. A position is the sorted tuple of the pieces' nodes; a move slides
// one piece along one outgoing edge. The player with no move loses. No Grundy
// values are used.
use std::collections::HashMap;
use std::io::{self, Read};

fn wins(pos: &Vec<usize>, out: &[Vec<usize>], memo: &mut HashMap<Vec<usize>, bool>) -> bool {
    if let Some(&w) = memo.get(pos) {
        return w;
    }
    let mut win = false;
    'search: for i in 0..pos.len() {
        for &v in &out[pos[i]] {
            let mut next = pos.clone();
            next[i] = v;
            next.sort_unstable();
            if !wins(&next, out, memo) {
                win = true;
                break 'search;
            }
        }
    }
    memo.insert(pos.clone(), win);
    win
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<usize> = s
        .split_ascii_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let (n, m, k) = (v[0], v[1], v[2]);
    // Reach: at most ~2*10^5 multisets of K nodes out of N: C(N+K-1, K).
    let mut states: u128 = 1;
    for i in 0..k as u128 {
        states = states * (n as u128 + i) / (i + 1);
        if states > 200_000 {
            std::process::exit(3);
        }
    }
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    for e in 0..m {
        out[v[3 + 2 * e]].push(v[4 + 2 * e]);
    }
    let mut pos: Vec<usize> = v[3 + 2 * m..3 + 2 * m + k].to_vec();
    pos.sort_unstable();
    let mut memo = HashMap::new();
    println!(
        "{}",
        if wins(&pos, &out, &mut memo) {
            "win"
        } else {
            "lose"
        }
    );
}

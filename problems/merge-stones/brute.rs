// Brute force for `merge-stones`: memoised win/lose search over the real
// positions (sorted multisets of pile sizes). A move removes one stone from a
// pile (a pile that reaches 0 disappears) or merges two piles into one. The
// player with no move (no piles left) loses. The memo is shared by all test
// cases of a file, since it depends on the position only.
use std::collections::HashMap;
use std::io::{self, Read};

fn wins(s: &Vec<u16>, memo: &mut HashMap<Vec<u16>, bool>) -> bool {
    if let Some(&w) = memo.get(s) {
        return w;
    }
    let mut win = false;
    'search: for i in 0..s.len() {
        if i > 0 && s[i] == s[i - 1] {
            continue; // same moves as the previous equal pile
        }
        // Remove one stone from pile i.
        let mut next = s.clone();
        if next[i] == 1 {
            next.remove(i);
        } else {
            next[i] -= 1;
            next.sort_unstable();
        }
        if !wins(&next, memo) {
            win = true;
            break 'search;
        }
        // Merge pile i with a later pile j.
        for j in i + 1..s.len() {
            if j > i + 1 && s[j] == s[j - 1] {
                continue;
            }
            let mut next = s.clone();
            next[i] += next[j];
            next.remove(j);
            next.sort_unstable();
            if !wins(&next, memo) {
                win = true;
                break 'search;
            }
        }
    }
    memo.insert(s.clone(), win);
    win
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<usize> = s
        .split_ascii_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let t = v[0];
    let mut cases = Vec::new();
    let mut p = 1;
    for _ in 0..t {
        let n = v[p];
        let mut piles: Vec<u16> = v[p + 1..p + 1 + n].iter().map(|&x| x as u16).collect();
        p += 1 + n;
        // Reach: at most 32 stones per case (every position with a total <= 32
        // is a partition of at most 32: about 10^5 positions in all).
        if piles.iter().map(|&x| x as usize).sum::<usize>() > 32 {
            std::process::exit(3);
        }
        piles.sort_unstable();
        cases.push(piles);
    }
    let mut memo = HashMap::new();
    let mut out = String::new();
    for c in &cases {
        out.push_str(if wins(c, &mut memo) { "YES\n" } else { "NO\n" });
    }
    print!("{out}");
}

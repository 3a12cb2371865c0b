// Brute force for `nim-winning-move`: a memoised win/lose search over the real
// positions, with no XOR theory. The game only depends on the multiset of
// non-empty heaps, so a position is memoised as the sorted list of its non-empty
// heaps; a move lowers one heap to any smaller size. The player to move with
// every heap empty loses. For each position of the file it tries every move of
// the ORIGINAL heaps, from the LAST heap back to the first (then by new size
// from 0 up), and prints the first that leaves a lost position, or `lose` when
// there is none. The reference names the first winning heap, so wherever
// several heaps win the cross-check also proves the checker accepts another.
use std::collections::HashMap;
use std::io::{self, Read};

// Reach: at most 6 non-empty heaps of at most 10 stones (under 8008 memoised
// positions), n at most 50 and T at most 500 per file.
const MAX_NONEMPTY: usize = 6;
const MAX_HEAP: u64 = 10;
const MAX_N: usize = 50;
const MAX_T: usize = 500;

fn key(heaps: &[u8]) -> Vec<u8> {
    let mut k: Vec<u8> = heaps.iter().copied().filter(|&h| h > 0).collect();
    k.sort_unstable();
    k
}

/// Whether the player to move wins from the position `state` (a sorted key).
fn wins(state: &[u8], memo: &mut HashMap<Vec<u8>, bool>) -> bool {
    if let Some(&w) = memo.get(state) {
        return w;
    }
    let mut win = false;
    'moves: for i in 0..state.len() {
        for v in 0..state[i] {
            let mut next = state.to_vec();
            next[i] = v;
            if !wins(&key(&next), memo) {
                win = true;
                break 'moves;
            }
        }
    }
    memo.insert(state.to_vec(), win);
    win
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<u64> = s.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let t = v[0] as usize;
    let mut cases: Vec<Vec<u8>> = Vec::with_capacity(t);
    let mut pos = 1;
    for _ in 0..t {
        let n = v[pos] as usize;
        let heaps = &v[pos + 1..pos + 1 + n];
        pos += 1 + n;
        let nonempty = heaps.iter().filter(|&&h| h > 0).count();
        if t > MAX_T || n > MAX_N || nonempty > MAX_NONEMPTY || heaps.iter().any(|&h| h > MAX_HEAP) {
            std::process::exit(3);
        }
        cases.push(heaps.iter().map(|&h| h as u8).collect());
    }
    let mut memo = HashMap::new();
    let mut out = String::new();
    for heaps in &cases {
        let mut found = None;
        'search: for i in (0..heaps.len()).rev() {
            for v in 0..heaps[i] {
                let mut next = heaps.clone();
                next[i] = v;
                if !wins(&key(&next), &mut memo) {
                    found = Some((i + 1, heaps[i] - v));
                    break 'search;
                }
            }
        }
        match found {
            Some((i, x)) => out.push_str(&format!("{i} {x}\n")),
            None => out.push_str("lose\n"),
        }
    }
    print!("{out}");
}

// Brute force for `kam-pebbles`: memoised win/lose search over the real
// positions. A position is the tuple of pile sizes (non-decreasing); a move
// lowers one pile i to any value v with a_{i-1} <= v < a_i (a_0 = 0), which is
// exactly "remove stones and keep the row non-decreasing". No move -> loss.
// Reach: the number of non-decreasing tuples below the start, C(a_n + n, n),
// at most 300000 per arrangement; otherwise print nothing and exit 3.
use std::collections::HashMap;
use std::io::{self, Read};

fn wins(state: &mut Vec<u16>, memo: &mut HashMap<Vec<u16>, bool>) -> bool {
    if let Some(&w) = memo.get(state) {
        return w;
    }
    let mut win = false;
    'outer: for i in 0..state.len() {
        let low = if i == 0 { 0 } else { state[i - 1] };
        let orig = state[i];
        for v in low..orig {
            state[i] = v;
            let w = wins(state, memo);
            state[i] = orig;
            if !w {
                win = true;
                break 'outer;
            }
        }
    }
    memo.insert(state.clone(), win);
    win
}

fn binom_capped(n: u64, k: u64, cap: u64) -> u64 {
    // C(n, k), or cap + 1 when it exceeds cap
    let mut r: u128 = 1;
    for i in 0..k {
        r = r * (n - i) as u128 / (i + 1) as u128;
        if r > cap as u128 {
            return cap + 1;
        }
    }
    r as u64
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<u64> = s.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let u = v[0] as usize;
    let mut pos = 1;
    let mut games = Vec::new();
    for _ in 0..u {
        let n = v[pos] as usize;
        let a: Vec<u16> = v[pos + 1..pos + 1 + n].iter().map(|&x| x as u16).collect();
        pos += 1 + n;
        let top = *a.last().unwrap() as u64;
        if binom_capped(top + n as u64, n as u64, 300_000) > 300_000 {
            std::process::exit(3);
        }
        games.push(a);
    }
    let mut out = String::new();
    for mut a in games {
        let mut memo = HashMap::new();
        out.push_str(if wins(&mut a, &mut memo) { "TAK\n" } else { "NIE\n" });
    }
    print!("{out}");
}

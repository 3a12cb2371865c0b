// Brute force over the real game: a position is the multiset of paper pieces (w, h). A move cuts
// one piece along an interior grid line into two pieces; a cut that creates a 1 x 1 piece wins on
// the spot. Memoised win/lose search over sorted piece lists; no SG theory involved.
use std::collections::HashMap;
use std::io::{self, Read};

const MAX_AREA: usize = 50;

type Pos = Vec<(u8, u8)>;

fn norm(a: u8, b: u8) -> (u8, u8) {
    (a.min(b), a.max(b))
}

fn wins(pos: &Pos, memo: &mut HashMap<Pos, bool>) -> bool {
    if let Some(&r) = memo.get(pos) {
        return r;
    }
    let mut result = false;
    'outer: for k in 0..pos.len() {
        if k > 0 && pos[k] == pos[k - 1] {
            continue;
        }
        let (a, b) = pos[k];
        let mut cuts: Vec<((u8, u8), (u8, u8))> = Vec::new();
        for i in 1..a {
            cuts.push((norm(i, b), norm(a - i, b)));
        }
        for j in 1..b {
            cuts.push((norm(a, j), norm(a, b - j)));
        }
        for (p, q) in cuts {
            if p == (1, 1) || q == (1, 1) {
                result = true;
                break 'outer;
            }
            let mut next: Pos = pos.clone();
            next.remove(k);
            next.push(p);
            next.push(q);
            next.sort_unstable();
            if !wins(&next, memo) {
                result = true;
                break 'outer;
            }
        }
    }
    memo.insert(pos.clone(), result);
    result
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<usize> = s.split_whitespace().map(|x| x.parse().unwrap()).collect();
    if v.chunks(2).any(|c| c[0] * c[1] > MAX_AREA) {
        std::process::exit(3);
    }
    let mut memo = HashMap::new();
    let mut out = String::new();
    for c in v.chunks(2) {
        let start = vec![norm(c[0] as u8, c[1] as u8)];
        out.push_str(if wins(&start, &mut memo) { "WIN\n" } else { "LOSE\n" });
    }
    print!("{out}");
}

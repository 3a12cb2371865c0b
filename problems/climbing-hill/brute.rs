// Brute force for `climbing-hill`: memoised win/lose search over the real
// positions. A position is the list of the N people's distances from the top
// (0 = on the top; people never pass each other, so the list stays sorted and
// person i is always the i-th entry). A move picks a person at distance p > 0
// and moves them to any distance c < p that is not at or above the nearest
// person above them - except that the top (c = 0) may be shared, so c = 0 is
// allowed whenever everybody above is already on the top. Moving the king
// (person k) to the top wins at once.
// Reach: C(max distance + N, N) <= 200000 for every case (and at most 3000000 in
// total); otherwise print nothing and exit 3.
use std::collections::HashMap;
use std::io::{self, Read};

fn wins(pos: &mut Vec<u32>, king: usize, memo: &mut HashMap<Vec<u32>, bool>) -> bool {
    if let Some(&w) = memo.get(pos) {
        return w;
    }
    let mut win = false;
    'outer: for i in 0..pos.len() {
        let p = pos[i];
        if p == 0 {
            continue;
        }
        let above = if i == 0 { 0 } else { pos[i - 1] };
        // targets: (above, p) exclusive, plus 0 when the person above is on top
        let lowest = if above == 0 { 0 } else { above + 1 };
        for c in lowest..p {
            if i == king && c == 0 {
                win = true;
                break 'outer;
            }
            pos[i] = c;
            let w = wins(pos, king, memo);
            pos[i] = p;
            if !w {
                win = true;
                break 'outer;
            }
        }
    }
    memo.insert(pos.clone(), win);
    win
}

fn binom_capped(n: u64, k: u64, cap: u64) -> u64 {
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
    let mut p = 0;
    let mut cases = Vec::new();
    let mut total = 0u64;
    while p < v.len() {
        let n = v[p] as usize;
        let k = v[p + 1] as usize;
        let a: Vec<u32> = v[p + 2..p + 2 + n].iter().map(|&x| x as u32).collect();
        p += 2 + n;
        let size = binom_capped(*a.iter().max().unwrap() as u64 + n as u64, n as u64, 200_000);
        if size > 200_000 {
            std::process::exit(3);
        }
        total += size;
        cases.push((k, a));
    }
    if total > 3_000_000 {
        std::process::exit(3);
    }
    let mut out = String::new();
    for (k, mut a) in cases {
        let mut memo = HashMap::new();
        out.push_str(if wins(&mut a, k - 1, &mut memo) { "Alice\n" } else { "Bob\n" });
    }
    print!("{out}");
}

use std::io::{self, Read, Write};

// Sprague-Grundy value of one row, memoised over the 2^20 row masks
// (bit 0 = column 20, the right edge).
fn sg(mask: usize, memo: &mut Vec<i8>) -> i8 {
    if memo[mask] >= 0 {
        return memo[mask];
    }
    let mut seen = [false; 24];
    for b in 1..20 {
        if mask >> b & 1 == 0 {
            continue;
        }
        let mut j = b as i32 - 1;
        while j >= 0 && mask >> j & 1 == 1 {
            j -= 1;
        }
        if j >= 0 {
            let next = mask & !(1 << b) | 1 << j;
            let v = sg(next, memo);
            seen[v as usize] = true;
        }
    }
    let mut g = 0;
    while seen[g] {
        g += 1;
    }
    memo[mask] = g as i8;
    g as i8
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|x| x.parse::<usize>().unwrap());
    let mut memo = vec![-1i8; 1 << 20];
    let t = it.next().unwrap();
    let mut out = String::new();
    for _ in 0..t {
        let n = it.next().unwrap();
        let mut x = 0;
        for _ in 0..n {
            let m = it.next().unwrap();
            let mut mask = 0;
            for _ in 0..m {
                mask |= 1 << (20 - it.next().unwrap());
            }
            x ^= sg(mask, &mut memo);
        }
        out += if x != 0 { "YES\n" } else { "NO\n" };
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}

// Mistake: a position of 1-piles only is decided by the parity of their
// count, forgetting that two 1-piles may be merged (the truth: lose iff the
// count is a multiple of 3). Everything else uses the closed form.
use std::io::{self, Read};

fn wins(a: usize, b: usize) -> bool {
    if b == 0 {
        return a % 2 == 1;
    }
    match a % 6 {
        0 => b % 2 == 1,
        1 | 5 => true,
        2 => b == 2 || b % 2 == 1,
        3 => b >= 3,
        _ => b <= 3 || b % 2 == 1,
    }
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s
        .split_ascii_whitespace()
        .map(|x| x.parse::<usize>().unwrap());
    let t = it.next().unwrap();
    for _ in 0..t {
        let n = it.next().unwrap();
        let (mut a, mut cnt, mut sum) = (0, 0, 0);
        for _ in 0..n {
            let x = it.next().unwrap();
            if x == 1 {
                a += 1;
            } else {
                cnt += 1;
                sum += x;
            }
        }
        let b = if cnt == 0 { 0 } else { cnt + sum - 1 };
        println!("{}", if wins(a, b) { "YES" } else { "NO" });
    }
}

use std::io::{self, BufRead, Write};

// Walk the Euclidean algorithm; the first quotient >= 2 (or the last step)
// belongs to the winner.
fn main() {
    let stdin = io::stdin();
    let mut out = io::BufWriter::new(io::stdout());
    for line in stdin.lock().lines() {
        let line = line.unwrap();
        let v: Vec<u64> = line.split_whitespace().map(|x| x.parse().unwrap()).collect();
        if v.len() < 2 {
            continue;
        }
        let (mut a, mut b) = (v[0].max(v[1]), v[0].min(v[1]));
        if a == 0 && b == 0 {
            break;
        }
        let mut turn = 0u32; // 0 = Stan to move
        loop {
            let q = a / b;
            let r = a % b;
            if q >= 2 || r == 0 {
                break;
            }
            a = b;
            b = r;
            turn ^= 1;
        }
        writeln!(out, "{}", if turn == 0 { "Stan wins" } else { "Ollie wins" }).unwrap();
    }
}

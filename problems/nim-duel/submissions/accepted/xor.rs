// Plays Nim by the XOR rule; reads line by line and flushes after each move.
use std::io::{self, BufRead, Write};

fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines().map(|l| l.unwrap());
    let mut out = io::stdout();
    let nums = |lines: &mut dyn Iterator<Item = String>| -> Vec<u64> {
        lines.next().unwrap().split_whitespace().map(|w| w.parse().unwrap()).collect()
    };
    let t = nums(&mut lines)[0];
    for _ in 0..t {
        let _n = nums(&mut lines)[0];
        let mut a = nums(&mut lines);
        let mut mine = a.iter().fold(0, |x, &v| x ^ v) != 0;
        writeln!(out, "{}", if mine { "first" } else { "second" }).unwrap();
        out.flush().unwrap();
        while a.iter().any(|&v| v > 0) {
            if mine {
                let x = a.iter().fold(0, |x, &v| x ^ v);
                let i = (0..a.len()).find(|&i| a[i] ^ x < a[i]).unwrap();
                writeln!(out, "{} {}", i + 1, a[i] - (a[i] ^ x)).unwrap();
                out.flush().unwrap();
                a[i] ^= x;
            } else {
                let m = nums(&mut lines);
                a[m[0] as usize - 1] -= m[1];
            }
            mine = !mine;
        }
    }
}

use std::io::{self, BufWriter, Read, Write};

fn main() {
    let n = 200;
    let mut sg = vec![vec![0usize; n + 1]; n + 1];
    for w in 2..=n {
        for h in 2..=n {
            let mut seen = vec![false; 64];
            for i in 2..w.saturating_sub(1) {
                seen[sg[i][h] ^ sg[w - i][h]] = true;
            }
            for j in 2..h.saturating_sub(1) {
                seen[sg[w][j] ^ sg[w][h - j]] = true;
            }
            let mut m = 0;
            while seen[m] {
                m += 1;
            }
            sg[w][h] = m;
        }
    }
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<usize> = s.split_whitespace().map(|x| x.parse().unwrap()).collect();
    let out = io::stdout();
    let mut out = BufWriter::new(out.lock());
    for p in v.chunks(2) {
        writeln!(out, "{}", if sg[p[0]][p[1]] != 0 { "WIN" } else { "LOSE" }).unwrap();
    }
}

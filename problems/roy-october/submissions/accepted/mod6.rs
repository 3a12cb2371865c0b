use std::io::{self, BufRead, BufWriter, Write};

fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let t: usize = lines.next().unwrap().unwrap().trim().parse().unwrap();
    let out = io::stdout();
    let mut w = BufWriter::new(out.lock());
    for _ in 0..t {
        let n: u64 = lines.next().unwrap().unwrap().trim().parse().unwrap();
        writeln!(w, "{}", if n % 6 == 0 { "Roy wins!" } else { "October wins!" }).unwrap();
    }
}

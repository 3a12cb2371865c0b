use std::io::{self, BufWriter, Read, Write};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|x| x.parse::<u32>().unwrap());
    let t = it.next().unwrap();
    let stdout = io::stdout();
    let mut w = BufWriter::new(stdout.lock());
    for _ in 0..t {
        let n = it.next().unwrap();
        if n % 4 == 0 {
            writeln!(w, "Roy wins!").unwrap();
        } else {
            writeln!(w, "October wins!").unwrap();
        }
    }
}

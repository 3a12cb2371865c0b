use std::io::{self, Read, Write};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<u64>().unwrap());
    let t = it.next().unwrap();
    let mut out = String::new();
    for _ in 0..t {
        let n = it.next().unwrap();
        let mut x = 0u64;
        for _ in 0..n {
            let v = it.next().unwrap();
            x ^= match v % 4 {
                0 => v - 1,
                3 => v + 1,
                _ => v,
            };
        }
        out.push_str(if x != 0 { "Alice\n" } else { "Bob\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}

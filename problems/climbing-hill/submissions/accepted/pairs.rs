use std::io::{self, Read, Write};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<i32> = s.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let mut out = io::BufWriter::new(io::stdout());
    let mut p = 0;
    while p + 1 < v.len() {
        let n = v[p] as usize;
        let k = v[p + 1];
        let a = &v[p + 2..p + 2 + n];
        p += 2 + n;
        let win = if k == 1 {
            true
        } else {
            // pair from the far end; an odd person out pairs with the top
            let mut x = 0;
            let mut i = n as i64 - 1;
            while i >= 1 {
                x ^= a[i as usize] - a[i as usize - 1] - 1;
                i -= 2;
            }
            if i == 0 {
                x ^= if k == 2 { a[0] - 1 } else { a[0] };
            }
            x != 0
        };
        writeln!(out, "{}", if win { "Alice" } else { "Bob" }).unwrap();
    }
}

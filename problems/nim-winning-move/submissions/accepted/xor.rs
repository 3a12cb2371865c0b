use std::io::{self, Read, Write};

fn main() {
    let mut s = String::new();
    io::stdin().lock().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<u32>().unwrap());
    let t = it.next().unwrap();
    let mut out = String::new();
    for _ in 0..t {
        let n = it.next().unwrap() as usize;
        let a: Vec<u32> = it.by_ref().take(n).collect();
        let x = a.iter().fold(0, |acc, &v| acc ^ v);
        if x == 0 {
            out.push_str("lose\n");
        } else {
            let i = a.iter().position(|&v| v ^ x < v).unwrap();
            out.push_str(&format!("{} {}\n", i + 1, a[i] - (a[i] ^ x)));
        }
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}

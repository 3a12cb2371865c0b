use std::io::{self, Read};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace();
    let n: usize = it.next().unwrap().parse().unwrap();
    let mut res = 0u32;
    for i in 0..n {
        let x: u32 = it.next().unwrap().parse().unwrap();
        if i % 2 == 0 {
            res ^= x; // step i + 1 is odd
        }
    }
    println!("{}", if res != 0 { "Yes" } else { "No" });
}

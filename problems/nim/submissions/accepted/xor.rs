use std::io::{self, Read};

fn main() {
    let mut s = String::new();
    io::stdin().lock().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<u32>().unwrap());
    let n = it.next().unwrap() as usize;
    let x = it.take(n).fold(0u32, |a, b| a ^ b);
    println!("{}", if x != 0 { "Yes" } else { "No" });
}

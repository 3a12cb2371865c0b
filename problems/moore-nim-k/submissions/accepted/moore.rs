use std::io::{self, Read};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<u32>().unwrap());
    let n = it.next().unwrap() as usize;
    let k = it.next().unwrap();
    let piles: Vec<u32> = it.take(n).collect();
    let win = (0..32).any(|b| piles.iter().filter(|&&a| a >> b & 1 == 1).count() as u32 % (k + 1) != 0);
    println!("{}", if win { "Yes" } else { "No" });
}

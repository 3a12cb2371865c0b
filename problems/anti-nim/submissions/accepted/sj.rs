use std::io::{self, Read};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<u32>().unwrap());
    let t = it.next().unwrap();
    let mut out = String::new();
    for _ in 0..t {
        let n = it.next().unwrap() as usize;
        let piles: Vec<u32> = (0..n).map(|_| it.next().unwrap()).collect();
        let x = piles.iter().fold(0, |a, &b| a ^ b);
        let all_ones = piles.iter().all(|&p| p == 1);
        let john = if all_ones { n % 2 == 0 } else { x != 0 };
        out.push_str(if john { "John\n" } else { "Brother\n" });
    }
    print!("{out}");
}

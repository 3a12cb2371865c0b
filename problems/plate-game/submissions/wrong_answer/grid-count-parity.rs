// Mistake: counts the plates of a square packing and lets the parity of that
// count decide, as if the game always filled the table that way.
use std::io::Read;

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<i64> = s.split_whitespace().map(|x| x.parse().unwrap()).collect();
    let (a, b, r) = (v[0], v[1], v[2]);
    let count = (a / (2 * r)) * (b / (2 * r));
    println!("{}", if count % 2 == 1 { "First" } else { "Second" });
}

use std::io::Read;

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<i32> = s.split_whitespace().map(|x| x.parse().unwrap()).collect();
    let (a, b, r) = (v[0], v[1], v[2]);
    println!("{}", if 2 * r <= a.min(b) { "First" } else { "Second" });
}

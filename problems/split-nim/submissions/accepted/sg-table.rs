use std::io::{self, Read};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<usize> = s.split_whitespace().map(|t| t.parse().unwrap()).collect();
    let n = v[0];
    let a = &v[1..=n];
    let mut sg = [0usize; 101];
    for x in 1..=100 {
        let mut seen = [false; 256];
        for p in 0..x {
            for q in 0..=p {
                seen[sg[p] ^ sg[q]] = true;
            }
        }
        let mut m = 0;
        while seen[m] {
            m += 1;
        }
        sg[x] = m;
    }
    let res = a.iter().fold(0, |acc, &x| acc ^ sg[x]);
    println!("{}", if res != 0 { "Yes" } else { "No" });
}

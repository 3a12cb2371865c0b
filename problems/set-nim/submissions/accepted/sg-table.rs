use std::io::{self, Read};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<usize>().unwrap());
    let k = it.next().unwrap();
    let set: Vec<usize> = (0..k).map(|_| it.next().unwrap()).collect();
    let n = it.next().unwrap();
    let h: Vec<usize> = (0..n).map(|_| it.next().unwrap()).collect();
    let top = *h.iter().max().unwrap();
    let mut sg = vec![0usize; top + 1];
    for x in 1..=top {
        let mut seen = vec![false; k + 1];
        for &v in &set {
            if v <= x {
                seen[sg[x - v]] = true;
            }
        }
        sg[x] = seen.iter().position(|&b| !b).unwrap();
    }
    let res = h.iter().fold(0, |a, &x| a ^ sg[x]);
    println!("{}", if res != 0 { "Yes" } else { "No" });
}

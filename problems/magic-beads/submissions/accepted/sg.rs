use std::io::{self, Read, Write};

fn main() {
    const M: usize = 1000;
    let mut sg = vec![0usize; M + 1];
    for p in 2..=M {
        let divs: Vec<usize> = (1..p).filter(|&b| p % b == 0).collect();
        let x = divs.iter().fold(0, |acc, &b| acc ^ sg[b]);
        let mut vis = [false; 64];
        for &b in &divs {
            vis[x ^ sg[b]] = true;
        }
        sg[p] = (0..).find(|&m| !vis[m]).unwrap();
    }
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<usize>().unwrap());
    let mut out = String::new();
    while let Some(n) = it.next() {
        let x = (0..n).fold(0, |acc, _| acc ^ sg[it.next().unwrap()]);
        out.push_str(if x != 0 { "freda\n" } else { "rainbow\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}

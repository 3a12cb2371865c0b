// Mistake: computes the Grundy values from node N down to node 1, as if every
// edge went from a smaller number to a larger one.
use std::io::{self, Read};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s
        .split_ascii_whitespace()
        .map(|x| x.parse::<usize>().unwrap());
    let (n, m, k) = (it.next().unwrap(), it.next().unwrap(), it.next().unwrap());
    let mut adj = vec![Vec::new(); n + 1];
    for _ in 0..m {
        let x = it.next().unwrap();
        let y = it.next().unwrap();
        adj[x].push(y);
    }
    let mut sg = vec![0usize; n + 1];
    for u in (1..=n).rev() {
        let mut seen = vec![false; adj[u].len() + 2];
        for &v in &adj[u] {
            if sg[v] < seen.len() {
                seen[sg[v]] = true;
            }
        }
        sg[u] = seen.iter().position(|&b| !b).unwrap();
    }
    let mut res = 0;
    for _ in 0..k {
        res ^= sg[it.next().unwrap()];
    }
    println!("{}", if res != 0 { "win" } else { "lose" });
}

use std::io::{self, Read};

fn sg(u: usize, adj: &Vec<Vec<usize>>, memo: &mut Vec<i32>) -> i32 {
    if memo[u] >= 0 {
        return memo[u];
    }
    let mut seen = vec![false; adj[u].len() + 1];
    for &v in &adj[u] {
        let g = sg(v, adj, memo) as usize;
        if g < seen.len() {
            seen[g] = true;
        }
    }
    let g = seen.iter().position(|&b| !b).unwrap() as i32;
    memo[u] = g;
    g
}

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
    let mut memo = vec![-1; n + 1];
    let mut res = 0;
    for _ in 0..k {
        let u = it.next().unwrap();
        res ^= sg(u, &adj, &mut memo);
    }
    println!("{}", if res != 0 { "win" } else { "lose" });
}

// Brute force for ring-game: memoised win/lose search over (coin node, all edge values).
// Nodes 0..n-1; edge k (1-based) joins node k-1 and node k mod n; the coin starts at node 0.
use std::collections::HashMap;
use std::io::{self, Read};

fn win(node: usize, e: &mut Vec<u8>, memo: &mut HashMap<(usize, Vec<u8>), bool>) -> bool {
    let n = e.len();
    if let Some(&w) = memo.get(&(node, e.clone())) {
        return w;
    }
    // the two edges at `node` (0-based edge indices) and where they lead
    let forward = (node, (node + 1) % n); // edge node+1 (1-based)
    let backward = ((node + n - 1) % n, (node + n - 1) % n); // edge node (1-based), edge n at node 0
    let mut res = false;
    'outer: for &(ei, to) in &[forward, backward] {
        let old = e[ei];
        for nv in 0..old {
            e[ei] = nv;
            let w = win(to, e, memo);
            e[ei] = old;
            if !w {
                res = true;
                break 'outer;
            }
        }
    }
    memo.insert((node, e.clone()), res);
    res
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<u64> = s.split_ascii_whitespace().map(|x| x.parse().unwrap()).collect();
    let n = v[0] as usize;
    let mut e: Vec<u8> = v[1..1 + n].iter().map(|&x| x as u8).collect();
    let mut states: u128 = n as u128;
    for &x in &e {
        states *= x as u128 + 1;
    }
    if states > 400_000 {
        std::process::exit(3);
    }
    let mut memo = HashMap::new();
    println!("{}", if win(0, &mut e, &mut memo) { "YES" } else { "NO" });
}

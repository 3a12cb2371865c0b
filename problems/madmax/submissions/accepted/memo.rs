use std::io::{self, Read, Write};

fn win(x: usize, y: usize, c: u8, g: &Vec<Vec<(usize, u8)>>, dp: &mut Vec<Vec<[i8; 26]>>) -> bool {
    let r = dp[x][y][c as usize];
    if r != 0 {
        return r == 1;
    }
    let mut w = false;
    for &(u, l) in &g[x] {
        if l >= c && !win(y, u, l, g, dp) {
            w = true;
            break;
        }
    }
    dp[x][y][c as usize] = if w { 1 } else { -1 };
    w
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_whitespace();
    let n: usize = it.next().unwrap().parse().unwrap();
    let m: usize = it.next().unwrap().parse().unwrap();
    let mut g = vec![Vec::new(); n + 1];
    for _ in 0..m {
        let v: usize = it.next().unwrap().parse().unwrap();
        let u: usize = it.next().unwrap().parse().unwrap();
        let c = it.next().unwrap().as_bytes()[0] - b'a';
        g[v].push((u, c));
    }
    let mut dp = vec![vec![[0i8; 26]; n + 1]; n + 1];
    let mut out = String::new();
    for i in 1..=n {
        for j in 1..=n {
            out.push(if win(i, j, 0, &g, &mut dp) { 'A' } else { 'B' });
        }
        out.push('\n');
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}

use std::io::{self, Read};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<i64>().unwrap());
    let n = it.next().unwrap() as usize;
    let mut rows: Vec<Vec<i64>> = vec![Vec::new(); n];
    for i in 0..n {
        for j in i + 1..n {
            let x = it.next().unwrap();
            rows[i].push(x);
            rows[j].push(x);
        }
    }
    let mut ans = 0;
    for r in rows.iter_mut() {
        r.sort_unstable();
        ans = ans.max(r[r.len() - 2]);
    }
    println!("1\n{}", ans);
}

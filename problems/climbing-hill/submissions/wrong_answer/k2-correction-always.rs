// Wrong: applies the k = 2 correction (a1 - 1) for even N too.
use std::io::{self, Read};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<i32> = s.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let mut p = 0;
    while p + 1 < v.len() {
        let n = v[p] as usize;
        let k = v[p + 1];
        let mut a = vec![-1];
        a.extend_from_slice(&v[p + 2..p + 2 + n]);
        p += 2 + n;
        if k == 1 {
            println!("Alice");
            continue;
        }
        if k == 2 {
            a[1] -= 1;
        }
        let mut x = 0;
        let mut i = n;
        while i >= 1 {
            x ^= a[i] - a[i - 1] - 1;
            if i < 2 {
                break;
            }
            i -= 2;
        }
        println!("{}", if x != 0 { "Alice" } else { "Bob" });
    }
}

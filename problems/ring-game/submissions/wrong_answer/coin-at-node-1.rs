// Wrong: puts the coin between edge 1 and edge 2 (instead of between edge N and edge 1).
use std::io::{self, Read};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_whitespace().map(|x| x.parse::<i32>().unwrap());
    let n = it.next().unwrap() as usize;
    let a: Vec<i32> = (0..n).map(|_| it.next().unwrap()).collect();
    // forward from edge 2, backward from edge 1 (wrapping around)
    let mut f = 0;
    while f < n && a[(1 + f) % n] != 0 {
        f += 1;
    }
    let mut b = 0;
    while b < n && a[(n - b) % n] != 0 {
        b += 1;
    }
    println!("{}", if f % 2 == 1 || b % 2 == 1 { "YES" } else { "NO" });
}

use std::io::{self, Read};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_whitespace().map(|x| x.parse::<i32>().unwrap());
    let n = it.next().unwrap() as usize;
    let a: Vec<i32> = (0..n).map(|_| it.next().unwrap()).collect();
    let mut l = 0;
    while l < n && a[l] != 0 {
        l += 1;
    }
    let mut r = 0;
    while r < n && a[n - 1 - r] != 0 {
        r += 1;
    }
    println!("{}", if l % 2 == 1 || r % 2 == 1 { "YES" } else { "NO" });
}

use std::io::{self, Read};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<i32>().unwrap());
    let t = it.next().unwrap();
    let mut out = String::new();
    for _ in 0..t {
        let n = it.next().unwrap() as usize;
        let mut p: Vec<i32> = (0..n).map(|_| it.next().unwrap()).collect();
        p.sort();
        let mut x = 0;
        let mut i = n as isize - 1;
        while i >= 0 {
            let left = if i >= 1 { p[i as usize - 1] } else { 0 };
            x ^= p[i as usize] - left - 1;
            i -= 2;
        }
        out.push_str(if x != 0 { "Georgia will win\n" } else { "Bob will win\n" });
    }
    print!("{out}");
}

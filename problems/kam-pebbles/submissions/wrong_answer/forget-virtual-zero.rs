// Wrong: pairs from the right, but with an odd count it ignores the first pile
// instead of pairing it with an empty pile (the difference a_1 - 0 is lost).
use std::io::{self, Read};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<i32>().unwrap());
    let u = it.next().unwrap();
    for _ in 0..u {
        let n = it.next().unwrap() as usize;
        let a: Vec<i32> = (0..n).map(|_| it.next().unwrap()).collect();
        let mut x = 0;
        let mut i = n as i64 - 1;
        while i >= 1 {
            x ^= a[i as usize] - a[i as usize - 1];
            i -= 2;
        }
        println!("{}", if x != 0 { "TAK" } else { "NIE" });
    }
}

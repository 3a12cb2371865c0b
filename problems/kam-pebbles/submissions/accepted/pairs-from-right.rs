use std::io::{self, Read};

// Pair the piles from the right: (a_n, a_{n-1}), (a_{n-2}, a_{n-3}), ...; with
// an odd count the first pile pairs with an imaginary empty pile. XOR the gaps.
fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<u32>().unwrap());
    let u = it.next().unwrap();
    let mut out = Vec::new();
    for _ in 0..u {
        let n = it.next().unwrap() as usize;
        let mut a = vec![0u32];
        for _ in 0..n {
            a.push(it.next().unwrap());
        }
        let mut x = 0;
        let mut i = n;
        while i >= 1 {
            x ^= a[i] - a[i - 1];
            if i == 1 {
                break;
            }
            i -= 2;
        }
        out.push(if x != 0 { "TAK" } else { "NIE" });
    }
    println!("{}", out.join("\n"));
}

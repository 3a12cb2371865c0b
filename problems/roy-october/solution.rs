// Reference solution for roy-october (Luogu P4018 Roy&October之取石子).
// No prime power (nor 1) is a multiple of 6, and from n with n % 6 != 0 the move of
// n % 6 stones (1..5, each 1 or a prime power) reaches a multiple of 6: the first player
// loses iff n % 6 == 0.
use std::io::{self, Read, Write};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|x| x.parse::<u64>().unwrap());
    let t = it.next().unwrap();
    let mut out = String::with_capacity(t as usize * 14);
    for _ in 0..t {
        let n = it.next().unwrap();
        out.push_str(if n % 6 == 0 { "Roy wins!\n" } else { "October wins!\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}

// Generator for `moore-nim-k`. Arguments (key=value):
//   n=<n> | nmin=1 nmax=<n>     number of piles (fixed, or uniform in nmin..=nmax)
//   k=<k> | kmax=<K> | kn=1     k fixed (clamped to n), uniform in 1..=min(K, n), or k = n
//                               (with answer=no, random n is >= 2 and random k < n)
//   min=1 max=1000000000        pile size range
//   mode=random answer=any      uniform piles
//   mode=random answer=no       every bit count a multiple of k + 1 (a loss); needs k < n
//   mode=random answer=yes      a loss with one bit (>= flipmin, default 0) toggled in one
//                               pile: exactly one bit count is off (a win); with k = n,
//                               where no loss exists, uniform piles instead
//                               summod=1: up to three bits toggled instead, so that also
//                               the total is a multiple of k + 1 (k < n)
//                               pairflip=1: one bit toggled in two piles that agree on it,
//                               so that bit's count moves by 2 (needs k >= 2): with odd k
//                               every count stays even, a win that plain XOR calls a loss
//   mode=same value=<v>         n copies of v
//                               bits=LO-HI (with answer=yes and a plan count): the one toggled
//                               bit is LO + seed - 1, one bit per test: every bit count but
//                               that one's is a multiple of k + 1
// Output: `n k`, newline, the piles separated by single spaces, newline.
#[path = "../_common/rng.rs"]
mod rng;
#[path = "../_common/plan.rs"]
mod plan;

use rng::{Args, Rng};

fn is_loss(v: &[u64], k: u64) -> bool {
    (0..64).all(|b| v.iter().filter(|&&a| (a >> b) & 1 == 1).count() as u64 % (k + 1) == 0)
}

// A random loss: for every bit, a random multiple of k + 1 of the piles have it.
fn loss(rng: &mut Rng, n: usize, k: u64, lo: u64, hi: u64) -> Vec<u64> {
    let groups = n as u64 / (k + 1);
    assert!(groups > 0, "no losing position exists with k >= n");
    // Bits 0..nb-1 can be combined freely without exceeding hi.
    let nb = 63 - (hi + 1).leading_zeros();
    let mut idx: Vec<usize> = (0..n).collect();
    'attempt: for _ in 0..1000 {
        let mut v = vec![0u64; n];
        for b in 0..nb {
            let c = (k + 1) * rng.range(0, groups);
            rng.shuffle(&mut idx);
            for &i in &idx[..c as usize] {
                v[i] |= 1 << b;
            }
        }
        // The top bit, only on piles that stay within hi.
        if nb < 63 && (1u64 << nb) <= hi {
            let top = 1u64 << nb;
            let mut ok: Vec<usize> = (0..n).filter(|&i| v[i] + top <= hi).collect();
            let c = (k + 1) * rng.range(0, ok.len() as u64 / (k + 1));
            rng.shuffle(&mut ok);
            for &i in &ok[..c as usize] {
                v[i] |= top;
            }
        }
        // Empty piles take one bit from a pile that has at least two.
        for z in 0..n {
            if v[z] != 0 {
                continue;
            }
            let start = rng.range(0, n as u64 - 1) as usize;
            let donor = (0..n).map(|j| (start + j) % n).find(|&j| v[j].count_ones() >= 2);
            let Some(d) = donor else { continue 'attempt };
            let bits: Vec<u32> = (0..64).filter(|&b| (v[d] >> b) & 1 == 1).collect();
            let b = *rng.pick(&bits);
            v[d] &= !(1 << b);
            v[z] = 1 << b;
        }
        if v.iter().all(|&a| a >= lo && a <= hi) {
            debug_assert!(is_loss(&v, k));
            return v;
        }
    }
    panic!("could not build a losing position");
}


fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    // A loss needs k < n; random n and k are drawn accordingly for answer=no.
    let need_loss = args.str("answer", "any") == "no";
    let n = plan::size(&args, &mut rng, if need_loss { 2 } else { 1 });
    let k: u64 = if args.get("kn", 0u8) == 1 {
        n as u64
    } else if args.has("kmax") {
        let kcap = if need_loss { n as u64 - 1 } else { n as u64 };
        rng.range(1, args.get("kmax", 1u64).min(kcap))
    } else {
        args.get("k", 1u64).min(n as u64)
    };
    let lo: u64 = args.get("min", 1);
    let hi: u64 = args.get("max", 1_000_000_000);
    let mode = args.str("mode", "random").to_string();
    // summod=1: the total number of stones is a multiple of k + 1 (redraw until so).
    let summod = args.get("summod", 0u8) == 1;
    let answer = args.str("answer", "any").to_string();
    let v: Vec<u64> = match (mode.as_str(), answer.as_str()) {
        ("same", _) => vec![args.get("value", 1u64); n],
        ("random", "any") => (0..n).map(|_| rng.range(lo, hi)).collect(),
        ("random", "no") => loss(&mut rng, n, k, lo, hi),
        ("random", "yes") if k as usize >= n => loop {
            let v: Vec<u64> = (0..n).map(|_| rng.range(lo, hi)).collect();
            if !is_loss(&v, k) {
                break v;
            }
        },
        ("random", "yes") => {
            let flipmin: u32 = args.get("flipmin", 0);
            let top = 63 - hi.leading_zeros();
            assert!(flipmin <= top, "flipmin above the top bit of max");
            // One toggled bit never keeps the total a multiple of k + 1 when k + 1
            // is not a power of two, so with summod=1 up to three bits are toggled
            // (in different piles) and the result is checked to be a win.
            let max_flips = if summod { 3 } else { 1 };
            if args.get("pairflip", 0u8) == 1 {
                assert!(k >= 2 && n >= 2, "pairflip=1 needs k >= 2");
                loop {
                    let mut v = loss(&mut rng, n, k, lo, hi);
                    let b = rng.range(u64::from(flipmin), u64::from(top)) as u32;
                    let i = rng.range(0, n as u64 - 1) as usize;
                    let same: Vec<usize> = (0..n)
                        .filter(|&j| j != i && (v[j] ^ v[i]) >> b & 1 == 0)
                        .collect();
                    if same.is_empty() {
                        continue;
                    }
                    let j = *rng.pick(&same);
                    v[i] ^= 1 << b;
                    v[j] ^= 1 << b;
                    let in_range = [v[i], v[j]].iter().all(|&a| a >= lo && a <= hi);
                    if in_range && !is_loss(&v, k) {
                        break v;
                    }
                }
            } else {
                loop {
                    let mut v = loss(&mut rng, n, k, lo, hi);
                    let fixed = plan::bit_of_test(&args);
                    let flips = if fixed.is_some() { 1 } else { rng.range(1, max_flips) };
                    let mut in_range = true;
                    for _ in 0..flips {
                        let i = rng.range(0, n as u64 - 1) as usize;
                        let b = fixed.unwrap_or_else(|| rng.range(u64::from(flipmin), u64::from(top)) as u32);
                        v[i] ^= 1 << b;
                        in_range &= v[i] >= lo && v[i] <= hi;
                    }
                    let total: u64 = v.iter().sum();
                    if in_range && (!summod || total % (k + 1) == 0) && !is_loss(&v, k) {
                        break v;
                    }
                }
            }
        }
        (m, a) => panic!("unknown mode={m} answer={a}"),
    };
    let mut out = String::with_capacity(n * 11 + 32);
    out.push_str(&format!("{} {}\n", v.len(), k));
    for (i, p) in v.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&p.to_string());
    }
    out.push('\n');
    print!("{out}");
}

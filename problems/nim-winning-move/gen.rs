// Generator for `nim-winning-move`. Arguments (key=value):
//
//   T=<cases>            number of positions (default 1)
//   n=<count>            heaps per position, or
//   nmin=, nmax=         n uniform in nmin..=nmax per position (nmin default 1), or
//   sum=<total>          the T sizes are a random composition of `total` (each >= 1)
//   min=0 max=10^9       range of a non-empty heap
//   zeros=<percent>      chance that a heap is empty (default 0)
//   answer=win|lose|mix  win: XOR != 0; lose: XOR 0; mix (default): each position
//                        lost with chance 1/2 (when n >= 2)
//   shape=...            with answer=win, what every position must also satisfy:
//     plain       nothing more (default)
//     several     at least k= (default 2) heaps are winning heaps, so the first and
//                 the last winning heap differ
//     bigfirst    the first non-empty heap is NOT a winning heap (a_p ^ X > a_p): the
//                 "take from the first non-empty heap" guess gets a negative count
//     after-empty the first winning heap (index w) has w >= 2 and heap w-1 is empty:
//                 a 0-based answer names an empty heap
//     first       heap 1 is a winning heap: a 0-based answer prints heap 0
//     take-all    some heap equals the XOR of all (the other heaps XOR to 0): the
//                 winning move empties it, and its new size is 0
//   bits=LO-HI           position i (0-based) has XOR exactly 2^(LO + i mod (HI-LO+1)),
//                        decided by that one bit (a XOR kept in too few bits sees 0)
//
// Output: T, then per position a line `n` and a line of the n heap sizes.
#[path = "../_common/rng.rs"]
mod rng;
#[path = "../_common/plan.rs"]
mod plan;

use rng::{Args, Rng};

const MAX_N: u64 = 100_000;

struct Params {
    lo: u64,
    hi: u64,
    zeros: u64,
    shape: String,
    k: usize,
}

fn xor_of(v: &[u64]) -> u64 {
    v.iter().fold(0, |a, &b| a ^ b)
}

fn heap(rng: &mut Rng, p: &Params) -> u64 {
    if p.zeros > 0 && rng.chance(p.zeros, 100) {
        0
    } else {
        rng.range(p.lo, p.hi)
    }
}

/// Whether `last` may stand as a heap.
fn allowed(last: u64, p: &Params) -> bool {
    last <= p.hi && (last >= p.lo || (last == 0 && p.zeros > 0))
}

/// n heaps whose XOR is `target` (0: a lost position), or None if this try failed.
fn with_xor(rng: &mut Rng, n: usize, target: u64, p: &Params) -> Option<Vec<u64>> {
    if n == 1 {
        return allowed(target, p).then(|| vec![target]);
    }
    let mut v: Vec<u64> = (0..n).map(|_| heap(rng, p)).collect();
    let j = rng.range(0, n as u64 - 1) as usize;
    let last = xor_of(&v) ^ v[j] ^ target;
    if !allowed(last, p) {
        return None;
    }
    v[j] = last;
    Some(v)
}

/// Whether a winning position has the requested shape.
fn has_shape(v: &[u64], p: &Params) -> bool {
    let x = xor_of(v);
    if x == 0 {
        return false;
    }
    let winning: Vec<usize> = (0..v.len()).filter(|&i| v[i] ^ x < v[i]).collect();
    match p.shape.as_str() {
        "plain" => true,
        "several" => winning.len() >= p.k,
        "bigfirst" => match v.iter().position(|&a| a > 0) {
            Some(first) => v[first] ^ x > v[first],
            None => false,
        },
        "after-empty" => winning[0] >= 1 && v[winning[0] - 1] == 0,
        "first" => winning[0] == 0,
        "take-all" => v.iter().any(|&a| a == x),
        other => panic!("unknown shape={other}"),
    }
}

fn position(rng: &mut Rng, n: usize, lose: bool, bit: Option<u32>, p: &Params) -> Vec<u64> {
    for _attempt in 0..100_000 {
        let v = if lose {
            with_xor(rng, n, 0, p)
        } else if let Some(b) = bit {
            with_xor(rng, n, 1 << b, p)
        } else if p.shape == "take-all" {
            // The other heaps XOR to 0, then one heap of any size joins them.
            let w = rng.range(p.lo.max(1), p.hi);
            if n == 1 {
                Some(vec![w])
            } else {
                with_xor(rng, n - 1, 0, p).map(|mut v| {
                    let at = rng.range(0, v.len() as u64) as usize;
                    v.insert(at, w);
                    v
                })
            }
        } else {
            Some((0..n).map(|_| heap(rng, p)).collect())
        };
        if let Some(v) = v {
            if lose || bit.is_some() || has_shape(&v, p) {
                return v;
            }
        }
    }
    panic!("could not build a position with n={n} shape={} lose={lose}", p.shape);
}

/// T sizes summing to `total`, each in 1..=MAX_N.
fn composition(rng: &mut Rng, t: usize, total: u64) -> Vec<usize> {
    assert!(t as u64 <= total && total <= t as u64 * MAX_N, "sum={total} with T={t}");
    loop {
        let mut cuts = rng.distinct(t - 1, 1, total - 1);
        cuts.sort_unstable();
        cuts.insert(0, 0);
        cuts.push(total);
        let sizes: Vec<usize> = cuts.windows(2).map(|w| (w[1] - w[0]) as usize).collect();
        if sizes.iter().all(|&s| s as u64 <= MAX_N) {
            return sizes;
        }
    }
}

fn main() {
    let args = Args::from_env();
    let mut rng = Rng::from_args(&args);
    let t: usize = args.get("T", 1);
    let p = Params {
        lo: args.get("min", 0),
        hi: args.get("max", 1_000_000_000),
        zeros: args.get("zeros", 0),
        shape: args.str("shape", "plain").to_string(),
        k: args.get("k", 2),
    };
    let answer = args.str("answer", "mix").to_string();
    let bits = args.has("bits").then(|| plan::bit_range(args.str("bits", "")));
    let sizes: Vec<usize> = if args.has("sum") {
        composition(&mut rng, t, args.get("sum", 0))
    } else if args.has("nmax") {
        let (lo, hi) = (args.get("nmin", 1u64), args.get("nmax", 1u64));
        (0..t).map(|_| rng.range(lo, hi) as usize).collect()
    } else {
        vec![args.get("n", 1usize); t]
    };

    let mut out = String::with_capacity(sizes.iter().sum::<usize>() * 11 + t * 8 + 8);
    out.push_str(&format!("{t}\n"));
    for (i, &n) in sizes.iter().enumerate() {
        let bit = bits.map(|bits| plan::bit_of_case(bits, i));
        let lose = bit.is_none()
            && match answer.as_str() {
                "win" => false,
                "lose" => true,
                // A lost single heap is an empty heap: only where zeros are allowed.
                "mix" => (n >= 2 || p.zeros > 0 || p.lo == 0) && rng.chance(1, 2),
                other => panic!("unknown answer={other}"),
            };
        let v = position(&mut rng, n, lose, bit, &p);
        plan::push_case(&mut out, &v);
    }
    print!("{out}");
}

//! The generators' shared test planning: how a generator reads the size of
//! a case (`n=`, or `nmin=`/`nmax=`), which kind of case each of a file's
//! T cases is (`kinds=`, `first=`, `bits=`), which bit a planned test is
//! about (`bits=LO-HI` with the plan's `seed=`), values whose XOR is
//! prescribed, and the lines most inputs are made of (a count, then the
//! values). A problem's `gen.rs` keeps only what is its own: its game's
//! kinds of case and how to build them. Include it after the PRNG:
//!
//! ```ignore
//! #[path = "../_common/rng.rs"]
//! mod rng;
//! #[path = "../_common/plan.rs"]
//! mod plan;
//! ```
//!
//! Nothing here draws from the PRNG unless the arguments ask for a random
//! choice, so a generator that moves its planning here keeps its bytes.
#![allow(dead_code)]

use crate::rng::{Args, Rng};

/// The sizes a case may have: `n=<N>` fixes it (default 1), else
/// `nmin=`..=`nmax=`, with these defaults.
pub fn size_range(args: &Args, nmin: u64, nmax: u64) -> (u64, u64) {
    if args.has("n") {
        let n = args.get("n", 1u64);
        (n, n)
    } else {
        (args.get("nmin", nmin), args.get("nmax", nmax))
    }
}

/// The size of a file's one case: with `nmax=`, uniform in
/// `nmin..=nmax` (`nmin` at least `least`, its default); else `n=`
/// (default `least`).
pub fn size(args: &Args, rng: &mut Rng, least: u64) -> usize {
    if args.has("nmax") {
        let nmin = args.get("nmin", least).max(least);
        rng.range(nmin, args.get("nmax", least)) as usize
    } else {
        args.get("n", least as usize)
    }
}

/// `bits=LO-HI` as (LO, HI): the bits a plan's tests are about, one each
/// (bit 63 is out: a value with it would not fit the XOR of two values).
pub fn bit_range(s: &str) -> (u32, u32) {
    let (lo, hi) = s.split_once('-').expect("bits=LO-HI");
    let (lo, hi): (u32, u32) = (lo.parse().expect("LO"), hi.parse().expect("HI"));
    assert!(lo <= hi && hi < 63, "bits={s}");
    (lo, hi)
}

/// With `bits=LO-HI` and a plan `count` (which appends `seed=1`, `seed=2`,
/// ...): the bit this test is about, LO + seed - 1 (the count must not
/// exceed HI - LO + 1). `None` without `bits=`.
pub fn bit_of_test(args: &Args) -> Option<u32> {
    let (lo, hi) = args.str("bits", "").split_once('-')?;
    let (lo, hi): (u32, u32) = (lo.parse().expect("LO"), hi.parse().expect("HI"));
    let b = lo + args.get("seed", 1u32) - 1;
    assert!(lo <= b && b <= hi && hi < 63, "bits={lo}-{hi} with this seed gives bit {b}");
    Some(b)
}

/// The bit case `i` of a file is about under `bits=LO-HI`: the bits in
/// turn, LO + i mod (HI - LO + 1), so every bit has a case when T is large
/// enough.
pub fn bit_of_case(bits: (u32, u32), i: usize) -> u32 {
    let (lo, hi) = bits;
    lo + i as u32 % (hi - lo + 1)
}

/// Which kind of case each case of a multi-case file is ([`cases`] uses it):
/// `kinds=k1,k2,...` (drawn uniformly for each case), `first=<kind>` (the
/// first case's), or `bits=LO-HI` (instead of kinds: case i is of kind
/// `bit<b>` for [`bit_of_case`]).
pub struct Kinds {
    kinds: Vec<String>,
    first: Option<String>,
    bits: Option<(u32, u32)>,
}

impl Kinds {
    /// Reads `kinds=` (else `default`, comma-separated), `first=` and `bits=`.
    pub fn from_args(args: &Args, default: &str) -> Kinds {
        Kinds {
            kinds: args.str("kinds", default).split(',').map(str::to_string).collect(),
            first: args.has("first").then(|| args.str("first", "random").to_string()),
            bits: args.has("bits").then(|| bit_range(args.str("bits", ""))),
        }
    }

    /// The kind of case `i`; draws from `rng` only when it picks from `kinds=`.
    pub fn of_case(&self, i: usize, rng: &mut Rng) -> String {
        match (&self.bits, &self.first) {
            (Some(bits), _) => format!("bit{}", bit_of_case(*bits, i)),
            (None, Some(first)) if i == 0 => first.clone(),
            _ => rng.pick(&self.kinds).clone(),
        }
    }
}

/// A file of cases: `T=` (default 1) on the first line, then each case as
/// [`push_case`] writes it, built by `make` for the kind [`Kinds`] gives
/// it (`default_kinds` without `kinds=`).
pub fn cases(
    args: &Args,
    rng: &mut Rng,
    default_kinds: &str,
    mut make: impl FnMut(&mut Rng, &str) -> Vec<u64>,
) -> String {
    let t: usize = args.get("T", 1);
    let kinds = Kinds::from_args(args, default_kinds);
    let mut out = format!("{t}\n");
    for i in 0..t {
        let kind = kinds.of_case(i, rng);
        let values = make(rng, &kind);
        push_case(&mut out, &values);
    }
    out
}

/// What the XOR of drawn values must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Xor {
    Any,
    NonZero,
    Is(u64),
}

/// `k` values uniform in `lo..=hi` (distinct ones with `distinct`) whose
/// XOR is as `want` says: for a given XOR the last value is replaced by
/// the one that makes it, and the draw is repeated while that one falls
/// outside the range (or repeats another); a non-zero XOR is drawn again
/// until found. Panics when no draw meets it.
pub fn xor_values(rng: &mut Rng, k: usize, lo: u64, hi: u64, want: Xor, distinct: bool) -> Vec<u64> {
    if k == 0 {
        assert!(matches!(want, Xor::Any | Xor::Is(0)), "no value to give a non-zero XOR");
        return Vec::new();
    }
    if let Xor::Is(_) = want {
        assert!(k >= 2, "a given XOR needs at least two values");
    }
    for _attempt in 0..100_000 {
        let mut v: Vec<u64> = if distinct {
            rng.distinct(k, lo, hi)
        } else {
            (0..k).map(|_| rng.range(lo, hi)).collect()
        };
        let x = v.iter().fold(0, |a, &b| a ^ b);
        match want {
            Xor::Any => return v,
            Xor::NonZero => {
                if x != 0 {
                    return v;
                }
            }
            Xor::Is(target) => {
                let last = x ^ v[k - 1] ^ target;
                if last < lo || last > hi || (distinct && v[..k - 1].contains(&last)) {
                    continue;
                }
                v[k - 1] = last;
                return v;
            }
        }
    }
    panic!("could not draw {k} values in {lo}..={hi} with XOR {want:?}");
}

/// Appends one case as most inputs write it: its count on a line, then
/// the values separated by single spaces on the next.
pub fn push_case(out: &mut String, values: &[u64]) {
    out.push_str(&values.len().to_string());
    out.push('\n');
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&v.to_string());
    }
    out.push('\n');
}

/// The last line of an interactive match's input: the seed of the
/// interactor's own choices, a hash of the generator's arguments.
pub fn seed_line(args: &Args) -> String {
    format!("{}\n", args.hash() % 1_000_000_000_000_000_000)
}

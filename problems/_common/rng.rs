//! The generators' shared toolkit: `key=value` arguments and a small,
//! portable PRNG (SplitMix64). Include it from a problem's `gen.rs` with
//!
//! ```ignore
//! #[path = "../_common/rng.rs"]
//! mod rng;
//! ```
//!
//! Determinism is the whole point: the seed is a hash of the full argument
//! list, every operation is integer arithmetic with fixed widths, and nothing
//! reads the clock, the environment or the platform. The same arguments give
//! the same bytes on every machine.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::str::FromStr;

/// Generator arguments: `key=value` words; a bare word `w` is stored as `w=`.
pub struct Args {
    all: Vec<String>,
    map: BTreeMap<String, String>,
}

impl Args {
    /// Reads the process arguments (skipping the program name).
    pub fn from_env() -> Args {
        Args::parse(std::env::args().skip(1).collect())
    }

    pub fn parse(all: Vec<String>) -> Args {
        let mut map = BTreeMap::new();
        for word in &all {
            let (k, v) = word.split_once('=').unwrap_or((word.as_str(), ""));
            map.insert(k.to_string(), v.to_string());
        }
        Args { all, map }
    }

    /// The value of `key`, or `default` when absent. Panics (the generator
    /// fails loudly) when the value does not parse.
    pub fn get<T: FromStr>(&self, key: &str, default: T) -> T {
        match self.map.get(key) {
            None => default,
            Some(v) => v
                .parse()
                .unwrap_or_else(|_| panic!("argument {key}={v} does not parse")),
        }
    }

    /// The string value of `key`, or `default`.
    pub fn str<'a>(&'a self, key: &str, default: &'a str) -> &'a str {
        self.map.get(key).map(String::as_str).unwrap_or(default)
    }

    /// Whether `key` was given at all (as `key` or `key=...`).
    pub fn has(&self, key: &str) -> bool {
        self.map.contains_key(key)
    }

    /// A 64-bit FNV-1a hash of every argument, in order: the default seed.
    pub fn hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for word in &self.all {
            for b in word.bytes().chain(std::iter::once(0u8)) {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        }
        h
    }
}

/// SplitMix64: tiny, fast, statistically fine for test data.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// Seeded from the hash of all arguments, so any change of argument
    /// (including `seed=...`) gives a different stream.
    pub fn from_args(args: &Args) -> Rng {
        Rng(args.hash())
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi` (inclusive), without modulo bias.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        assert!(lo <= hi, "empty range {lo}..={hi}");
        let span = hi - lo;
        if span == u64::MAX {
            return self.next_u64();
        }
        let n = span + 1;
        let zone = u64::MAX - (u64::MAX % n) - 1;
        loop {
            let x = self.next_u64();
            if x <= zone {
                return lo + x % n;
            }
        }
    }

    /// Uniform in `lo..=hi` for signed values.
    pub fn range_i64(&mut self, lo: i64, hi: i64) -> i64 {
        assert!(lo <= hi, "empty range {lo}..={hi}");
        let span = (hi as i128 - lo as i128) as u64;
        (lo as i128 + self.range(0, span) as i128) as i64
    }

    /// `true` with probability `num/den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.range(0, den - 1) < num
    }

    /// A uniformly chosen element.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.range(0, items.len() as u64 - 1) as usize]
    }

    /// Fisher–Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.range(0, i as u64) as usize;
            items.swap(i, j);
        }
    }

    /// `k` distinct values from `lo..=hi`, in random order.
    pub fn distinct(&mut self, k: usize, lo: u64, hi: u64) -> Vec<u64> {
        assert!((hi - lo + 1) as usize >= k, "not enough distinct values");
        let mut seen = std::collections::BTreeSet::new();
        let mut out = Vec::with_capacity(k);
        while out.len() < k {
            let x = self.range(lo, hi);
            if seen.insert(x) {
                out.push(x);
            }
        }
        out
    }
}

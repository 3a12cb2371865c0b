//! The token checker on a 64 MiB output (target: at least 1 GB/s), against
//! a baseline measured in the same run: reading the same file through the
//! same buffering and touching every byte once. Figures are printed, not
//! asserted.
//!
//! `cargo bench --bench checker`

use std::io::{BufRead, BufReader, Write};
use std::time::Instant;

use grundy::checker::{CheckerKind, Decision};

const SIZE: usize = 64 << 20;
const ROUNDS: usize = 5;

fn main() {
    let dir = tempfile::tempdir().expect("tempdir");
    let answer = dir.path().join("answer");
    let output = dir.path().join("output");
    // Numbers of varied width on lines of varied length, as a solution prints.
    let mut text = Vec::with_capacity(SIZE + 64);
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    while text.len() < SIZE {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        write!(text, "{}", x % 1_000_000_007).unwrap();
        text.push(if x.is_multiple_of(8) { b'\n' } else { b' ' });
    }
    std::fs::write(&answer, &text).unwrap();
    std::fs::write(&output, &text).unwrap();
    let mb = text.len() as f64 / 1e6;
    drop(text);

    let baseline = best(|| {
        let mut r = BufReader::with_capacity(1 << 16, std::fs::File::open(&output).unwrap());
        let mut spaces = 0usize;
        loop {
            let buf = r.fill_buf().unwrap();
            if buf.is_empty() {
                break;
            }
            spaces += buf.iter().filter(|b| b.is_ascii_whitespace()).count();
            let n = buf.len();
            r.consume(n);
        }
        assert!(spaces > 0);
    });
    println!(
        "baseline (read the output, look at every byte): {:.0} MB/s",
        mb / baseline
    );
    for (name, kind) in [
        ("tokens", CheckerKind::Tokens),
        ("integers", CheckerKind::Integers),
        (
            "float",
            CheckerKind::Float {
                abs: 1e-6,
                rel: 1e-6,
            },
        ),
        ("lines", CheckerKind::Lines),
        ("exact", CheckerKind::Exact),
    ] {
        let secs = best(|| {
            let open = |p| BufReader::with_capacity(1 << 16, std::fs::File::open(p).unwrap());
            let r = kind.check(open(&answer), open(&output)).unwrap();
            assert_eq!(r.decision, Decision::Accepted, "{}", r.message);
        });
        println!(
            "{name:<9} {:>6.0} MB/s of output ({:.2}x the baseline's time)",
            mb / secs,
            secs / baseline
        );
    }
}

/// The fastest of a few rounds, seconds.
fn best(mut f: impl FnMut()) -> f64 {
    (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

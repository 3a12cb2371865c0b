//! Problem-setter speed (issue 4), each figure printed beside a baseline
//! from the same run: `cargo bench --bench setter [gen|verify]...`. Not a
//! test: nothing here asserts a timing. Budgets on a 2-core machine:
//! `grundy gen --all` from an empty data directory ≤ 120 s, with
//! everything cached ≤ 2 s; `grundy verify --all` ≤ 600 s.
//!
//! The baseline is the cost that dominates a cold `gen`: one bare
//! `rustc -O` of nim's reference solver, outside the sandbox. Dividing by
//! it makes figures from a busy and an idle machine comparable.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const GRUNDY: &str = env!("CARGO_BIN_EXE_grundy");

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

/// Runs grundy; returns its wall time and exit code.
fn grundy(config: &Path, args: &[&str]) -> (Duration, i32) {
    let t = Instant::now();
    let out = Command::new(GRUNDY)
        .arg("--config")
        .arg(config)
        .args(args)
        .output()
        .expect("running grundy");
    let elapsed = t.elapsed();
    let code = out.status.code().unwrap_or(-1);
    if code != 0 {
        eprintln!(
            "grundy {} exited {code}:\n{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    (elapsed, code)
}

/// One bare optimised compile of nim's reference solver.
fn baseline() -> Duration {
    let dir = tempfile::tempdir().expect("tempdir");
    let runs: Vec<Duration> = (0..3)
        .map(|_| {
            let t = Instant::now();
            let ok = Command::new("rustc")
                .args(["-O", "--edition", "2021", "-o"])
                .arg(dir.path().join("solution"))
                .arg(repo().join("problems/nim/solution.rs"))
                .status()
                .expect("rustc")
                .success();
            assert!(ok, "nim's solution compiles");
            t.elapsed()
        })
        .collect();
    median(runs)
}

fn report(what: &str, took: Duration, budget: Duration, unit: Duration) {
    println!(
        "{what:<40} {:>8.2} s  budget {:>5.0} s ({:>5.1}% of it)  = {:>6.1} baseline compiles",
        took.as_secs_f64(),
        budget.as_secs_f64(),
        100.0 * took.as_secs_f64() / budget.as_secs_f64(),
        took.as_secs_f64() / unit.as_secs_f64(),
    );
}

fn main() {
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let run = |part: &str| wanted.is_empty() || wanted.iter().any(|w| w == part);
    let unit = baseline();
    println!(
        "baseline: bare `rustc -O` of problems/nim/solution.rs, median of 3: {:.3} s",
        unit.as_secs_f64()
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let config = common::config(dir.path(), &dir.path().join("var"), None, str::to_owned);
    if run("gen") {
        let (cold, code) = grundy(&config, &["gen", "--all"]);
        assert_eq!(code, 0, "gen --all failed");
        report(
            "gen --all, empty data directory",
            cold,
            Duration::from_secs(120),
            unit,
        );
        let cached = median(
            (0..5)
                .map(|_| grundy(&config, &["gen", "--all"]).0)
                .collect(),
        );
        report(
            "gen --all, cached (median of 5)",
            cached,
            Duration::from_secs(2),
            unit,
        );
        let (check, code) = grundy(&config, &["gen", "--all", "--check"]);
        assert_eq!(code, 0, "gen --all --check found differences");
        report(
            "gen --all --check (no budget)",
            check,
            Duration::from_secs(120),
            unit,
        );
    }
    if run("verify") {
        let (verify, code) = grundy(&config, &["verify", "--all", "--json"]);
        assert_eq!(code, 0, "verify --all did not verify everything");
        report("verify --all", verify, Duration::from_secs(600), unit);
    }
}

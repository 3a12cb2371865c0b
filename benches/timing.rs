//! The calibration spread (issue 24): the same worker calibrated 10 times
//! in a row, as `grundy serve` does at start (the program compiled once,
//! then run in the box; the median of `[timing] calibration_runs` runs).
//! Printed: each calibration's median, and the spread (slowest over
//! fastest) of the 10 medians beside the baseline from the same run, the
//! spread of 10 single runs.
//!
//! Then the load (issue 32): calibrations with one copy (an idle machine,
//! as the first calibration was once taken) and with a copy in every
//! sandbox slot (every worker slot busy, as a worker calibrates now),
//! alternated; printed, the two medians and their ratio (busy over idle),
//! the factor a worker judging at full load meets against its idle
//! figure. Nothing is asserted.
//! `cargo bench --bench timing` (GRUNDY_CALIBRATION_RUNS overrides 5).

mod common;

use grundy::config::Config;
use grundy::context::Context;

const CALIBRATIONS: usize = 10;

fn spread(values: &[u64]) -> f64 {
    let lo = values.iter().copied().min().unwrap_or(1).max(1);
    let hi = values.iter().copied().max().unwrap_or(1).max(1);
    hi as f64 / lo as f64
}

fn main() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = common::config(dir.path(), &dir.path().join("var"), None, str::to_owned);
    let config = Config::load(&path).expect("config");
    let runs: u32 = std::env::var("GRUNDY_CALIBRATION_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(config.timing.calibration_runs.max(1));
    let ctx = Context::new(config);
    let judge = ctx.judge();
    // The compilation is not part of what is measured.
    judge.calibrate(1, 1).expect("calibration");

    let mut singles = Vec::new();
    for _ in 0..CALIBRATIONS {
        singles.push(judge.calibrate(1, 1).expect("calibration").median_ms);
    }
    let mut medians = Vec::new();
    let mut within = Vec::new();
    for i in 0..CALIBRATIONS {
        let c = judge.calibrate(runs, 1).expect("calibration");
        println!(
            "calibration {:>2}: median {:>4} ms  runs {:?}  (spread within {:.3})",
            i + 1,
            c.median_ms,
            c.runs_ms,
            c.spread()
        );
        within.push(c.spread());
        medians.push(c.median_ms);
    }
    println!("sandbox: {}", ctx.runner().describe());
    println!(
        "single runs (baseline): {singles:?} ms, spread {:.3}",
        spread(&singles)
    );
    println!(
        "medians of {runs}:         {medians:?} ms, spread {:.3}",
        spread(&medians)
    );
    println!(
        "calibration spread (10 calibrations, max/min of medians): {:.3}; \
         baseline (10 single runs): {:.3}; ratio {:.2}",
        spread(&medians),
        spread(&singles),
        (spread(&medians) - 1.0) / (spread(&singles) - 1.0).max(1e-9)
    );
    let worst_within = within.iter().copied().fold(1.0, f64::max);
    println!("largest spread within one calibration: {worst_within:.3}");

    let slots = ctx.slots();
    let (mut idle, mut busy) = (Vec::new(), Vec::new());
    for _ in 0..LOAD_ROUNDS {
        idle.extend(judge.calibrate(runs, 1).expect("calibration").runs_ms);
        busy.extend(judge.calibrate(runs, slots).expect("calibration").runs_ms);
    }
    let (idle_ms, busy_ms) = (median(&idle), median(&busy));
    println!(
        "under load ({LOAD_ROUNDS} rounds of {runs} runs, alternated): idle (1 copy) median {idle_ms} ms; \
         every slot busy ({slots} copies) median {busy_ms} ms; ratio busy/idle {:.3}",
        busy_ms as f64 / idle_ms.max(1) as f64
    );
}

/// Calibrations of each kind in the comparison under load.
const LOAD_ROUNDS: usize = 5;

fn median(values: &[u64]) -> u64 {
    grundy::judge::calibrate::median(values)
}

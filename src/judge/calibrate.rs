//! A worker's speed: the CPU time of a fixed, deterministic program
//! (`calibrate.c`: Sprague-Grundy values of 400 subtraction games, about
//! 130 ms on a 2020s core), compiled like a submission in C (or C++, which
//! takes the same source) and run in the same box, under the same
//! measurement, as the submissions it will judge. A compiled program, not
//! one built into grundy: what is calibrated is the machine as a judged
//! program sees it (the compiler's code, the box's isolation, the
//! measurement tier), and the C toolchain is the one a worker is surest to
//! have. Several runs, their median: one run disturbed by a neighbour does
//! not move it.

use std::time::Duration;

use super::{Error, Judge};
use crate::lang::{Compiled, Source};
use crate::sandbox::{Limits, RunSpec, Stdio};

/// The calibration program (C17, also valid C++).
pub const PROGRAM: &str = include_str!("calibrate.c");

/// What the program prints on every machine.
pub const CHECKSUM: &str = "9709545709285701648";

/// A worker's speed as measured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Calibration {
    /// The median run's CPU time, milliseconds: the worker's speed (lower
    /// is faster).
    pub median_ms: u64,
    /// Every run's CPU time, in the order run.
    pub runs_ms: Vec<u64>,
    /// The language that compiled the program (`c` or `cpp`).
    pub language: String,
}

impl Calibration {
    /// The slowest run over the fastest (1.0 when they agree).
    pub fn spread(&self) -> f64 {
        let lo = self.runs_ms.iter().copied().min().unwrap_or(0).max(1);
        let hi = self.runs_ms.iter().copied().max().unwrap_or(0).max(1);
        hi as f64 / lo as f64
    }
}

/// The median of `values` (the lower middle of an even count); 0 when empty.
pub fn median(values: &[u64]) -> u64 {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    match sorted.len() {
        0 => 0,
        n => sorted[(n - 1) / 2],
    }
}

/// Why a worker calibrates again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recalibration {
    /// Its interval passed since the last calibration.
    Interval,
    /// The machine's other work changed by at least [`Schedule::load_step`]
    /// since then.
    Load,
}

/// When a worker calibrates again after its first calibration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Schedule {
    /// The longest time between two calibrations; zero: never again.
    pub every: Duration,
    /// The change in the machine's other load (runnable tasks beside this
    /// worker's own runs) that calibrates sooner.
    pub load_step: f64,
    /// The shortest time between two calibrations that a change of load
    /// starts: each holds back the worker's claims while it runs, and the
    /// load average it reads settles over a minute.
    pub load_gap: Duration,
}

impl Schedule {
    /// Every `every` (zero: never), sooner after a change of load of one
    /// runnable task (a neighbour that took or left a core), at most
    /// once a minute.
    pub fn every(every: Duration) -> Schedule {
        Schedule {
            every,
            load_step: 1.0,
            load_gap: Duration::from_secs(60),
        }
    }

    /// Whether a worker that last calibrated `since` ago, when the
    /// machine's other load was `load_then`, calibrates again now that it
    /// is `load_now`.
    pub fn due(&self, since: Duration, load_then: f64, load_now: f64) -> Option<Recalibration> {
        if self.every.is_zero() {
            None
        } else if since >= self.every {
            Some(Recalibration::Interval)
        } else if since >= self.load_gap && (load_now - load_then).abs() >= self.load_step {
            Some(Recalibration::Load)
        } else {
            None
        }
    }
}

impl Judge {
    /// Measures this machine's speed as a judged run meets it: compiles
    /// the calibration program (or finds it in the program cache) and runs
    /// it `runs` times (at least once), each time as `copies` runs at once
    /// (at least one), in the sandbox: with `copies` the worker's slots,
    /// every slot is busy, as while it judges. The figure is the median of
    /// every copy's every run.
    ///
    /// # Errors
    /// No C or C++ language configured, a toolchain that fails, a sandbox
    /// failure, or a run that does not end cleanly with the checksum: the
    /// judge's own failures (the worker then judges uncalibrated, factor 1).
    pub fn calibrate(&self, runs: u32, copies: usize) -> Result<Calibration, Error> {
        let language = ["c", "cpp"]
            .iter()
            .find_map(|id| self.languages.get(id).ok())
            .ok_or_else(|| Error::Calibration("no language c or cpp is configured".into()))?
            .clone();
        let source = Source::new(PROGRAM.as_bytes().to_vec());
        let program =
            match language.compile(self.runner.as_ref(), &self.cache, &source, &self.compile)? {
                Compiled::Ok(program) => program,
                Compiled::Failed(message) => {
                    return Err(Error::Calibration(format!(
                        "the program does not compile with {}: {message}",
                        language.id
                    )))
                }
            };
        let io = |what: &'static str| {
            move |source| Error::Io {
                what: what.into(),
                source,
            }
        };
        let work = tempfile::Builder::new()
            .prefix("grundy-calibrate-")
            .tempdir()
            .map_err(io("creating a calibration directory"))?;
        let limits = Limits::new(Duration::from_secs(20), 64 << 20)
            .wall(Duration::from_secs(60))
            .output(1 << 10)
            .open_files(64);
        let (command, args) = program.command(limits.memory >> 20);
        let outputs: Vec<_> = (0..copies.max(1))
            .map(|i| work.path().join(format!("stdout-{i}")))
            .collect();
        let mut runs_ms = Vec::new();
        for _ in 0..runs.max(1) {
            let specs = outputs
                .iter()
                .map(|stdout| {
                    RunSpec::new(command.clone(), work.path(), limits)
                        .args(args.clone())
                        .envs(crate::lang::base_env())
                        .stdout(Stdio::file(stdout))
                        .binds(program.binds())
                })
                .collect();
            // All at once: each copy meets the others as a judged run
            // meets the runs of the worker's other slots.
            for (outcome, stdout) in self.runner.run_together(specs).into_iter().zip(&outputs) {
                let outcome = outcome?;
                let printed = std::fs::read_to_string(stdout).unwrap_or_default();
                if !outcome.success() || printed.trim() != CHECKSUM {
                    return Err(Error::Calibration(format!(
                        "a run ended {:?} printing {:?}, not the checksum",
                        outcome.termination,
                        printed.trim()
                    )));
                }
                runs_ms.push(outcome.cpu_ms);
            }
        }
        Ok(Calibration {
            median_ms: median(&runs_ms).max(1),
            runs_ms,
            language: language.id.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_is_the_middle_run() {
        assert_eq!(median(&[130, 128, 190, 131, 129]), 130);
        assert_eq!(median(&[5, 1]), 1);
        assert_eq!(median(&[]), 0);
    }

    #[test]
    fn the_spread_is_the_slowest_over_the_fastest() {
        let c = Calibration {
            median_ms: 100,
            runs_ms: vec![100, 110, 100],
            language: "c".into(),
        };
        assert!((c.spread() - 1.1).abs() < 1e-9);
    }

    #[test]
    fn a_worker_calibrates_again_after_its_interval_or_a_change_of_load() {
        let s = Schedule::every(Duration::from_secs(600));
        let min = |m: u64| Duration::from_secs(60 * m);
        assert_eq!(s.due(min(5), 0.0, 0.5), None);
        assert_eq!(s.due(min(10), 0.0, 0.0), Some(Recalibration::Interval));
        assert_eq!(s.due(min(2), 0.2, 1.3), Some(Recalibration::Load));
        assert_eq!(s.due(min(2), 3.0, 1.5), Some(Recalibration::Load));
        // Not twice a minute, however the load moves.
        assert_eq!(s.due(Duration::from_secs(30), 0.0, 4.0), None);
        // Zero: at start only.
        assert_eq!(Schedule::every(Duration::ZERO).due(min(60), 0.0, 9.0), None);
    }
}

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

impl Judge {
    /// Measures this machine's speed: compiles the calibration program (or
    /// finds it in the program cache) and runs it `runs` times (at least
    /// once) in the sandbox.
    ///
    /// # Errors
    /// No C or C++ language configured, a toolchain that fails, a sandbox
    /// failure, or a run that does not end cleanly with the checksum: the
    /// judge's own failures (the worker then judges uncalibrated, factor 1).
    pub fn calibrate(&self, runs: u32) -> Result<Calibration, Error> {
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
        let mut runs_ms = Vec::new();
        for _ in 0..runs.max(1) {
            let stdout = work.path().join("stdout");
            let spec = RunSpec::new(command.clone(), work.path(), limits)
                .args(args.clone())
                .envs(crate::lang::base_env())
                .stdout(Stdio::file(&stdout))
                .binds(program.binds());
            let outcome = self.runner.run(&spec)?;
            let printed = std::fs::read_to_string(&stdout).unwrap_or_default();
            if !outcome.success() || printed.trim() != CHECKSUM {
                return Err(Error::Calibration(format!(
                    "a run ended {:?} printing {:?}, not the checksum",
                    outcome.termination,
                    printed.trim()
                )));
            }
            runs_ms.push(outcome.cpu_ms);
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
}

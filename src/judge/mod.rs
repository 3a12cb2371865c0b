//! The judge: compile, run every test in the sandbox, check, aggregate.
//! Knows the sandbox, languages, checkers, problems and verdicts; knows
//! nothing of HTTP or SQL. A submission's failures (CE, WA, TLE, ...) are
//! values in the [`Report`]; an `Err` is the judge's own failure and
//! becomes `IE` at the caller.

mod aggregate;
pub mod calibrate;
mod checking;
pub mod derive;
pub mod examples;
pub mod fair;
mod interactive;
mod outcome;
pub use outcome::WALL_CLOCK;
mod passes;
mod plan;
pub mod transcript;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

pub use aggregate::{aggregate, GroupReport};
pub use calibrate::{Calibration, Recalibration, Schedule};
pub use checking::Checking;
pub use fair::{CloseCall, Scaling};
pub use outcome::{program_run_verdict, run_verdict};
pub use plan::{Plan, PlanError, Request};
pub use transcript::Transcript;

use crate::checker::special::{Protocol, SpecialJudge};
use crate::checker::{Checker, Partial};
use crate::config::{CompileLimits, Limits as RunLimits};
use crate::data::{self, TestSet};
use crate::lang::{self, Compiled, Languages, Program, ProgramCache, Source};
use crate::problem::{Group, GroupSpec, Problem};
use crate::sandbox::{self, Limits, RunSpec, Runner, Stdio, Termination};
use crate::verdict::Verdict;

/// The judge's own failures.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Lang(#[from] lang::Error),
    #[error(transparent)]
    Sandbox(#[from] sandbox::Error),
    /// The submission's program could not be started: `execve` refused
    /// its own file (a compile that left a program the box cannot run).
    /// Not the judge's fault once a fresh compile leaves the same.
    #[error("the program could not be started")]
    NotStarted(#[source] sandbox::Error),
    #[error(transparent)]
    Data(#[from] data::Error),
    #[error("checker {path} does not compile:\n{message}")]
    Checker { path: PathBuf, message: String },
    #[error("calibrating this worker's speed: {0}")]
    Calibration(String),
    #[error("{what}")]
    Io {
        what: String,
        source: std::io::Error,
    },
}

impl Error {
    /// The error of the submission's own run: [`Error::NotStarted`] where
    /// `execve` refused the program's own file, the sandbox's otherwise
    /// (an interpreter that is not there is the judge's).
    pub(crate) fn of_run(e: sandbox::Error, program: &Program) -> Error {
        if e.exec_refused() && program.starts_itself() {
            Error::NotStarted(e)
        } else {
            Error::Sandbox(e)
        }
    }
}

/// The result of one test.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq)]
pub struct TestReport {
    pub name: String,
    pub group: Group,
    pub verdict: Verdict,
    pub time_ms: u64,
    pub wall_ms: u64,
    pub memory_kib: u64,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub message: String,
    /// The test's share of its group's points, from 0 to 1, where the
    /// checker gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// What the submission and the interactor said to each other, on the
    /// samples of an interactive problem.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript: Option<Transcript>,
}

/// The result of judging one submission.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq)]
pub struct Report {
    pub verdict: Verdict,
    pub score: u32,
    pub time_ms: u64,
    pub memory_kib: u64,
    pub compile_output: String,
    pub tests: Vec<TestReport>,
    /// Per-group results of a problem with `[[groups]]`, in judging order;
    /// empty for a problem without.
    #[serde(default)]
    pub groups: Vec<GroupReport>,
}

impl Report {
    /// A submission that ended before any test ran: `CE` with the
    /// compiler's message, or `IE` when the judge itself failed.
    pub fn failed(verdict: Verdict, compile_output: String) -> Report {
        Report {
            verdict,
            score: 0,
            time_ms: 0,
            memory_kib: 0,
            compile_output,
            tests: Vec::new(),
            groups: Vec::new(),
        }
    }
}

/// What happens while judging, for progress displays.
#[derive(Debug)]
pub enum Event<'a> {
    Compiling,
    Compiled {
        cached: bool,
    },
    TestDone {
        index: usize,
        total: usize,
        report: &'a TestReport,
    },
}

/// A submission's compilation begun on a thread of its own
/// ([`Judge::compile_ahead`]). Dropped unused, it waits for the compiler:
/// nothing of it outlives its caller half done.
pub struct Ahead(Option<std::thread::JoinHandle<Result<Compiled, lang::Error>>>);

impl Ahead {
    /// What the compilation gave; `None` if its thread died.
    fn result(mut self) -> Option<Result<Compiled, lang::Error>> {
        self.0.take()?.join().ok()
    }
}

impl Drop for Ahead {
    fn drop(&mut self) {
        if let Some(thread) = self.0.take() {
            let _ = thread.join();
        }
    }
}

/// What the compiler is given for `plan`.
fn source_of(plan: &Plan) -> Source {
    Source {
        text: plan.source().to_vec(),
        siblings: plan.siblings().to_vec(),
        file_name: plan.file_name().map(str::to_string),
        units: plan.units().to_vec(),
    }
}

/// Everything the judge needs. Cheap to clone; owns what it shares, so a
/// worker can move it into a task of its own.
#[derive(Clone)]
pub struct Judge {
    pub runner: Arc<dyn Runner>,
    pub languages: Arc<Languages>,
    pub cache: Arc<ProgramCache>,
    pub limits: RunLimits,
    pub compile: CompileLimits,
    /// Run every test even after a failure (for `grundy verify`, which must
    /// see that a TLE submission never answers wrong), except tests at
    /// least as large as one that timed out. The verdict is still the first
    /// failure's.
    pub run_all: bool,
    /// This worker's speed factor and grace past the limit (1 and none on
    /// the command line).
    pub scaling: Scaling,
}

impl Judge {
    /// Judges a checked plan on every test of its problem, stopping at the
    /// first failure unless `run_all` is set.
    ///
    /// # Errors
    /// Only the judge's own failures (a missing toolchain, a sandbox
    /// failure, an unreadable file).
    pub fn judge(&self, plan: &Plan, on_event: &mut dyn FnMut(Event)) -> Result<Report, Error> {
        self.judge_ahead(plan, None, on_event)
    }

    /// Starts compiling `plan`'s source on a thread of its own, for a
    /// caller with other work to do before the judging (storing the
    /// submission): [`Judge::judge_ahead`] takes what it gave. `None` where
    /// no thread could start: the judging compiles.
    pub fn compile_ahead(&self, plan: &Plan) -> Option<Ahead> {
        let (judge, language, source) = (self.clone(), plan.shared_language(), source_of(plan));
        std::thread::Builder::new()
            .name("compile-ahead".into())
            .spawn(move || {
                language.compile(judge.runner.as_ref(), &judge.cache, &source, &judge.compile)
            })
            .ok()
            .map(|thread| Ahead(Some(thread)))
    }

    /// [`Judge::judge`], starting from a compilation begun ahead, if any:
    /// its result is the judging's, a failure of the judge's included
    /// (it made its own tries). Where its thread died, the judging
    /// compiles.
    ///
    /// # Errors
    /// As [`Judge::judge`].
    pub fn judge_ahead(
        &self,
        plan: &Plan,
        mut ahead: Option<Ahead>,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<Report, Error> {
        let problem = plan.problem();
        let _span =
            tracing::info_span!("judge", problem = %problem.slug, language = %plan.language().id)
                .entered();
        // The problem's checker first: a broken one is the judge's fault
        // (IE), found before the submission is compiled.
        let checking = self.checking(problem)?;
        let interactor = self.interactor(problem)?;
        on_event(Event::Compiling);
        let source = source_of(plan);
        // A cached program that cannot start in the box (a compile of
        // before that left, say, a link to a path the box lacks) is
        // evicted and compiled once more; a fresh one that cannot start
        // either is the submission's.
        let mut fresh = false;
        loop {
            let compiled = match ahead.take().and_then(Ahead::result) {
                Some(begun) => begun?,
                None => plan.language().compile(
                    self.runner.as_ref(),
                    &self.cache,
                    &source,
                    &self.compile,
                )?,
            };
            let program = match compiled {
                Compiled::Ok(program) => program,
                Compiled::Failed(message) => return Ok(Report::failed(Verdict::CE, message)),
            };
            on_event(Event::Compiled {
                cached: program.cached,
            });
            match self.judge_program(plan, (&checking, interactor.as_ref()), &program, on_event) {
                Err(Error::NotStarted(e)) => {
                    self.cache.forget(&program.dir);
                    let why = std::error::Error::source(&e)
                        .map_or_else(|| e.to_string(), |s| s.to_string());
                    if program.cached && !fresh {
                        tracing::warn!(
                            error = %crate::errors::chain(&e),
                            "a cached program does not start; compiling it again"
                        );
                        fresh = true;
                        continue;
                    }
                    return Ok(Report::failed(
                        Verdict::CE,
                        format!("the compiled program cannot be started ({why})"),
                    ));
                }
                other => return other,
            }
        }
    }

    /// Runs a compiled submission on the plan's tests.
    fn judge_program(
        &self,
        plan: &Plan,
        (checking, interactor): (&Checking, Option<&SpecialJudge>),
        program: &Program,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<Report, Error> {
        let (problem, tests) = (plan.problem(), plan.tests());
        let limits = self.run_limits(problem, program);
        let total = tests.index.tests.len();
        let groups = &problem.manifest.groups;
        // In run_all mode, a test at least as large as one that already
        // timed out is skipped: it would only time out again, slowly.
        let mut timed_out_at: Option<u64> = None;
        let scratch = Scratch::new()?;
        let mut run = |index: usize, points: Option<u32>| -> Result<Option<TestReport>, Error> {
            let size = tests.index.tests[index].input_bytes;
            if self.run_all && timed_out_at.is_some_and(|t| size >= t) {
                return Ok(None);
            }
            let report = self.run_test(
                problem,
                (checking, interactor),
                program,
                (tests, &scratch),
                (index, points),
                limits,
            )?;
            if report.verdict == Verdict::TLE {
                timed_out_at = Some(timed_out_at.map_or(size, |t| t.min(size)));
            }
            on_event(Event::TestDone {
                index,
                total,
                report: &report,
            });
            Ok(Some(report))
        };
        let (reports, group_reports, (verdict, score)) = if groups.is_empty() {
            let mut reports = Vec::with_capacity(total);
            for index in 0..total {
                let Some(report) = run(index, None)? else {
                    continue;
                };
                let failed = !report.verdict.is_accepted();
                reports.push(report);
                if failed && !self.run_all {
                    break;
                }
            }
            let verdicts: Vec<Verdict> = reports.iter().map(|r| r.verdict).collect();
            let result = aggregate(&verdicts, total);
            (reports, Vec::new(), result)
        } else {
            let (reports, group_reports) = judge_groups(groups, tests, self.run_all, &mut run)?;
            let result = aggregate::scored(&reports, &group_reports);
            (reports, group_reports, result)
        };
        Ok(Report {
            verdict,
            score,
            time_ms: reports.iter().map(|r| r.time_ms).max().unwrap_or(0),
            memory_kib: reports.iter().map(|r| r.memory_kib).max().unwrap_or(0),
            compile_output: String::new(),
            tests: reports,
            groups: group_reports,
        })
    }

    /// The limits of one run of a submission on this problem.
    pub fn run_limits(&self, problem: &Problem, program: &Program) -> Limits {
        // A run is stopped only at the end of the grace band past its
        // limit, so that a TLE there has a known time (see `fair`).
        let cpu = self
            .time_limit(problem, program.time_factor)
            .mul_f64(1.0 + self.scaling.grace);
        Limits::new(cpu, problem.manifest.memory_limit << 20)
            .wall(cpu.mul_f64(self.limits.wall_factor) + Duration::from_millis(500))
            .output(output_limit_mib(problem, self.limits.output_limit) << 20)
            .open_files(256)
            .processes(program.processes)
    }

    /// A test's CPU limit: the problem's, times the language's factor,
    /// times this worker's speed factor.
    pub fn time_limit(&self, problem: &Problem, time_factor: f64) -> Duration {
        Duration::from_secs_f64(problem.manifest.time_limit * time_factor * self.scaling.factor)
    }

    fn run_test(
        &self,
        problem: &Problem,
        (checking, interactor): (&Checking, Option<&SpecialJudge>),
        program: &lang::Program,
        (tests, scratch): (&TestSet, &Scratch),
        (index, points): (usize, Option<u32>),
        limits: Limits,
    ) -> Result<TestReport, Error> {
        let test = &tests.index.tests[index];
        let _span = tracing::debug_span!("test", name = %test.name).entered();
        let (cwd, capture) = scratch.clear()?;
        let stderr = capture.join("stderr");
        let (prog, args) = program.command(limits.memory >> 20);
        let spec = RunSpec::new(prog, cwd, limits)
            .args(args)
            .envs(lang::base_env())
            .stderr(Stdio::file(&stderr))
            .binds(program.binds());
        let (input, answer) = (tests.input(test), tests.answer(test));
        // Kattis's validator flags of this test's group.
        let flags = problem
            .manifest
            .tests
            .get(index)
            .filter(|t| t.name == test.name && !t.output_flags.is_empty())
            .map(|t| t.output_flags.as_slice());
        let checking = &match flags {
            None => checking.clone(),
            Some(flags) => checking.with_flags(flags),
        };
        let interactor = &match (interactor, flags) {
            (Some(i), Some(flags)) => Some(i.with_flags(flags)),
            (i, _) => i.cloned(),
        };
        let run = passes::Test {
            runner: self.runner.as_ref(),
            program,
            checker: &problem.manifest.checker,
            checking,
            interactor: interactor.as_ref(),
            answer: &answer,
            work: capture,
            record: test.group.is_sample(),
        };
        let passes = problem.kattis.as_ref().and_then(|k| k.multi_pass);
        let (outcome, (verdict, message, given), transcript) =
            passes::run(&run, spec, &input, passes)?;
        let (verdict, message, score) = match resolve_score(given, points) {
            Ok(score) => (verdict, message, score),
            Err(why) => (Verdict::IE, why, None),
        };
        // Inside the grace band the sandbox let the run go on; over the
        // limit it is a TLE all the same, as it would have been had the
        // run been stopped at the limit.
        let limit_ms = self.time_limit(problem, program.time_factor).as_millis();
        let (verdict, message, score) = match outcome.termination {
            Termination::MemoryExceeded | Termination::OutputExceeded | Termination::CpuTimeout => {
                (verdict, message, score)
            }
            _ if self.scaling.grace > 0.0 && u128::from(outcome.cpu_ms) > limit_ms => (
                Verdict::TLE,
                format!(
                    "CPU time limit exceeded ({} ms of {limit_ms} ms)",
                    outcome.cpu_ms
                ),
                None,
            ),
            _ => (verdict, message, score),
        };
        // Kattis has no memory-limit verdict: a run over the limit is a
        // run-time error there.
        let (verdict, message) = match (verdict, &problem.kattis) {
            (Verdict::MLE, Some(_)) => (
                Verdict::RE,
                format!("{message} (a run-time error in a Kattis package)"),
            ),
            other => (other.0, message),
        };
        let (exit_code, signal) = match outcome.termination {
            Termination::Exited(code) => (Some(code), None),
            Termination::Signaled(sig) => (None, Some(sig)),
            _ => (None, None),
        };
        Ok(TestReport {
            name: test.name.clone(),
            group: test.group.clone(),
            verdict,
            time_ms: outcome.cpu_ms,
            wall_ms: outcome.wall_ms,
            memory_kib: outcome.memory_kib,
            exit_code,
            signal,
            message,
            score,
            transcript,
        })
    }

    /// The problem's checker, ready to use: a built-in one as it is, a
    /// program compiled (and cached) like a submission.
    ///
    /// # Errors
    /// A checker program that does not compile, an unknown language, or
    /// an unreadable file: the problem's fault, never a submission's.
    pub fn checking(&self, problem: &Problem) -> Result<Checking, Error> {
        match &problem.manifest.checker {
            Checker::Builtin(kind) => Ok(Checking::Builtin(*kind)),
            Checker::Program { source, protocol } => self
                .package_program(problem, source, *protocol)
                .map(Checking::Special),
        }
    }

    /// The problem's interactor, compiled, if it is interactive.
    ///
    /// # Errors
    /// As [`Judge::checking`].
    pub fn interactor(&self, problem: &Problem) -> Result<Option<SpecialJudge>, Error> {
        problem
            .manifest
            .interactor
            .as_ref()
            .map(|i| self.package_program(problem, &i.source, i.protocol))
            .transpose()
    }

    /// A checker or interactor of the package, compiled (and cached) like
    /// a submission, with the headers beside it (`testlib.h`) and the
    /// package's shared code, to run under the package programs' limits.
    fn package_program(
        &self,
        problem: &Problem,
        source: &Path,
        protocol: Protocol,
    ) -> Result<SpecialJudge, Error> {
        let path = problem.dir.join(source);
        let source_files =
            data::PackageSource::read(problem, source).map_err(|(path, source)| Error::Io {
                what: format!("reading {}", path.display()),
                source,
            })?;
        let compiled = source_files.compile(
            &path,
            &self.languages,
            self.runner.as_ref(),
            &self.cache,
            &self.compile,
        )?;
        let program = match compiled {
            Compiled::Ok(program) => program,
            Compiled::Failed(message) => {
                return Err(Error::Checker { path, message });
            }
        };
        let limits = data::package_limits(problem);
        let (command, args) = program.command(limits.memory >> 20);
        Ok(SpecialJudge {
            program: command,
            args,
            env: lang::base_env(),
            binds: program.binds(),
            limits,
            protocol,
            flags: Vec::new(),
        })
    }
}

/// The output limit of a submission's run, MiB: a Kattis package's
/// `limits.output` (8 MiB by default), else the judge's.
fn output_limit_mib(problem: &Problem, judge_mib: u64) -> u64 {
    problem
        .kattis
        .as_ref()
        .map_or(judge_mib, |k| k.limits.output_mib)
}

/// Judges a problem with `[[groups]]`: each group in judging order, its
/// tests in plan order, stopping at a test that scores 0 and skipping a
/// group whose dependency is not full (unless `run_all`, which runs every
/// test but scores the same). `run` judges one test (by plan index, with
/// its group's points), or passes it by (`None`).
fn judge_groups(
    groups: &[GroupSpec],
    tests: &TestSet,
    run_all: bool,
    run: &mut dyn FnMut(usize, Option<u32>) -> Result<Option<TestReport>, Error>,
) -> Result<(Vec<TestReport>, Vec<GroupReport>), Error> {
    let mut reports: Vec<TestReport> = Vec::new();
    let mut results = Vec::with_capacity(groups.len());
    let mut full: Vec<&str> = Vec::new();
    for spec in groups {
        let members: Vec<usize> = (0..tests.index.tests.len())
            .filter(|&i| tests.index.tests[i].group == spec.name)
            .collect();
        let skipped = spec.depends.iter().any(|d| !full.contains(&d.as_str()));
        let first = reports.len();
        if !skipped || run_all {
            for &index in &members {
                let Some(report) = run(index, Some(spec.points))? else {
                    continue;
                };
                let zero = aggregate::test_share(&report) <= 0.0;
                reports.push(report);
                if zero && !run_all {
                    break;
                }
            }
        }
        let ran: Vec<&TestReport> = reports[first..].iter().collect();
        let names = members
            .iter()
            .map(|&i| tests.index.tests[i].name.clone())
            .collect();
        let (result, is_full) = aggregate::group(spec, names, &ran, skipped);
        if is_full {
            full.push(spec.name.as_str());
        }
        results.push(result);
    }
    Ok((reports, results))
}

/// A test's score from what its checker gave and its group's points
/// (`None` without groups, where only a share is kept): a share from 0 to
/// 1, or why the score is the checker's fault.
fn resolve_score(given: Option<Partial>, points: Option<u32>) -> Result<Option<f64>, String> {
    match (given, points) {
        (None, _) => Ok(None),
        (Some(Partial::Fraction(f)), _) => Ok(Some(f.clamp(0.0, 1.0))),
        (Some(Partial::Points(_)), None | Some(0)) => Ok(None),
        (Some(Partial::Points(x)), Some(p)) if x > f64::from(p) + 1e-9 => Err(format!(
            "the checker gave a score of {x}, above the group's {}",
            crate::plural::count(p, "point", "points")
        )),
        (Some(Partial::Points(x)), Some(p)) => Ok(Some((x / f64::from(p)).clamp(0.0, 1.0))),
    }
}

/// The working directory and the capture directory (the program's output,
/// its standard error, a checker's or an interactor's feedback) of a
/// submission's tests: made once for all of them, and emptied before each
/// test as though new (making and removing two directories and two files
/// a test cost a disk more than the rest of the judge's work for a quick
/// test). Removed with everything in them when dropped.
struct Scratch {
    cwd: sandbox::Workdir,
    capture: sandbox::Workdir,
}

impl Scratch {
    fn new() -> Result<Scratch, Error> {
        let io = |what: &str| {
            let what = what.to_owned();
            move |source| Error::Io { what, source }
        };
        Ok(Scratch {
            cwd: sandbox::Workdir::new("grundy-run-").map_err(io("creating a run directory"))?,
            capture: sandbox::Workdir::new("grundy-out-")
                .map_err(io("creating a capture directory"))?,
        })
    }

    /// Empties both for the next test (the output files stay, empty) and
    /// gives their paths: the working directory's and the capture's.
    fn clear(&self) -> Result<(&Path, &Path), Error> {
        let io = |dir: &sandbox::Workdir| {
            let what = format!("emptying {}", dir.path().display());
            move |source| Error::Io { what, source }
        };
        self.cwd.clear(&[]).map_err(io(&self.cwd))?;
        self.capture
            .clear(&["stdout", "stderr"])
            .map_err(io(&self.capture))?;
        Ok((self.cwd.path(), self.capture.path()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kattis_score_is_read_against_the_group_points() {
        let p = |x| Some(Partial::Points(x));
        assert_eq!(resolve_score(p(15.0), Some(30)), Ok(Some(0.5)));
        assert_eq!(resolve_score(p(30.0), Some(30)), Ok(Some(1.0)));
        assert!(
            resolve_score(p(31.0), Some(30)).is_err(),
            "above the points"
        );
        assert_eq!(resolve_score(p(3.0), None), Ok(None), "no groups");
        assert_eq!(resolve_score(p(3.0), Some(0)), Ok(None), "a 0-point group");
        let f = Some(Partial::Fraction(0.25));
        assert_eq!(resolve_score(f, Some(30)), Ok(Some(0.25)));
        assert_eq!(resolve_score(f, None), Ok(Some(0.25)));
        assert_eq!(resolve_score(None, Some(30)), Ok(None));
    }
}

//! A Kattis package's time limit where `problem.yaml` (and DOMjudge's
//! `.timelimit`) fix none: derived as problemtools does, from its slowest
//! accepted submission (CPU time over its language's time factor, times
//! `ac_to_time_limit`, rounded up to the resolution). The accepted
//! submissions are judged once per version of the package, under the
//! largest limit grundy allows; the limit is kept under the data
//! directory, named by the digest of what it depends on, so `submit`,
//! `import` and `verify` derive it once and agree on it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{examples, Error, Judge};
use crate::data::{TestData, TestSet};
use crate::problem::kattis::TimeRule;
use crate::problem::{Expected, Problem};
use crate::verdict::Verdict;

/// A derived limit.
#[derive(Debug, Clone, PartialEq)]
pub struct Derived {
    /// Seconds (60, grundy's largest, where nothing could be derived).
    pub seconds: f64,
    /// How it was derived, one sentence.
    pub how: String,
    /// Whether it was: `false` when no accepted submission ran.
    pub ok: bool,
}

/// One accepted run: CPU seconds over its language's time factor, what
/// it was (`path: N ms`), and the factor.
pub type AcceptedRun = (f64, String, f64);

/// The derived limit of `problem`, judging its accepted submissions on
/// `set` unless this version of the package has one kept; `None` where the
/// package fixes its limit (or is no Kattis package).
///
/// # Errors
/// Only failures of the judge itself.
pub fn time_limit(
    judge: &Judge,
    data: &TestData,
    source_limit_kib: u64,
    problem: &Problem,
    set: &Arc<TestSet>,
) -> Result<Option<Derived>, Error> {
    let Some(rule) = problem.kattis.as_ref().map(|k| k.time) else {
        return Ok(None);
    };
    if rule.fixed.is_some() {
        return Ok(None);
    }
    let kept_at = kept_path(data, problem, set);
    if let Some(kept) = read_kept(&kept_at) {
        return Ok(Some(kept));
    }
    let judge = Judge {
        run_all: false,
        ..judge.clone()
    };
    let shared = Arc::new(problem.clone());
    let mut accepted = Vec::new();
    for sub in problem.submissions() {
        if sub.expected != Expected::Accepted {
            continue;
        }
        let Ok((plan, factor)) =
            examples::plan(data, shared.clone(), &sub, set.clone(), source_limit_kib)
        else {
            continue;
        };
        let report = judge.judge(&plan, &mut |_| {})?;
        if report.verdict == Verdict::AC {
            let path = sub.path.strip_prefix(&problem.dir).unwrap_or(&sub.path);
            accepted.push((
                report.time_ms as f64 / 1000.0 / factor,
                format!("{}: {} ms", path.display(), report.time_ms),
                factor,
            ));
        }
    }
    let derived = from_runs(&rule, &accepted);
    if derived.ok {
        keep(&kept_at, derived.seconds, &derived.how);
    }
    Ok(Some(derived))
}

/// The limit `rule` gives for these accepted runs.
pub fn from_runs(rule: &TimeRule, accepted: &[AcceptedRun]) -> Derived {
    let Some(slowest) = accepted.iter().map(|(t, ..)| *t).reduce(f64::max) else {
        return Derived {
            seconds: 60.0,
            how:
                "the package fixes no time limit and no accepted submission ran to derive one from"
                    .into(),
            ok: false,
        };
    };
    let seconds = rule.derive(slowest);
    Derived {
        seconds,
        how: format!(
            "derived: slowest accepted run {slowest:.3} s x {} rounded up to {} s = {seconds} s; \
             time-limit-exceeded submissions judged at {} s",
            rule.ac_to_time_limit,
            rule.resolution,
            seconds * rule.time_limit_to_tle
        ),
        ok: true,
    }
}

/// Where the time limit derived for this version of a Kattis package is
/// kept: named by the digest of what it depends on (`problem.yaml`,
/// `.timelimit`, `submissions.yaml`, the tests, the accepted submissions
/// and the languages' time factors), so that a changed package derives
/// its own.
fn kept_path(data: &TestData, problem: &Problem, set: &TestSet) -> PathBuf {
    let mut h = crate::digest::Fields::new();
    h.field(b"kattis time limit 2")
        .field(set.dir.to_string_lossy().as_bytes());
    for file in ["problem.yaml", ".timelimit", "submissions/submissions.yaml"] {
        h.field(&std::fs::read(problem.dir.join(file)).unwrap_or_default());
    }
    for sub in problem.submissions() {
        if sub.expected != Expected::Accepted {
            continue;
        }
        let mut files = vec![sub.path.clone()];
        if let Ok(entries) = std::fs::read_dir(&sub.path) {
            files = entries.flatten().map(|e| e.path()).collect();
            files.sort();
        }
        for f in files {
            h.field(f.to_string_lossy().as_bytes())
                .field(&std::fs::read(&f).unwrap_or_default());
        }
    }
    for l in data.languages.iter() {
        h.field(l.id.as_bytes())
            .field(&l.config.time_factor.to_le_bytes());
    }
    data.root.join("kattis-time-limits").join(h.finish())
}

/// A kept derived limit.
fn read_kept(path: &Path) -> Option<Derived> {
    let text = std::fs::read_to_string(path).ok()?;
    let (seconds, how) = text.split_once('\n')?;
    let seconds = seconds.trim().parse::<f64>().ok()?;
    Some(Derived {
        seconds,
        how: format!(
            "{} (kept: derived once for this version of the package)",
            how.trim_end()
        ),
        ok: true,
    })
}

/// Keeps a derived limit (a failure to keep it only costs deriving it
/// again).
fn keep(path: &Path, seconds: f64, how: &str) {
    let write = || -> std::io::Result<()> {
        let dir = path.parent().unwrap_or(path);
        std::fs::create_dir_all(dir)?;
        let tmp = tempfile::NamedTempFile::new_in(dir)?;
        std::fs::write(tmp.path(), format!("{seconds}\n{how}\n"))?;
        tmp.persist(path).map_err(|e| e.error)?;
        Ok(())
    };
    if let Err(e) = write() {
        tracing::warn!(path = %path.display(), error = %crate::errors::chain(&e), "keeping a derived time limit");
    }
}

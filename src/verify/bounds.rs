//! The bounds check of `grundy verify`: the validator, run on every test
//! with `--bounds`, names the bounds it declares (`problems/_common/
//! validate.rs`: `int_as`, `int_line_as`, `bound`) and whether that input
//! met each one's minimum and maximum. A declared maximum no test reaches
//! fails the package, unless `verify.toml` gives the reason none needs
//! to; a Kattis package's are only reported.

use std::collections::BTreeMap;

use serde::Serialize;

use super::cross::read;
use super::notes::Notes;
use super::{Check, CheckName, Error};
use crate::data::{self, TestData, TestSet};
use crate::problem::{Problem, Role};

/// One declared bound and the tests that reach its ends.
#[derive(Debug, Clone, Serialize)]
pub struct BoundReach {
    pub name: String,
    /// The widest range the validator checked it against.
    pub min: i64,
    pub max: i64,
    /// The first test in which a value met its lower bound, if any.
    pub min_reached_by: Option<String>,
    /// The first test in which a value met its upper bound, if any.
    pub max_reached_by: Option<String>,
    /// Why no test needs to reach the maximum (`verify.toml`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_test_needed: Option<String>,
}

pub(super) fn check_bounds(
    data: &TestData,
    problem: &Problem,
    set: &TestSet,
    notes: &Notes,
) -> Result<(Check, Vec<BoundReach>), Error> {
    let check = |ok: bool, detail: String| Check {
        name: CheckName::Bounds,
        ok,
        detail,
        counterexample: None,
    };
    if !problem.has(Role::Validator) {
        return Ok((
            check(
                true,
                "no validator.rs declares bounds: not applicable".into(),
            ),
            Vec::new(),
        ));
    }
    let programs = match data.programs(problem, &[Role::Validator]) {
        Ok(p) => p,
        Err(data::Error::Compile { role, message, .. }) => {
            return Ok((
                check(false, format!("{role} does not compile: {message}")),
                Vec::new(),
            ))
        }
        Err(e) => return Err(e.into()),
    };
    let scratch = tempfile::tempdir().map_err(|source| Error::Io {
        what: "creating a scratch directory".into(),
        source,
    })?;
    let out = scratch.path().join("bounds.out");
    let mut reach: BTreeMap<String, BoundReach> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    for test in &set.index.tests {
        let run = programs.run(
            Role::Validator,
            &["--bounds".into()],
            Some(&set.input(test)),
            &out,
        )?;
        if !run.outcome.success() {
            return Ok((
                check(
                    false,
                    format!(
                        "validator.rs --bounds failed on test {}: {}",
                        test.name, run.stderr_line
                    ),
                ),
                Vec::new(),
            ));
        }
        let text = String::from_utf8_lossy(&read(&out)?).into_owned();
        for line in text.lines() {
            let f: Vec<&str> = line.split(' ').collect();
            let ["bound", name, lo, hi, at_min, at_max] = f.as_slice() else {
                continue;
            };
            let (name, at_min, at_max): (&str, &str, &str) = (name, at_min, at_max);
            let (Ok(lo), Ok(hi)) = (lo.parse::<i64>(), hi.parse::<i64>()) else {
                continue;
            };
            let b = reach.entry(name.to_string()).or_insert_with(|| {
                order.push(name.to_string());
                BoundReach {
                    name: name.to_string(),
                    min: lo,
                    max: hi,
                    min_reached_by: None,
                    max_reached_by: None,
                    no_test_needed: notes.bounds.get(name).cloned(),
                }
            });
            b.min = b.min.min(lo);
            b.max = b.max.max(hi);
            if at_min == "1" && b.min_reached_by.is_none() {
                b.min_reached_by = Some(test.name.clone());
            }
            if at_max == "1" && b.max_reached_by.is_none() {
                b.max_reached_by = Some(test.name.clone());
            }
        }
    }
    let bounds: Vec<BoundReach> = order.iter().filter_map(|n| reach.remove(n)).collect();
    let report_only = problem.kattis.is_some();
    let mut faults = Vec::new();
    for name in notes.bounds.keys() {
        if !bounds.iter().any(|b| &b.name == name) {
            faults.push(format!(
                "verify.toml [bounds] names {name:?}, which validator.rs does not declare"
            ));
        }
    }
    let unreached: Vec<&BoundReach> = bounds
        .iter()
        .filter(|b| b.max_reached_by.is_none() && b.no_test_needed.is_none())
        .collect();
    for b in &unreached {
        faults.push(format!(
            "no test reaches {} = {} (add one that does, or say in verify.toml [bounds] why none needs to)",
            b.name, b.max
        ));
    }
    if bounds.is_empty() {
        return Ok((
            check(
                faults.is_empty(),
                if faults.is_empty() {
                    "validator.rs declares no bounds (see int_as in problems/_common/validate.rs)"
                        .into()
                } else {
                    faults.join("; ")
                },
            ),
            bounds,
        ));
    }
    let summary: Vec<String> = bounds
        .iter()
        .map(|b| {
            let end = |r: &Option<String>| {
                if r.is_some() {
                    "reached"
                } else {
                    "not reached"
                }
            };
            format!(
                "{} in [{}, {}]: min {}, max {}{}",
                b.name,
                b.min,
                b.max,
                end(&b.min_reached_by),
                end(&b.max_reached_by),
                if b.max_reached_by.is_none() && b.no_test_needed.is_some() {
                    " (no test needed)"
                } else {
                    ""
                }
            )
        })
        .collect();
    let ok = faults.is_empty() || report_only;
    let mut detail = faults.join("\n");
    if !detail.is_empty() {
        detail.push('\n');
    }
    detail.push_str(&summary.join("; "));
    if report_only && !faults.is_empty() {
        detail.push_str(" (a Kattis package: reported, not failed)");
    }
    Ok((check(ok, detail), bounds))
}

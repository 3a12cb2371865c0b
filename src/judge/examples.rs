//! A package's example submissions as plans: each read as its package
//! takes it (for a Kattis package, its extensions, a directory as one
//! program, and the language and entry point `submissions.yaml` names),
//! in a language of the configuration. Used wherever example submissions
//! are judged: deriving a Kattis time limit, and `grundy verify`.

use std::path::Path;
use std::sync::Arc;

use super::{Plan, PlanError};
use crate::data::{TestData, TestSet};
use crate::problem::kattis::{self, Build, NotJudged};
use crate::problem::{ExampleSubmission, Problem};

/// Why an example submission has no plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unplanned {
    /// Not judged here: for a Kattis package, judged where it comes from
    /// and not by grundy (a language grundy lacks, Python 2); for any
    /// package, a language whose toolchain this machine lacks. Skipped,
    /// not failed.
    Skipped(String),
    /// Something is wrong with it: a failure of the package.
    Refused(String),
}

/// The plan judging `sub` on `problem`'s tests (with `data`'s languages,
/// whose toolchain is probed), and its language's time factor.
///
/// # Errors
/// [`Unplanned`], saying why.
pub fn plan(
    data: &TestData,
    problem: Arc<Problem>,
    sub: &ExampleSubmission,
    set: Arc<TestSet>,
    source_limit_kib: u64,
) -> Result<(Plan, f64), Unplanned> {
    let is_kattis = problem.kattis.is_some();
    let build = sub
        .claimed
        .as_deref()
        .map_or_else(Build::default, |c| Build {
            language: c.language.as_deref(),
            entrypoint: c.entrypoint.as_deref(),
        });
    let files = match kattis::submission_as(&sub.path, is_kattis, &build) {
        Ok(files) => files,
        Err(NotJudged::Lacks(why)) if is_kattis => return Err(Unplanned::Skipped(why)),
        Err(why) => return Err(Unplanned::Refused(why.to_string())),
    };
    let language = match data.languages.for_path(Path::new(&files.name)) {
        Ok(l) => l.clone(),
        Err(e) if is_kattis => return Err(Unplanned::Skipped(e.to_string())),
        Err(e) => return Err(Unplanned::Refused(e.to_string())),
    };
    if let Err(missing) = language.version(data.runner.as_ref()) {
        return Err(Unplanned::Skipped(format!(
            "language {}: toolchain missing: {missing}",
            language.id
        )));
    }
    let factor = language.config.time_factor;
    match Plan::new(
        problem,
        language,
        &files.name,
        files.text,
        set,
        source_limit_kib,
    ) {
        Ok(plan) => Ok((
            plan.with_siblings(files.siblings).with_units(files.units),
            factor,
        )),
        // A Python 2 file: problemtools judges it, grundy cannot.
        Err(PlanError::Refused { why, .. }) if is_kattis => Err(Unplanned::Skipped(why)),
        Err(e) => Err(Unplanned::Refused(e.to_string())),
    }
}

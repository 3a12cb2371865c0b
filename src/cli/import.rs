//! `grundy import DIR [--as SLUG]`: a Kattis package becomes a problem of
//! the catalog (the work is in [`crate::import`]).

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use anyhow::bail;

use crate::context::Context;
use crate::plural::count;
use crate::problem::{kattis, Problem};

pub fn run(ctx: &Context, dir: &Path, slug: Option<&str>) -> anyhow::Result<u8> {
    if !dir.join("problem.yaml").is_file() {
        bail!("{}: not a Kattis package (no problem.yaml)", dir.display());
    }
    let problem = kattis::load(dir)?;
    crate::import::importable(&problem)?;
    let slug = slug
        .map(str::to_string)
        .unwrap_or_else(|| crate::import::default_slug(&problem));
    // The tests must be good before anything is written, and a derived
    // time limit needs them.
    let data = ctx.test_data();
    let set = Arc::new(data.ensure(&problem, &|_| {})?);
    let derived = crate::judge::derive::time_limit(
        &ctx.judge(),
        &data,
        ctx.config.limits.source_limit,
        &problem,
        &set,
    )?;
    let time_limit = match &derived {
        Some(derived) => derived.seconds,
        None => problem.manifest.time_limit,
    };
    let summary = crate::import::kattis(&problem, time_limit, &ctx.config.problems_dir, &slug)?;
    // What was written must load as a native problem.
    if let Err(e) = Problem::load(&summary.dir) {
        bail!("the imported problem does not load: {e}");
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(
        out,
        "{slug}: imported {} into {} ({}, {})",
        dir.display(),
        summary.dir.display(),
        count(summary.tests, "test", "tests"),
        count(
            summary.submissions,
            "example submission",
            "example submissions"
        )
    )?;
    match derived {
        Some(derived) => writeln!(out, "  time limit {}", derived.how)?,
        None => writeln!(
            out,
            "  time limit {} s, as the package fixes it",
            time_limit
        )?,
    }
    for s in problem.kattis.iter().flat_map(|k| k.skipped.iter()) {
        writeln!(out, "  note: {s}")?;
    }
    Ok(0)
}

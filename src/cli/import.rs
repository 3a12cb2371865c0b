//! `grundy import DIR [--as SLUG]`: a Kattis package becomes a problem of
//! the catalog (the work is in [`crate::import`]).

use std::io::Write;
use std::path::Path;

use anyhow::bail;

use crate::context::Context;
use crate::plural::count;
use crate::problem::kattis;

pub fn run(ctx: &Context, dir: &Path, slug: Option<&str>) -> anyhow::Result<u8> {
    if !dir.join("problem.yaml").is_file() {
        bail!("{}: not a Kattis package (no problem.yaml)", dir.display());
    }
    let problem = kattis::load(dir)?;
    crate::import::importable(&problem)?;
    let slug = slug
        .map(str::to_string)
        .unwrap_or_else(|| crate::import::default_slug(&problem));
    let (summary, notes) =
        crate::site::catalog::import_kattis(ctx, dir, &ctx.config.problems_dir, &slug)?;
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
    for note in notes {
        writeln!(out, "  {note}")?;
    }
    Ok(0)
}

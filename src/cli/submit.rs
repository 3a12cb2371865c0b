//! `grundy submit PROBLEM FILE`: judge locally and record in the database.
//!
//! Everything that can be wrong with the request (unknown problem or
//! language, an unreadable, empty or oversized file, a missing toolchain,
//! test data that cannot be produced) is found before anything is stored.
//! Once stored, the submission always ends with a verdict: a judge failure
//! is recorded as `IE` (and exits 2), never blamed on the submission.

use std::io::{IsTerminal, Write};
use std::path::Path;

use anyhow::{bail, Context as _};

use super::report::{self, JsonReport};
use crate::context::{default_jobs, Context};
use crate::judge::{Event, Report};
use crate::store::NewSubmission;
use crate::verdict::Verdict;

pub fn run(
    ctx: &Context,
    slug: &str,
    file: &Path,
    lang: Option<&str>,
    json: bool,
) -> anyhow::Result<u8> {
    let problem = ctx.catalog.load(slug)?;
    let language = match lang {
        Some(id) => ctx.languages.get(id)?,
        None => ctx.languages.for_path(file)?,
    };
    let source = read_source(file, ctx.config.limits.source_limit)?;
    if let Err(missing) = language.version(ctx.runner.as_ref()) {
        bail!("language {}: toolchain missing: {missing}", language.id);
    }
    let data = ctx.test_data(default_jobs());
    if !json && std::io::stderr().is_terminal() {
        eprintln!("preparing test data for {slug}...");
    }
    data.ensure(&problem, &|_| {})?;

    let rt = super::runtime()?;
    let store = rt.block_on(super::open_store(ctx))?;
    let id = rt.block_on(store.insert_submission(NewSubmission {
        problem: slug,
        language: &language.id,
        source: &source,
    }))?;
    if !rt.block_on(store.claim(id))? {
        bail!("submission {id} was claimed by another judge");
    }

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if !json {
        writeln!(out, "submission {id}: {slug} in {}", language.config.name)?;
    }
    let mut write_error = None;
    let judged = ctx
        .judge(&data)
        .judge(&problem, language, &source, &mut |event| {
            if json {
                return;
            }
            let r = match event {
                Event::Compiling if std::io::stderr().is_terminal() => {
                    eprintln!("compiling...");
                    Ok(())
                }
                Event::Compiled { .. } => report::table_header(&mut out),
                Event::TestDone { index, report, .. } => report::table_row(&mut out, index, report),
                Event::PreparingTests | Event::Compiling => Ok(()),
            };
            if let Err(e) = r {
                write_error.get_or_insert(e);
            }
        });
    let (report, failure) = match judged {
        Ok(report) => (report, None),
        Err(e) => {
            tracing::error!(error = %e, submission = id, "judge failed");
            let report = Report {
                verdict: Verdict::IE,
                score: 0,
                time_ms: 0,
                memory_kib: 0,
                compile_output: String::new(),
                tests: Vec::new(),
            };
            (report, Some(e))
        }
    };
    rt.block_on(store.finish_submission(id, &report))
        .with_context(|| format!("recording the verdict of submission {id}"))?;
    rt.block_on(store.close());
    if let Some(e) = failure {
        bail!("submission {id}: internal error (recorded as IE): {e}");
    }
    if let Some(e) = write_error {
        return Err(e.into());
    }
    if json {
        report::print_json(
            &mut out,
            &JsonReport::new(id, slug, &language.id, Some(&report)),
        )?;
    } else {
        report::summary(&mut out, id, &report)?;
    }
    Ok(report::exit_code(&report))
}

/// Reads a source file, refusing a missing, empty or oversized one.
fn read_source(file: &Path, limit_kib: u64) -> anyhow::Result<Vec<u8>> {
    let meta = std::fs::metadata(file).with_context(|| format!("reading {}", file.display()))?;
    if !meta.is_file() {
        bail!("{} is not a file", file.display());
    }
    let limit = limit_kib * 1024;
    if meta.len() > limit {
        bail!(
            "{}: source is {} KiB, above the limit of {limit_kib} KiB",
            file.display(),
            meta.len().div_ceil(1024)
        );
    }
    let source = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    if source.iter().all(u8::is_ascii_whitespace) {
        bail!("{}: source is empty", file.display());
    }
    Ok(source)
}

//! `grundy submit PROBLEM FILE`: judge locally and record in the database.
//!
//! Everything that can be wrong with the request (unknown problem or
//! language, an unreadable, empty or oversized file, a missing toolchain,
//! test data that cannot be produced) is found before anything is stored.
//! Once stored, the submission always ends with a verdict: a judge failure
//! is recorded as `IE` (and exits 2), never blamed on the submission.

use std::io::{IsTerminal, Read, Write};
use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Context as _};

use super::report::{self, JsonReport};
use crate::context::Context;
use crate::judge::{Event, Plan, PlanError, Report, Request};
use crate::store::{ClaimAs, NewSubmission, Queue};
use crate::verdict::Verdict;

pub fn run(
    ctx: &Context,
    slug: &str,
    file: &Path,
    lang: Option<&str>,
    json: bool,
) -> anyhow::Result<u8> {
    let limit_kib = ctx.config.limits.source_limit;
    // A directory is one multi-file submission (as Kattis takes one): its
    // sources are judged together, the entry point's text is what is
    // stored.
    let kattis = Path::new(slug).join("problem.yaml").is_file();
    let (name, source, siblings, units) = if file.is_dir() {
        let files = crate::problem::kattis::submission(file, kattis)
            .map_err(|why| anyhow::anyhow!("{why}"))?;
        (files.name, files.text, files.siblings, files.units)
    } else {
        let source = read_source(file, limit_kib)?;
        (file.display().to_string(), source, Vec::new(), Vec::new())
    };
    if !json && std::io::stderr().is_terminal() {
        eprintln!("preparing test data for {slug}...");
    }
    let request = Request {
        problem: slug,
        language: lang,
        file_name: &name,
        source,
    };
    let mut plan = Plan::build_local(request, &ctx.catalog, &ctx.test_data(), limit_kib)?
        .with_siblings(siblings)
        .with_units(units);
    // A Kattis package without a fixed time limit: Kattis's rule, from its
    // accepted submissions.
    let derived = crate::judge::derive::time_limit(
        &ctx.judge(),
        &ctx.test_data(),
        limit_kib,
        plan.problem(),
        &plan.shared_tests(),
    )?;
    if let Some(derived) = derived {
        if !json {
            eprintln!("time limit {}", derived.how);
        }
        plan = plan.with_time_limit(derived.seconds);
    }
    let slug = &plan.problem().slug.clone();
    let language = plan.language();

    let rt = super::runtime()?;
    let store = rt.block_on(super::open_store(ctx))?;
    // The same queue as a hosted judge's workers: stored, claimed with a
    // lease renewed at every test, each test recorded as it finishes.
    let id = rt.block_on(store.enqueue(NewSubmission {
        problem: slug,
        language: &language.id,
        source: plan.source(),
        user_id: None,
    }))?;
    let worker = crate::site::state::process_name();
    let own = ClaimAs {
        worker: &worker,
        only: Some(id),
        ..ClaimAs::default()
    };
    let Some(claim) = rt.block_on(store.claim(LOCAL_LEASE, &own))? else {
        bail!("submission {id} was claimed by another judge");
    };
    let lease = claim.lease;

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if !json {
        writeln!(out, "submission {id}: {slug} in {}", language.config.name)?;
    }
    let mut write_error = None;
    let mut store_error = None;
    let judged = tracing::info_span!("submission", id).in_scope(|| {
        ctx.judge().judge(&plan, &mut |event| {
            if let Event::TestDone { index, report, .. } = &event {
                let recorded = rt.block_on(async {
                    store.renew(lease, LOCAL_LEASE).await?;
                    store.record_test(lease, *index, report).await
                });
                if let Err(e) = recorded {
                    store_error.get_or_insert(e);
                }
            }
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
                Event::Compiling => Ok(()),
            };
            if let Err(e) = r {
                write_error.get_or_insert(e);
            }
        })
    });
    let (report, failure) = match judged {
        Ok(report) => (report, None),
        Err(e) => {
            tracing::error!(error = %e, submission = id, "judge failed");
            (Report::failed(Verdict::IE, String::new()), Some(e))
        }
    };
    let recorded = rt
        .block_on(store.finish(lease, &report, None))
        .with_context(|| format!("recording the verdict of submission {id}"))?;
    rt.block_on(store.close());
    if let Some(e) = store_error {
        return Err(anyhow::Error::new(e).context(format!("recording a test of submission {id}")));
    }
    if !recorded {
        bail!("submission {id}: its lease expired while judging and another judge took it over; this result was discarded");
    }
    if let Some(e) = failure {
        return Err(anyhow::Error::new(e)
            .context(format!("submission {id}: internal error (recorded as IE)")));
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

/// How long a local claim lasts without a test finishing (a compilation
/// or one slow test): long enough that a hosted judge sharing the database
/// does not take it over from a live `grundy submit`.
const LOCAL_LEASE: Duration = Duration::from_secs(300);

/// Reads a source file, never more than one byte past the limit.
fn read_source(file: &Path, limit_kib: u64) -> anyhow::Result<Vec<u8>> {
    let reading = || format!("reading {}", file.display());
    let meta = std::fs::metadata(file).with_context(reading)?;
    if !meta.is_file() {
        bail!("{} is not a file", file.display());
    }
    let mut source = Vec::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(limit_kib * 1024 + 1).read_to_end(&mut source))
        .with_context(reading)?;
    if source.len() as u64 > limit_kib * 1024 {
        // The plan would refuse it too; the file's size is the one to show.
        return Err(PlanError::SourceTooLarge {
            name: file.display().to_string(),
            kib: meta.len().max(source.len() as u64).div_ceil(1024),
            limit_kib,
        }
        .into());
    }
    Ok(source)
}

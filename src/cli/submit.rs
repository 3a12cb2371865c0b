//! `grundy submit PROBLEM FILE`: judge locally and record in the database.
//!
//! Everything that can be wrong with the request (unknown problem or
//! language, an unreadable, empty or oversized file, a missing toolchain,
//! test data that cannot be produced) is found before anything is stored.
//! Once stored, the submission always ends with a verdict: a judge failure
//! is recorded as `IE` (and exits 2), never blamed on the submission.

use std::io::{IsTerminal, Read, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};

use super::report::{self, JsonReport};
use crate::context::Context;
use crate::judge::{Event, Plan, PlanError, Report, Request};
use crate::store::{ClaimAs, Lease, NewSubmission, Queue, Status, Store};
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
    // The request is good. The sandbox's probe run mostly waits for the
    // kernel, and the compiler for nothing the store does: both go on
    // while the submission is stored and claimed.
    ctx.select_sandbox_ahead();
    let ahead = ctx.judge().compile_ahead(&plan);
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
    // lease renewed as tests finish (once a third of it has passed, as a
    // worker's timer does), each test recorded as it finishes. A
    // server sharing the database may claim it first: then its verdict is
    // waited for and told the same way.
    let id = rt.block_on(store.enqueue(NewSubmission {
        problem: slug,
        language: &language.id,
        source: plan.source(),
        user_id: None,
    }))?;
    let worker = crate::worker::process_name();
    let own = ClaimAs {
        worker: &worker,
        only: Some(id),
        ..ClaimAs::default()
    };
    let lease = match rt.block_on(claim_or_wait(&store, id, &own, json))? {
        Mine::Claimed(lease) => lease,
        Mine::JudgedElsewhere(report) => {
            rt.block_on(store.close());
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            if json {
                report::print_json(
                    &mut out,
                    &JsonReport::new(id, slug, &language.id, Some(&report)),
                )?;
            } else {
                writeln!(out, "submission {id}: {slug} in {}", language.config.name)?;
                report::table(&mut out, &report)?;
                report::summary(&mut out, id, &report)?;
            }
            return Ok(report::exit_code(&report));
        }
    };

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if !json {
        writeln!(out, "submission {id}: {slug} in {}", language.config.name)?;
    }
    // The judge runs on a thread of its own; this one records each test
    // as it finishes (and prints its row), in order, while the next test
    // runs: a statement's round trip a test off the judging's path.
    let (told, mut tell) = tokio::sync::mpsc::unbounded_channel::<Told>();
    let judge = ctx.judge();
    let span = tracing::info_span!("submission", id);
    let (judged, store_error, write_error) = std::thread::scope(|scope| {
        let plan = &plan;
        // The sender goes with the judge: its end ends the loop below.
        let judging = std::thread::Builder::new()
            .name("judge".into())
            .spawn_scoped(scope, move || {
                let _entered = span.enter();
                judge.judge_ahead(plan, ahead, &mut |event| {
                    // The receiver is gone only once this thread is
                    // joined.
                    let _ = told.send(Told::from(event));
                })
            })
            .context("starting the judge's thread")?;
        let mut write_error = None;
        let mut store_error = None;
        // Claimed just now: renewed once a third of the lease has passed,
        // not at every test (a statement a test less).
        let mut renewed = Instant::now();
        rt.block_on(async {
            while let Some(event) = tell.recv().await {
                if let Told::TestDone(index, report) = &event {
                    let renew = renewed.elapsed() >= LOCAL_LEASE / 3;
                    let recorded = async {
                        if renew {
                            store.renew(lease, LOCAL_LEASE).await?;
                        }
                        store.record_test(lease, *index, report).await
                    }
                    .await;
                    if renew && recorded.is_ok() {
                        renewed = Instant::now();
                    }
                    if let Err(e) = recorded {
                        store_error.get_or_insert(e);
                    }
                }
                if json {
                    continue;
                }
                let r = match event {
                    Told::Compiling if std::io::stderr().is_terminal() => {
                        eprintln!("compiling...");
                        Ok(())
                    }
                    Told::Compiled => report::table_header(&mut out),
                    Told::TestDone(index, report) => report::table_row(&mut out, index, &report),
                    Told::Compiling => Ok(()),
                };
                if let Err(e) = r {
                    write_error.get_or_insert(e);
                }
            }
        });
        let judged = judging
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        // Nothing more runs: the boxes kept for a next test go now, and
        // the kernel tears them down while the verdict is recorded and
        // printed rather than after.
        ctx.runner().wind_down();
        anyhow::Ok((judged, store_error, write_error))
    })?;
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

/// A judging's [`Event`], owned, on its way from the judge's thread.
enum Told {
    Compiling,
    Compiled,
    TestDone(usize, crate::judge::TestReport),
}

impl From<Event<'_>> for Told {
    fn from(event: Event<'_>) -> Told {
        match event {
            Event::Compiling => Told::Compiling,
            Event::Compiled { .. } => Told::Compiled,
            Event::TestDone { index, report, .. } => Told::TestDone(index, report.clone()),
        }
    }
}

/// How long a local claim lasts without a renewal (a compilation, slow
/// tests: it is renewed at a test's end once a third of it has passed):
/// long enough that a hosted judge sharing the database does not take it
/// over from a live `grundy submit`.
const LOCAL_LEASE: Duration = Duration::from_secs(300);

/// Who judges a local submission.
enum Mine {
    /// This process, under this lease.
    Claimed(Lease),
    /// Another judge on the same database (a server's worker), which
    /// gave it this verdict.
    JudgedElsewhere(Report),
}

/// How often a submission judged elsewhere is looked at, and for how long
/// at most: a judge that stops judging it lets its lease expire (a
/// server's lasts seconds) and it is claimed here, so this bound is only
/// met by a judging that never ends.
const WAIT_POLL: Duration = Duration::from_millis(200);
const WAIT_ELSEWHERE: Duration = Duration::from_secs(3600);

/// Claims submission `id` for judging here, or, while another judge holds
/// it (a server sharing the database claimed it first), waits for that
/// judge's verdict; a submission it gives up on (its lease expired, or
/// given back) is claimed here after all.
async fn claim_or_wait(
    store: &Store,
    id: i64,
    own: &ClaimAs<'_>,
    json: bool,
) -> anyhow::Result<Mine> {
    let deadline = Instant::now() + WAIT_ELSEWHERE;
    let mut told = false;
    loop {
        if let Some(claim) = store.claim(LOCAL_LEASE, own).await? {
            return Ok(Mine::Claimed(claim.lease));
        }
        let sub = store
            .get_status(id)
            .await?
            .with_context(|| format!("submission {id} vanished from the database"))?;
        if let (Status::Done, Some(report)) = (sub.status, sub.report) {
            return Ok(Mine::JudgedElsewhere(report));
        }
        if !told && !json {
            eprintln!("submission {id} is being judged by another judge on this database; waiting for its verdict");
            told = true;
        }
        if Instant::now() >= deadline {
            bail!("submission {id}: another judge on this database has held it for {} s without a verdict; see `grundy status {id}` later", WAIT_ELSEWHERE.as_secs());
        }
        tokio::time::sleep(WAIT_POLL).await;
    }
}

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

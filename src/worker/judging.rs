//! One judge worker: each loops over one testable step, [`try_judge_next`],
//! which claims a submission from the [`Queue`] with a lease, judges it on
//! a blocking thread (the sandbox waits on processes) with the tracing
//! span carried along, renews the lease while it runs, records each test
//! as it finishes and then the verdict. A worker whose lease was lost (it
//! expired and another worker claimed the submission again) finds its
//! writes refused: its result is discarded, never written over the newer
//! attempt's.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{watch, Notify};
use tracing::Instrument as _;

use super::packages::{self, PackageError};
use super::{Busy, WorkerEnv, LIVE};
use crate::judge::{fair, Event, Judge, Plan, Request, Scaling, TestReport};
use crate::store::{self, Failed, FairTiming, Queue, Timed};

/// What one step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkOutcome {
    /// Judged and recorded.
    Judged(i64),
    /// Judged within the margin of its limit: back in the queue for its
    /// one re-run (on another worker where there is one).
    Deferred(i64),
    /// The judge failed; requeued for another try or, after the last, `IE`.
    Failed(i64),
    /// Judged, but the lease was lost meanwhile: the result was discarded.
    Discarded(i64),
    /// Given back unjudged: this machine refused the problem's package.
    Refused(i64),
    QueueEmpty,
}

/// Claims the next submission this worker can judge, if any, and judges
/// it to the end: a close call waiting for its re-run first (see
/// [`crate::store::timing`]), else the queue's next.
///
/// # Errors
/// Database failures (the claim, if any, then expires and is retried).
pub async fn try_judge_next<Q: Queue + FairTiming>(
    queue: &Q,
    env: &WorkerEnv,
) -> Result<WorkOutcome, store::Error> {
    let refused: Vec<String> = env
        .refused
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .iter()
        .cloned()
        .collect();
    let mine = env.languages.get();
    let by = store::ClaimAs {
        worker: &env.timing.name,
        languages: mine.as_deref(),
        refused: &refused,
        alive: LIVE,
        only: None,
    };
    let Some(claim) = queue.claim(env.lease, &by).await? else {
        return Ok(WorkOutcome::QueueEmpty);
    };
    let rerun = claim.rerun;
    let lease = claim.lease;
    let span = tracing::info_span!("submission", id = lease.id, attempt = lease.attempt, problem = %claim.submission.problem, rerun);
    judge_claim(queue, env, claim).instrument(span).await
}

/// This worker's scaling now: its factor against the live workers (or
/// the configured reference), and the grace past the limit that makes a
/// close TLE's time known.
async fn scaling<Q: FairTiming>(queue: &Q, env: &WorkerEnv) -> Result<Scaling, store::Error> {
    let timing = &env.ctx.config.timing;
    let factor = match env.timing.calibration() {
        Some(mine) if timing.fair => {
            let live: Vec<f64> = queue
                .live_speeds(LIVE)
                .await?
                .iter()
                .map(|s| s.median_ms as f64)
                .collect();
            let reference = Some(timing.reference_ms).filter(|r| *r > 0.0);
            fair::speed_factor(mine.median_ms as f64, &live, reference, timing.spread)
        }
        _ => 1.0,
    };
    Ok(Scaling {
        factor,
        grace: timing.rerun_margin,
    })
}

async fn judge_claim<Q: Queue + FairTiming>(
    queue: &Q,
    env: &WorkerEnv,
    claim: store::Claim,
) -> Result<WorkOutcome, store::Error> {
    let lease = claim.lease;
    let rerun = claim.rerun;
    let id = lease.id;
    let _held = Held::new(&env.busy, id);
    env.changed(id);
    let scaling = match scaling(queue, env).await {
        Ok(s) => s,
        Err(e) => {
            // Judged as if alone: the factor is only as good as the
            // database's answer.
            tracing::warn!(error = %crate::errors::chain(&e), "reading the workers' speeds failed; factor 1");
            Scaling {
                factor: 1.0,
                grace: env.ctx.config.timing.rerun_margin,
            }
        }
    };
    let sub = claim.submission;
    let problem = sub.problem.clone();
    // The published version of the problem, where there is one; else the
    // problems directory (one machine, or a shared disk).
    let fetched = match packages::fetch(queue, &env.ctx, &problem).await {
        Ok(fetched) => fetched,
        Err(PackageError::Store(e)) => return Err(e),
        Err(e) => {
            let reason = format!("fetching the package: {}", crate::errors::chain(&e));
            return refuse(queue, env, lease, &problem, "", &reason).await;
        }
    };
    let hash = fetched.as_ref().map(|f| f.hash.clone()).unwrap_or_default();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(usize, TestReport)>();
    let ctx = env.ctx.clone();
    let verified = env.verified.clone();
    let mine = env.languages.get();
    let span = tracing::Span::current();
    let mut job = tokio::task::spawn_blocking(move || {
        span.in_scope(|| {
            let request = Request {
                problem: &sub.problem,
                language: Some(&sub.language),
                file_name: "source",
                source: sub.source,
            };
            let catalog = fetched.as_ref().map_or(&ctx.catalog, |f| &f.catalog);
            let plan = Plan::build(
                request,
                catalog,
                &ctx.test_data(),
                ctx.config.limits.source_limit,
            )
            .map_err(|e| Stop::Failed(format!("preparing: {}", crate::errors::chain(&e))))?;
            if let Some(f) = &fetched {
                check_package(&plan, f, &verified)?;
            }
            if let Some(why) = lacks(plan.problem(), &ctx.languages, mine.as_deref()) {
                return Err(Stop::Refused(why));
            }
            let judge = Judge {
                scaling,
                ..ctx.judge()
            };
            let limit = judge.time_limit(plan.problem(), plan.language().config.time_factor);
            judge
                .judge(&plan, &mut |event| {
                    if let Event::TestDone { index, report, .. } = event {
                        // The receiver is gone only once the step gave up
                        // on this run; the test is then of no use.
                        let _ = tx.send((index, report.clone()));
                    }
                })
                .map(|report| (report, u64::try_from(limit.as_millis()).unwrap_or(u64::MAX)))
                .map_err(|e| Stop::Failed(format!("judging: {}", crate::errors::chain(&e))))
        })
    });
    let period = (env.lease / 3).max(Duration::from_millis(100));
    let mut renew = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    let mut lost = false;
    // The judge runs on its own thread until it is done, whatever the
    // database does meanwhile: a failed write of a test or of a renewal
    // is logged and the wait goes on (the final result carries every
    // test), so this worker never leaves a judge running behind it while
    // it claims the next submission.
    let judged = loop {
        tokio::select! {
            done = &mut job => break done,
            Some((index, test)) = rx.recv() => {
                if !lost {
                    match queue.record_test(lease, index, &test).await {
                        Ok(held) => lost = !held,
                        Err(e) => tracing::warn!(
                            error = %crate::errors::chain(&e),
                            "recording a test's result failed; the final result carries it"
                        ),
                    }
                }
                env.changed(id);
            }
            _ = renew.tick() => {
                if !lost {
                    match queue.renew(lease, env.lease).await {
                        Ok(held) => lost = !held,
                        Err(e) => tracing::warn!(
                            error = %crate::errors::chain(&e),
                            "renewing the lease failed; trying again at the next tick"
                        ),
                    }
                }
            }
        }
    };
    if lost {
        tracing::warn!("another worker holds the submission now; the result will be discarded");
    }
    let outcome = match judged {
        Ok(Ok((report, limit_ms))) => {
            let timed = Timed {
                worker: &env.timing.name,
                factor: scaling.factor,
                limit_ms,
            };
            let margin = env.ctx.config.timing.rerun_margin;
            let close = fair::close_call(&report, limit_ms, margin).filter(|_| !rerun && !lost);
            if let Some(close) = close {
                tracing::info!(verdict = %report.verdict, time_ms = report.time_ms, limit_ms, ?close, "within the margin of the limit: judging once more");
                let deferred =
                    persist(|| queue.defer_rerun(lease, timed, &report, RERUN_WAIT)).await?;
                env.changed(id);
                return Ok(if deferred {
                    WorkOutcome::Deferred(id)
                } else {
                    WorkOutcome::Discarded(id)
                });
            }
            // A result is only thrown away when another attempt holds the
            // submission (a late renewal alone loses nothing: `finish`
            // checks the attempt, not the clock).
            if persist(|| queue.finish(lease, &report, Some(timed))).await? {
                tracing::info!(verdict = %report.verdict, "judged");
                WorkOutcome::Judged(id)
            } else {
                tracing::warn!("lease lost: result discarded");
                WorkOutcome::Discarded(id)
            }
        }
        Ok(Err(Stop::Failed(reason))) => fail(queue, lease, &reason).await?,
        Ok(Err(Stop::Refused(reason))) => {
            refuse(queue, env, lease, &problem, &hash, &reason).await?
        }
        Err(e) => fail(queue, lease, &format!("the judge panicked: {e}")).await?,
    };
    env.changed(id);
    Ok(outcome)
}

/// Why a judging stopped short of a result.
enum Stop {
    /// The judge failed (retried, then `IE`).
    Failed(String),
    /// This machine's build of the published package does not match the
    /// publisher's: it judges none of that problem.
    Refused(String),
}

/// Why this machine cannot judge `problem` at all, if it cannot: the
/// package's checker or interactor is a program in a language whose
/// toolchain it lacks (`mine`: the languages it has; all when `None`).
fn lacks(
    problem: &crate::problem::Problem,
    languages: &crate::lang::Languages,
    mine: Option<&[String]>,
) -> Option<String> {
    let mine = mine?;
    let checker = match &problem.manifest.checker {
        crate::checker::Checker::Program { source, .. } => Some(("checker", source)),
        crate::checker::Checker::Builtin(_) => None,
    };
    let interactor = problem
        .manifest
        .interactor
        .as_ref()
        .map(|i| ("interactor", &i.source));
    checker
        .into_iter()
        .chain(interactor)
        .find_map(|(role, source)| {
            let language = languages.for_path(source).ok()?;
            (!mine.contains(&language.id)).then(|| {
                format!(
                    "its {role} needs {}, which this machine has no toolchain for",
                    language.id
                )
            })
        })
}

/// Checks this machine's tests of a published version against the
/// publisher's hashes, once per version and process, before any of it is
/// judged.
fn check_package(
    plan: &Plan,
    fetched: &packages::Fetched,
    verified: &std::sync::Mutex<std::collections::BTreeSet<String>>,
) -> Result<(), Stop> {
    let done = |v: &std::sync::Mutex<std::collections::BTreeSet<String>>| {
        v.lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(&fetched.hash)
    };
    if done(verified) {
        return Ok(());
    }
    match packages::mismatch(&plan.shared_tests(), &fetched.tests) {
        Ok(None) => {
            verified
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(fetched.hash.clone());
            Ok(())
        }
        Ok(Some(why)) => Err(Stop::Refused(format!(
            "package {}: {why}",
            &fetched.hash[..fetched.hash.len().min(12)]
        ))),
        Err(e) => Err(Stop::Failed(format!(
            "checking the tests: {}",
            crate::errors::chain(&e)
        ))),
    }
}

/// This process refuses `problem`: recorded for the admins, never claimed
/// again here, and the submission given back untouched for another worker.
async fn refuse<Q: Queue>(
    queue: &Q,
    env: &WorkerEnv,
    lease: store::Lease,
    problem: &str,
    hash: &str,
    reason: &str,
) -> Result<WorkOutcome, store::Error> {
    tracing::error!(
        problem,
        reason,
        "refusing the problem: this machine cannot judge it as published"
    );
    env.refused
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(problem.to_string());
    // Under the name it claims with, so that a re-run of the problem is
    // not kept waiting for this process.
    let worker = &env.timing.name;
    persist(|| queue.refuse_package(worker, problem, hash, reason)).await?;
    persist(|| queue.release(lease)).await?;
    Ok(WorkOutcome::Refused(lease.id))
}

/// Runs a database write up to [`WRITE_TRIES`] times while it fails (a
/// database busy under load), pausing between tries; the last error
/// otherwise.
async fn persist<T, F, Fut>(mut write: F) -> Result<T, store::Error>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, store::Error>>,
{
    let mut tries = 0;
    loop {
        tries += 1;
        match write().await {
            Err(e) if tries < WRITE_TRIES => {
                tracing::warn!(error = %crate::errors::chain(&e), "a database write failed; trying again");
                tokio::time::sleep(Duration::from_millis(100 << tries)).await;
            }
            other => return other,
        }
    }
}

/// How many times a worker tries to store a finished result.
const WRITE_TRIES: u32 = 5;

/// A submission in this process's hands while it lives.
struct Held<'a> {
    busy: &'a Busy,
    id: i64,
}

impl<'a> Held<'a> {
    fn new(busy: &'a Busy, id: i64) -> Held<'a> {
        busy.lock().unwrap_or_else(|p| p.into_inner()).insert(id);
        Held { busy, id }
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        self.busy
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&self.id);
    }
}

async fn fail<Q: Queue>(
    queue: &Q,
    lease: store::Lease,
    reason: &str,
) -> Result<WorkOutcome, store::Error> {
    tracing::error!(reason, "judge failed");
    // The pause before a retry grows with each try.
    let retry_after = RETRY_PAUSE * u32::try_from(lease.attempt.clamp(1, 10)).unwrap_or(1);
    Ok(
        match persist(|| queue.fail(lease, reason, retry_after)).await? {
            Failed::LeaseLost => WorkOutcome::Discarded(lease.id),
            Failed::Requeued | Failed::GaveUp | Failed::FirstStands => {
                WorkOutcome::Failed(lease.id)
            }
        },
    )
}

/// How long a close call waits for a worker that may re-run it (another
/// one that can, while one lives) before its first judging stands.
const RERUN_WAIT: Duration = Duration::from_secs(300);

/// The pause before a failed submission is tried again, times its attempt.
const RETRY_PAUSE: Duration = Duration::from_secs(1);

/// How often an idle worker looks at the queue without being woken (for
/// expired leases, and submissions stored by another process): often on
/// SQLite, which cannot tell other processes' workers of new work; seldom
/// on PostgreSQL, which does (LISTEN/NOTIFY), where the look is only for
/// leases that expired and retries whose pause ended.
const IDLE_POLL: Duration = Duration::from_millis(500);
const IDLE_POLL_NOTIFIED: Duration = Duration::from_secs(5);

/// Runs one worker until `stop` turns true; the submission in hand when it
/// does is judged to the end first.
pub async fn run<Q: Queue + FairTiming>(
    queue: Q,
    env: WorkerEnv,
    wake: Arc<Notify>,
    notified_by_db: bool,
    mut stop: watch::Receiver<bool>,
) {
    let poll = if notified_by_db {
        IDLE_POLL_NOTIFIED
    } else {
        IDLE_POLL
    };
    loop {
        if *stop.borrow() {
            break;
        }
        // Listening from before the look at the queue: work that arrives
        // between an empty look and the wait still wakes this worker.
        let woken = wake.notified();
        tokio::pin!(woken);
        woken.as_mut().enable();
        // A slot of this process, held while it claims and judges: a
        // calibration waits for it, and holds the next claim back.
        let slot = env.timing.slot().await;
        let step = try_judge_next(&queue, &env).await;
        drop(slot);
        let idle = match step {
            Ok(WorkOutcome::QueueEmpty) => true,
            Ok(_) => false,
            Err(e) => {
                tracing::error!(error = %crate::errors::chain(&e), "worker step failed");
                true
            }
        };
        if idle {
            tokio::select! {
                _ = woken => {}
                _ = tokio::time::sleep(poll) => {}
                _ = stop.wait_for(|s| *s) => {}
            }
        }
    }
}

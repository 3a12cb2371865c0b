//! Judge workers: each loops over one testable step, [`try_judge_next`],
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

use crate::judge::{Event, Plan, Request, TestReport};
use crate::store::{self, Failed, Queue};

/// What one step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkOutcome {
    /// Judged and recorded.
    Judged(i64),
    /// The judge failed; requeued for another try or, after the last, `IE`.
    Failed(i64),
    /// Judged, but the lease was lost meanwhile: the result was discarded.
    Discarded(i64),
    QueueEmpty,
}

pub use crate::site::WorkerEnv;

/// Claims the next submission, if any, and judges it to the end.
///
/// # Errors
/// Database failures (the claim, if any, then expires and is retried).
pub async fn try_judge_next<Q: Queue>(
    queue: &Q,
    env: &WorkerEnv,
) -> Result<WorkOutcome, store::Error> {
    let Some(claim) = queue
        .claim_next_of(env.lease, env.languages.as_deref())
        .await?
    else {
        return Ok(WorkOutcome::QueueEmpty);
    };
    let lease = claim.lease;
    let span = tracing::info_span!("submission", id = lease.id, attempt = lease.attempt, problem = %claim.submission.problem);
    judge_claim(queue, env, claim).instrument(span).await
}

async fn judge_claim<Q: Queue>(
    queue: &Q,
    env: &WorkerEnv,
    claim: store::Claim,
) -> Result<WorkOutcome, store::Error> {
    let lease = claim.lease;
    let id = lease.id;
    let _held = Held::new(&env.busy, id);
    env.changed(id);
    let sub = claim.submission;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(usize, TestReport)>();
    let ctx = env.ctx.clone();
    let span = tracing::Span::current();
    let mut job = tokio::task::spawn_blocking(move || {
        span.in_scope(|| {
            let request = Request {
                problem: &sub.problem,
                language: Some(&sub.language),
                file_name: "source",
                source: sub.source,
            };
            let plan = Plan::build(
                request,
                &ctx.catalog,
                &ctx.test_data(),
                ctx.config.limits.source_limit,
            )
            .map_err(|e| format!("preparing: {}", crate::errors::chain(&e)))?;
            ctx.judge()
                .judge(&plan, &mut |event| {
                    if let Event::TestDone { index, report, .. } = event {
                        // The receiver is gone only once the step gave up
                        // on this run; the test is then of no use.
                        let _ = tx.send((index, report.clone()));
                    }
                })
                .map_err(|e| format!("judging: {}", crate::errors::chain(&e)))
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
        Ok(Ok(report)) => {
            // A result is only thrown away when another attempt holds the
            // submission (a late renewal alone loses nothing: `finish`
            // checks the attempt, not the clock).
            if persist(|| queue.finish(lease, &report)).await? {
                tracing::info!(verdict = %report.verdict, "judged");
                WorkOutcome::Judged(id)
            } else {
                tracing::warn!("lease lost: result discarded");
                WorkOutcome::Discarded(id)
            }
        }
        Ok(Err(reason)) => fail(queue, lease, &reason).await?,
        Err(e) => fail(queue, lease, &format!("the judge panicked: {e}")).await?,
    };
    env.changed(id);
    Ok(outcome)
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
    busy: &'a crate::site::state::Busy,
    id: i64,
}

impl<'a> Held<'a> {
    fn new(busy: &'a crate::site::state::Busy, id: i64) -> Held<'a> {
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
            Failed::Requeued | Failed::GaveUp => WorkOutcome::Failed(lease.id),
        },
    )
}

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
pub async fn run<Q: Queue>(
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
        let idle = match try_judge_next(&queue, &env).await {
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

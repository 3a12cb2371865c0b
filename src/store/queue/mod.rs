//! The judging queue: the submissions table itself, so a crash loses
//! nothing. A worker claims a submission atomically and receives a
//! [`Lease`]: the submission's id, its attempt number (bumped by every
//! claim, never reset) and an expiry it renews while judging. Every write
//! a worker makes names its lease and is applied only while that lease is
//! the current attempt of a submission still `judging`, so a worker whose
//! lease expired (and whose submission another worker claimed again)
//! cannot overwrite the newer attempt's result: its writes affect no row,
//! and it is told so. A submission abandoned on its third try ends `IE`
//! with the reason, never loops.
//!
//! # One claim
//! [`Queue::claim`] is the only way a submission is taken, whoever takes
//! it: a worker's first judging, the re-run of a close call (fair timing,
//! docs/timing.md), a local `grundy submit` judging its own submission. It
//! honours the claimer's languages and the packages it refused for all of
//! them, so a re-run waits for a worker that can run it. In the same
//! transaction it settles what can no longer be claimed: a submission
//! abandoned on every try ends `IE`; a close call whose re-run no worker
//! took before its deadline, or whose re-run failed on every try, gets its
//! first judging back, recorded as standing (`result.rs`).
//!
//! # Files
//! - `mod.rs`: the interface ([`Queue`]) and its types;
//! - `claim.rs`: the claim, and the leases (renew, release, requeue);
//! - `result.rs`: writing results: each test as it finishes, a verdict
//!   with its timing record in one transaction, a close call put back for
//!   its re-run, a failed attempt;
//! - `rejudge.rs`: a judged submission back in the queue, its result kept
//!   in the history;
//! - `listen.rs`: waking idle workers when there is work (PostgreSQL).
//!
//! [`Store`] implements [`Queue`] on SQLite and on PostgreSQL. Every SQLite
//! transaction here begins with a write, so it takes the write lock at once
//! and waits for it under the busy timeout (a deferred transaction that
//! reads first cannot upgrade under contention and fails with "database is
//! locked"). On PostgreSQL many workers claim at once: the row to claim is
//! picked `FOR UPDATE SKIP LOCKED`, so each takes a different one without
//! waiting for the others.

use std::future::Future;
use std::time::Duration;

pub use self::rejudge::Rejudged;
use super::timing::Timed;
use super::{Error, NewSubmission, Store, Submission};
use crate::judge::{Report, TestReport};

mod claim;
pub mod listen;
mod rejudge;
pub(super) mod result;

/// Claims a submission may make before it ends `IE`.
pub const MAX_TRIES: i64 = 3;

/// One claim of one submission: valid while `attempt` is the submission's
/// current attempt and its lease has not expired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lease {
    pub id: i64,
    pub attempt: i64,
}

/// A claimed submission and the lease to name in every write about it.
#[derive(Debug, Clone)]
pub struct Claim {
    pub lease: Lease,
    pub submission: Submission,
    /// The re-run of a close call: its first judging is kept, and this
    /// judging's verdict replaces it (it is not re-run again).
    pub rerun: bool,
}

/// Who claims, and what. A claimer never takes a submission in a language
/// it cannot compile, nor of a problem whose package it refused, be it a
/// first judging or a re-run.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClaimAs<'a> {
    /// The worker process (`host:pid`), recorded with each claim; the
    /// worker a re-run is kept from is named so too.
    pub worker: &'a str,
    /// The languages it has (all when `None`).
    pub languages: Option<&'a [String]>,
    /// The problems it refused.
    pub refused: &'a [String],
    /// A worker process heard from within this long is alive. A close
    /// call's re-run is kept from the worker that judged it first while
    /// another live worker could run it (one with its language, or that
    /// did not announce its languages, and that did not refuse its
    /// problem); with none, that worker re-runs it itself.
    pub alive: Duration,
    /// Only this submission's first judging (a local `grundy submit`
    /// judging its own; a re-run is left to the workers, which scale their
    /// limits fairly); any submission when `None`.
    pub only: Option<i64>,
}

/// What became of a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failed {
    /// Back in the queue for another try.
    Requeued,
    /// That was the last try: the submission ended `IE` with the reason.
    GaveUp,
    /// That was a re-run's last try: the first judging stands, recorded
    /// as such.
    FirstStands,
    /// The lease was no longer current; nothing was written.
    LeaseLost,
}

/// The judging queue, whatever the database.
pub trait Queue: Send + Sync {
    /// Stores a submission as `queued`; returns its id.
    fn enqueue(&self, new: NewSubmission<'_>) -> impl Future<Output = Result<i64, Error>> + Send;

    /// Claims for `lease` the next submission `by` may judge: close calls
    /// waiting for their re-run first, then live submissions before
    /// rejudges, oldest first; a `queued` one or one whose lease expired.
    /// First settles, in the same transaction, what can no longer be
    /// claimed (see the module's documentation).
    fn claim(
        &self,
        lease: Duration,
        by: &ClaimAs<'_>,
    ) -> impl Future<Output = Result<Option<Claim>, Error>> + Send;

    /// The published version of a problem, if any.
    fn published(
        &self,
        slug: &str,
    ) -> impl Future<Output = Result<Option<super::Published>, Error>> + Send;

    /// A published package's blob.
    fn package_blob(
        &self,
        hash: &str,
    ) -> impl Future<Output = Result<Option<Vec<u8>>, Error>> + Send;

    /// A published test file by its SHA-256.
    fn test_file(
        &self,
        sha256: &str,
    ) -> impl Future<Output = Result<Option<Vec<u8>>, Error>> + Send;

    /// Records that `worker` refused version `hash` of `problem`.
    fn refuse_package(
        &self,
        worker: &str,
        problem: &str,
        hash: &str,
        reason: &str,
    ) -> impl Future<Output = Result<(), Error>> + Send;

    /// Extends a lease; false when it is no longer current.
    fn renew(&self, lease: Lease, by: Duration)
        -> impl Future<Output = Result<bool, Error>> + Send;

    /// Records one test's result as it finishes; false (nothing written)
    /// when the lease is no longer current.
    fn record_test(
        &self,
        lease: Lease,
        position: usize,
        test: &TestReport,
    ) -> impl Future<Output = Result<bool, Error>> + Send;

    /// Records the verdict, the final test results and the timing record
    /// (who judged it and how its limit was scaled: `None` for a local
    /// `grundy submit`, whose limits are not scaled) in one transaction;
    /// false (nothing written) when the lease is no longer current. A
    /// re-run's result keeps the first judging beside it; a first
    /// judging's forgets any earlier round's.
    fn finish(
        &self,
        lease: Lease,
        report: &Report,
        timed: Option<Timed<'_>>,
    ) -> impl Future<Output = Result<bool, Error>> + Send;

    /// Puts a close call back in the queue for its one re-run, keeping its
    /// first judging whole (it stands if no worker that can run the re-run
    /// takes it within `wait`, or if the re-run fails on every try); false
    /// (nothing written) when the lease is not current.
    fn defer_rerun(
        &self,
        lease: Lease,
        timed: Timed<'_>,
        report: &Report,
        wait: Duration,
    ) -> impl Future<Output = Result<bool, Error>> + Send;

    /// The judge itself failed on this attempt: requeue for another try,
    /// claimable again after `retry_after` (a sandbox that failed under
    /// load often works a moment later); after the last, end `IE` with
    /// `reason`, or, for a re-run, let the first judging stand.
    fn fail(
        &self,
        lease: Lease,
        reason: &str,
        retry_after: Duration,
    ) -> impl Future<Output = Result<Failed, Error>> + Send;

    /// Gives a claim back untouched (a worker shutting down); the try is
    /// not counted. False when the lease is no longer current.
    fn release(&self, lease: Lease) -> impl Future<Output = Result<bool, Error>> + Send;

    /// Puts back in the queue every submission whose lease expired (at
    /// start; claims take such rows anyway). Live leases are left alone:
    /// they may be another worker's.
    fn requeue_expired(&self) -> impl Future<Output = Result<u64, Error>> + Send;

    /// Queues a judged submission again behind live ones, keeping its
    /// result in the history; false when it is not `done`, and
    /// [`Error::Refused`] when its contest's results are final.
    fn rejudge(&self, id: i64) -> impl Future<Output = Result<bool, Error>> + Send;

    /// [`Queue::rejudge`] for every judged submission of a problem but
    /// those of contests whose results are final; says how many of each.
    fn rejudge_problem(
        &self,
        problem: &str,
    ) -> impl Future<Output = Result<Rejudged, Error>> + Send;
}

/// A duration as the whole milliseconds the queue's SQL adds to `{now_ms}`.
pub(super) fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX / 2)
}

impl Queue for Store {
    async fn enqueue(&self, new: NewSubmission<'_>) -> Result<i64, Error> {
        self.insert_submission(new).await
    }

    async fn claim(&self, lease: Duration, by: &ClaimAs<'_>) -> Result<Option<Claim>, Error> {
        self.claim_for(lease, by).await
    }

    async fn published(&self, slug: &str) -> Result<Option<super::Published>, Error> {
        Store::published(self, slug).await
    }

    async fn package_blob(&self, hash: &str) -> Result<Option<Vec<u8>>, Error> {
        Store::package_blob(self, hash).await
    }

    async fn test_file(&self, sha256: &str) -> Result<Option<Vec<u8>>, Error> {
        Store::test_file(self, sha256).await
    }

    async fn refuse_package(
        &self,
        worker: &str,
        problem: &str,
        hash: &str,
        reason: &str,
    ) -> Result<(), Error> {
        Store::refuse_package(self, worker, problem, hash, reason).await
    }

    async fn renew(&self, lease: Lease, by: Duration) -> Result<bool, Error> {
        self.renew_lease(lease, by).await
    }

    async fn record_test(
        &self,
        lease: Lease,
        position: usize,
        test: &TestReport,
    ) -> Result<bool, Error> {
        self.write_test(lease, position, test).await
    }

    async fn finish(
        &self,
        lease: Lease,
        report: &Report,
        timed: Option<Timed<'_>>,
    ) -> Result<bool, Error> {
        self.finish_judged(lease, report, timed).await
    }

    async fn defer_rerun(
        &self,
        lease: Lease,
        timed: Timed<'_>,
        report: &Report,
        wait: Duration,
    ) -> Result<bool, Error> {
        self.defer_close_call(lease, timed, report, wait).await
    }

    async fn fail(
        &self,
        lease: Lease,
        reason: &str,
        retry_after: Duration,
    ) -> Result<Failed, Error> {
        self.fail_attempt(lease, reason, retry_after).await
    }

    async fn release(&self, lease: Lease) -> Result<bool, Error> {
        self.release_lease(lease).await
    }

    async fn requeue_expired(&self) -> Result<u64, Error> {
        self.requeue_expired_leases().await
    }

    async fn rejudge(&self, id: i64) -> Result<bool, Error> {
        Ok(self.rejudge_where(Some(id), None).await?.queued == 1)
    }

    async fn rejudge_problem(&self, problem: &str) -> Result<Rejudged, Error> {
        self.rejudge_where(None, Some(problem)).await
    }
}

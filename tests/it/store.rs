//! The store's queries, each against a fresh database.

use std::time::Duration;

use grundy::judge::{Report, TestReport};
use grundy::store::{Failed, ListFilter, NewSubmission, Queue, Revoked, Status, Store};
use grundy::verdict::Verdict;
use sqlx::SqlitePool;

use crate::helpers::{claim_any, claim_own};

const LEASE: Duration = Duration::from_secs(60);
/// A lease that has expired by the time anyone looks at it.
const EXPIRED: Duration = Duration::ZERO;

fn new(problem: &str) -> NewSubmission<'_> {
    NewSubmission {
        problem,
        language: "cpp",
        source: b"int main() {}",
        user_id: None,
    }
}

pub fn test(name: &str, verdict: Verdict) -> TestReport {
    TestReport {
        name: name.into(),
        group: grundy::problem::Group::sample(),
        verdict,
        time_ms: 12,
        wall_ms: 14,
        memory_kib: 3412,
        exit_code: Some(0),
        signal: None,
        message: String::new(),
        score: None,
        transcript: None,
    }
}

pub fn report(verdict: Verdict) -> Report {
    Report {
        verdict,
        score: if verdict == Verdict::AC { 100 } else { 0 },
        time_ms: 12,
        memory_kib: 3412,
        compile_output: String::new(),
        tests: vec![test("01", verdict)],
        groups: Vec::new(),
    }
}

/// Each test below on a fresh SQLite file and on a fresh PostgreSQL
/// database (skipped where PostgreSQL is not installed).
macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[test]
                fn $name() {
                    let dir = tempfile::tempdir().unwrap();
                    let url = format!("sqlite://{}", dir.path().join("grundy.db").display());
                    super::run(&url, super::$name);
                }
            )*
        }
        mod postgres {
            $(
                #[test]
                fn $name() {
                    let Some(url) = crate::pg::database() else { return };
                    super::run(&url, super::$name);
                }
            )*
        }
    };
}

/// Runs one test against the database at `url`.
fn run<F: std::future::Future<Output = ()>>(url: &str, test: impl FnOnce(Store) -> F) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let store = Store::open(url).await.unwrap();
        test(store.clone()).await;
        store.close().await;
    });
}

async fn inserted_submission_is_queued(store: Store) {
    let id = store.enqueue(new("nim")).await.unwrap();
    let sub = store.get(id).await.unwrap().unwrap();
    assert_eq!(sub.status, Status::Queued);
    assert_eq!(sub.problem, "nim");
    assert_eq!(sub.source, b"int main() {}");
    assert!(sub.report.is_none());
    assert!(sub.user.is_none());
}

async fn claim_next_takes_the_oldest_once_with_attempt_one(store: Store) {
    let a = store.enqueue(new("nim")).await.unwrap();
    let b = store.enqueue(new("nim")).await.unwrap();
    let first = claim_any(&store, LEASE).await.unwrap();
    assert_eq!((first.lease.id, first.lease.attempt), (a, 1));
    assert_eq!(first.submission.status, Status::Judging);
    assert_eq!(claim_any(&store, LEASE).await.unwrap().lease.id, b);
    assert!(claim_any(&store, LEASE).await.is_none());
    assert!(
        claim_own(&store, a, LEASE).await.is_none(),
        "a claimed submission is not claimed twice"
    );
}

async fn a_specific_claim_takes_only_a_queued_submission(store: Store) {
    let id = store.enqueue(new("nim")).await.unwrap();
    let lease = claim_own(&store, id, LEASE).await.unwrap();
    assert_eq!(lease.attempt, 1);
    assert!(claim_any(&store, LEASE).await.is_none());
}

async fn finished_submission_round_trips_its_report(store: Store) {
    let id = store.enqueue(new("nim")).await.unwrap();
    let lease = claim_own(&store, id, LEASE).await.unwrap();
    let r = report(Verdict::WA);
    assert!(store.finish(lease, &r, None).await.unwrap());
    let sub = store.get(id).await.unwrap().unwrap();
    assert_eq!(sub.status, Status::Done);
    assert_eq!(sub.report.unwrap(), r);
    assert!(
        !store.finish(lease, &r, None).await.unwrap(),
        "a submission ends done once"
    );
}

async fn groups_partial_scores_and_transcripts_round_trip_and_a_rejudge_clears_them(store: Store) {
    use grundy::judge::transcript::{Said, Side, Transcript};
    use grundy::judge::GroupReport;
    use grundy::problem::Group;
    let id = store.enqueue(new("nim")).await.unwrap();
    let lease = claim_own(&store, id, LEASE).await.unwrap();
    let mut r = report(Verdict::WA);
    r.tests[0].score = Some(0.25);
    r.tests[0].transcript = Some(Transcript {
        parts: vec![
            Said {
                from: Side::Interactor,
                text: "3\n1 2 3\n".into(),
            },
            Said {
                from: Side::Submission,
                text: "second\n".into(),
            },
        ],
        truncated: true,
    });
    r.score = 7;
    r.groups = vec![
        GroupReport {
            name: Group::parse("small").unwrap(),
            points: 30,
            score: 7,
            verdict: Some(Verdict::WA),
            skipped: false,
            tests: vec!["01".into()],
        },
        GroupReport {
            name: Group::parse("large").unwrap(),
            points: 70,
            score: 0,
            verdict: None,
            skipped: true,
            tests: vec!["large-1".into(), "large-2".into()],
        },
    ];
    assert!(store.finish(lease, &r, None).await.unwrap());
    assert_eq!(store.get(id).await.unwrap().unwrap().report.unwrap(), r);

    assert!(store.rejudge(id).await.unwrap());
    let lease = claim_own(&store, id, LEASE).await.unwrap();
    let plain = report(Verdict::AC);
    assert!(store.finish(lease, &plain, None).await.unwrap());
    let again = store.get(id).await.unwrap().unwrap().report.unwrap();
    assert!(again.groups.is_empty(), "{:?}", again.groups);
    assert_eq!(again, plain);
}

async fn tests_are_visible_while_judging(store: Store) {
    let id = store.enqueue(new("nim")).await.unwrap();
    let lease = claim_own(&store, id, LEASE).await.unwrap();
    assert!(store
        .record_test(lease, 0, &test("01", Verdict::AC))
        .await
        .unwrap());
    assert!(store
        .record_test(lease, 1, &test("02", Verdict::AC))
        .await
        .unwrap());
    let sub = store.get(id).await.unwrap().unwrap();
    assert_eq!(sub.status, Status::Judging);
    let names: Vec<_> = sub.progress.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["01", "02"]);
}

async fn renewing_keeps_a_lease_and_fails_once_it_is_lost(store: Store) {
    let id = store.enqueue(new("nim")).await.unwrap();
    let old = claim_own(&store, id, EXPIRED).await.unwrap();
    let new_claim = claim_any(&store, LEASE).await.unwrap();
    assert_eq!(new_claim.lease.attempt, 2);
    assert!(!store.renew(old, LEASE).await.unwrap());
    assert!(store.renew(new_claim.lease, LEASE).await.unwrap());
}

/// The rule: a worker whose lease expired cannot overwrite the
/// newer attempt's result, neither a test nor the verdict.
async fn a_worker_whose_lease_expired_cannot_overwrite_the_newer_attempt(store: Store) {
    let id = store.enqueue(new("nim")).await.unwrap();
    let stale = claim_any(&store, EXPIRED).await.unwrap().lease;
    assert!(store
        .record_test(stale, 0, &test("stale", Verdict::WA))
        .await
        .unwrap());
    let current = claim_any(&store, LEASE).await.unwrap().lease;
    assert_eq!(current.id, id);
    assert!(
        store.get(id).await.unwrap().unwrap().progress.is_empty(),
        "the new attempt starts from scratch"
    );
    assert!(!store
        .record_test(stale, 0, &test("stale", Verdict::WA))
        .await
        .unwrap());
    assert!(store
        .finish(current, &report(Verdict::AC), None)
        .await
        .unwrap());
    assert!(!store
        .finish(stale, &report(Verdict::WA), None)
        .await
        .unwrap());
    assert_eq!(
        store.fail(stale, "late", Duration::ZERO).await.unwrap(),
        Failed::LeaseLost
    );
    assert!(!store.release(stale).await.unwrap());
    let sub = store.get(id).await.unwrap().unwrap();
    assert_eq!(sub.report.unwrap(), report(Verdict::AC));
}

async fn a_failed_attempt_is_retried_and_the_third_ends_ie_with_the_reason(store: Store) {
    let id = store.enqueue(new("nim")).await.unwrap();
    for _ in 0..2 {
        let lease = claim_any(&store, LEASE).await.unwrap().lease;
        assert_eq!(
            store
                .fail(lease, "box broke", Duration::ZERO)
                .await
                .unwrap(),
            Failed::Requeued
        );
        assert_eq!(store.get(id).await.unwrap().unwrap().status, Status::Queued);
    }
    let lease = claim_any(&store, LEASE).await.unwrap().lease;
    assert_eq!(lease.attempt, 3);
    assert_eq!(
        store
            .fail(lease, "box broke", Duration::ZERO)
            .await
            .unwrap(),
        Failed::GaveUp
    );
    let sub = store.get(id).await.unwrap().unwrap();
    assert_eq!(sub.status, Status::Done);
    assert_eq!(sub.report.unwrap().verdict, Verdict::IE);
    assert_eq!(sub.error.as_deref(), Some("box broke"));
    assert!(claim_any(&store, LEASE).await.is_none());
}

async fn a_failed_attempt_waits_its_pause_before_the_next_try(store: Store) {
    let id = store.enqueue(new("nim")).await.unwrap();
    let lease = claim_any(&store, LEASE).await.unwrap().lease;
    let pause = Duration::from_secs(3600);
    assert_eq!(
        store.fail(lease, "box broke", pause).await.unwrap(),
        Failed::Requeued
    );
    assert_eq!(store.get(id).await.unwrap().unwrap().status, Status::Queued);
    assert!(claim_any(&store, LEASE).await.is_none());
}

async fn a_lease_that_expires_on_every_try_ends_ie_instead_of_looping(store: Store) {
    let id = store.enqueue(new("nim")).await.unwrap();
    for attempt in 1..=3 {
        let claim = claim_any(&store, EXPIRED).await.unwrap();
        assert_eq!(claim.lease.attempt, attempt);
    }
    assert!(claim_any(&store, LEASE).await.is_none());
    let sub = store.get(id).await.unwrap().unwrap();
    assert_eq!(sub.status, Status::Done);
    assert_eq!(sub.report.unwrap().verdict, Verdict::IE);
    assert!(sub.error.unwrap().contains("abandoned"));
}

async fn a_released_claim_is_queued_again_without_counting_a_try(store: Store) {
    let id = store.enqueue(new("nim")).await.unwrap();
    for _ in 0..5 {
        let lease = claim_any(&store, LEASE).await.unwrap().lease;
        assert!(store.release(lease).await.unwrap());
    }
    assert_eq!(store.get(id).await.unwrap().unwrap().status, Status::Queued);
    let lease = claim_any(&store, LEASE).await.unwrap().lease;
    assert!(store
        .finish(lease, &report(Verdict::AC), None)
        .await
        .unwrap());
}

async fn only_expired_leases_are_requeued(store: Store) {
    let expired = store.enqueue(new("nim")).await.unwrap();
    let live = store.enqueue(new("nim")).await.unwrap();
    let done = store.enqueue(new("nim")).await.unwrap();
    claim_own(&store, expired, EXPIRED).await.unwrap();
    claim_own(&store, live, LEASE).await.unwrap();
    let lease = claim_own(&store, done, LEASE).await.unwrap();
    store
        .finish(lease, &report(Verdict::AC), None)
        .await
        .unwrap();
    // The judge died here; on restart:
    assert_eq!(store.requeue_expired().await.unwrap(), 1);
    let status = |id| {
        let store = store.clone();
        async move { store.get(id).await.unwrap().unwrap().status }
    };
    assert_eq!(status(expired).await, Status::Queued);
    assert_eq!(
        status(live).await,
        Status::Judging,
        "another worker's claim"
    );
    assert_eq!(status(done).await, Status::Done);
}

async fn a_rejudge_keeps_the_old_result_in_history_and_waits_behind_live_ones(store: Store) {
    let old = store.enqueue(new("nim")).await.unwrap();
    let other = store.enqueue(new("euclid-game")).await.unwrap();
    for _ in 0..2 {
        let lease = claim_any(&store, LEASE).await.unwrap().lease;
        store
            .finish(lease, &report(Verdict::WA), None)
            .await
            .unwrap();
    }
    assert!(store.rejudge(old).await.unwrap());
    assert!(!store.rejudge(old).await.unwrap(), "already queued");
    let live = store.enqueue(new("nim")).await.unwrap();
    assert_eq!(claim_any(&store, LEASE).await.unwrap().lease.id, live);
    let lease = claim_any(&store, LEASE).await.unwrap().lease;
    assert_eq!(lease.id, old);
    store
        .finish(lease, &report(Verdict::AC), None)
        .await
        .unwrap();
    let sub = store.get(old).await.unwrap().unwrap();
    assert_eq!(sub.report.unwrap().verdict, Verdict::AC);
    assert_eq!(store.history_verdicts(old).await.unwrap(), ["WA"]);
    assert!(store.history_verdicts(other).await.unwrap().is_empty());
    assert_eq!(
        store.rejudge_problem("nim").await.unwrap().queued,
        1,
        "live is judging"
    );
    assert_eq!(store.history_verdicts(old).await.unwrap(), ["WA", "AC"]);
}

async fn unknown_submission_is_none(store: Store) {
    assert!(store.get(42).await.unwrap().is_none());
}

#[sqlx::test]
async fn a_verdict_outside_the_words_is_refused_by_the_schema(pool: SqlitePool) {
    let store = Store::from_pool(pool.clone()).await.unwrap();
    let id = store.enqueue(new("nim")).await.unwrap();
    let r = sqlx::query("UPDATE submissions SET status = 'done', verdict = 'OK' WHERE id = ?")
        .bind(id)
        .execute(&pool)
        .await;
    assert!(r.is_err());
}

async fn the_rate_limit_refuses_the_eleventh_submission_of_a_minute(store: Store) {
    let ann = store.add_user("ann", "hash", false).await.unwrap();
    let bob = store.add_user("bob", "hash", false).await.unwrap();
    let by = |user_id| NewSubmission {
        user_id: Some(user_id),
        ..new("nim")
    };
    for _ in 0..10 {
        assert!(store
            .insert_submission_limited(by(ann), 10)
            .await
            .unwrap()
            .is_some());
    }
    assert!(store
        .insert_submission_limited(by(ann), 10)
        .await
        .unwrap()
        .is_none());
    assert!(store
        .insert_submission_limited(by(bob), 10)
        .await
        .unwrap()
        .is_some());
}

async fn lists_are_newest_first_filtered_and_paged(store: Store) {
    let ann = store.add_user("ann", "hash", false).await.unwrap();
    let mut ids = Vec::new();
    for problem in ["nim", "euclid-game", "nim"] {
        ids.push(
            store
                .enqueue(NewSubmission {
                    user_id: Some(ann),
                    ..new(problem)
                })
                .await
                .unwrap(),
        );
    }
    store.enqueue(new("nim")).await.unwrap();
    let filter = ListFilter {
        user: Some("ann"),
        problem: Some("nim"),
        limit: 1,
        ..ListFilter::default()
    };
    let page = store.list(&filter).await.unwrap();
    assert_eq!(page.len(), 1);
    assert_eq!(page[0].id, ids[2]);
    assert_eq!(page[0].user.as_deref(), Some("ann"));
    let next = ListFilter {
        before: Some(page[0].id),
        ..filter
    };
    assert_eq!(store.list(&next).await.unwrap()[0].id, ids[0]);
}

async fn users_are_unique_listed_and_disabled(store: Store) {
    store.add_user("bob", "h", false).await.unwrap();
    store.add_user("ann", "h", true).await.unwrap();
    let err = store.add_user("ann", "h", false).await.unwrap_err();
    assert!(err.to_string().contains("already exists"), "{err}");
    let users = store.users().await.unwrap();
    let names: Vec<_> = users
        .iter()
        .map(|u| (u.name.as_str(), u.is_admin))
        .collect();
    assert_eq!(names, [("ann", true), ("bob", false)]);
    store.set_disabled("bob", true).await.unwrap();
    assert!(store.user("bob").await.unwrap().unwrap().disabled);
    assert!(store.set_disabled("cid", true).await.is_err());
}

async fn a_token_works_until_revoked_or_its_user_is_disabled(store: Store) {
    store.add_user("ann", "h", false).await.unwrap();
    store.add_token("ann", b"hash-1", "g_aaaa").await.unwrap();
    store.add_token("ann", b"hash-2", "g_aabb").await.unwrap();
    store.add_token("ann", b"hash-3", "g_ccdd").await.unwrap();
    assert_eq!(
        store.user_for_token(b"hash-1").await.unwrap().unwrap().name,
        "ann"
    );
    assert!(store.user_for_token(b"nope").await.unwrap().is_none());
    assert!(store.revoke_token(b"hash-1").await.unwrap());
    assert!(store.user_for_token(b"hash-1").await.unwrap().is_none());
    assert_eq!(
        store.revoke_token_prefix("g_").await.unwrap(),
        Revoked::Ambiguous(2)
    );
    assert_eq!(
        store.revoke_token_prefix("g_cc").await.unwrap(),
        Revoked::One
    );
    assert_eq!(
        store.revoke_token_prefix("g_zz").await.unwrap(),
        Revoked::NoMatch
    );
    assert!(store.user_for_token(b"hash-2").await.unwrap().is_some());
    store.set_disabled("ann", true).await.unwrap();
    assert!(store.user_for_token(b"hash-2").await.unwrap().is_none());
    assert!(store.add_token("cid", b"x", "g_x").await.is_err());
}

/// Issue 44: 40 own tokens made at once for an account with 15 stop at
/// the cap of 20, on either database (counted in the insert's transaction,
/// under the account's row lock); another account is not held up or
/// counted, and a missing account is said.
async fn forty_own_tokens_made_at_once_stop_at_the_cap(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let bob = store.add_user("bob", "h", false).await.unwrap();
    for i in 0..15 {
        let hash = format!("old-{i}");
        store
            .add_token("ann", hash.as_bytes(), "g_old")
            .await
            .unwrap();
    }
    let tries = (0..40).map(|i| {
        let store = store.clone();
        let user = if i % 10 == 0 { bob } else { ann };
        tokio::spawn(async move {
            let hash = format!("new-{i}");
            store
                .add_own_token(user, hash.as_bytes(), "g_new", 20)
                .await
        })
    });
    let mut made = 0;
    for t in tries.collect::<Vec<_>>() {
        made += usize::from(t.await.unwrap().unwrap());
    }
    assert_eq!(store.tokens_of(ann).await.unwrap().len(), 20);
    assert_eq!(store.tokens_of(bob).await.unwrap().len(), 4);
    assert_eq!(made, 5 + 4);
    assert!(store.add_own_token(9999, b"x", "g_x", 20).await.is_err());
    assert_eq!(store.revoke_tokens_of(ann).await.unwrap(), 20);
    assert!(store.tokens_of(ann).await.unwrap().is_empty());
}

/// A reader keeps finished results in memory; a rejudge made by another
/// process (a second store on the same database) must still reach it.
async fn a_finished_result_read_again_follows_a_rejudge_made_elsewhere(
    reader: Store,
    writer: Store,
) {
    let id = writer.enqueue(new("nim")).await.unwrap();
    let lease = claim_own(&writer, id, LEASE).await.unwrap();
    assert!(writer
        .finish(lease, &report(Verdict::WA), None)
        .await
        .unwrap());
    for _ in 0..2 {
        let read = reader.get_status(id).await.unwrap().unwrap();
        assert_eq!(read.report.unwrap(), report(Verdict::WA));
    }
    assert!(writer.rejudge(id).await.unwrap());
    let queued = reader.get_status(id).await.unwrap().unwrap();
    assert_eq!(queued.status, Status::Queued);
    assert!(queued.report.is_none() && queued.progress.is_empty());
    let lease = claim_own(&writer, id, LEASE).await.unwrap();
    let mut again = report(Verdict::AC);
    again.tests.push(test("02", Verdict::AC));
    assert!(writer.finish(lease, &again, None).await.unwrap());
    let read = reader.get_status(id).await.unwrap().unwrap();
    assert_eq!(read.report.unwrap(), again, "not the first judging's tests");
}

/// Runs `test` with two stores opened on the database at `url`.
fn run_two<F: std::future::Future<Output = ()>>(url: &str, test: impl FnOnce(Store, Store) -> F) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let a = Store::open(url).await.unwrap();
        let b = Store::open(url).await.unwrap();
        test(a.clone(), b.clone()).await;
        a.close().await;
        b.close().await;
    });
}

#[test]
fn a_finished_result_read_again_follows_a_rejudge_made_elsewhere_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("grundy.db").display());
    run_two(
        &url,
        a_finished_result_read_again_follows_a_rejudge_made_elsewhere,
    );
}

#[test]
fn a_finished_result_read_again_follows_a_rejudge_made_elsewhere_postgres() {
    let Some(url) = crate::pg::database() else {
        return;
    };
    run_two(
        &url,
        a_finished_result_read_again_follows_a_rejudge_made_elsewhere,
    );
}

on_both_databases!(
    inserted_submission_is_queued,
    claim_next_takes_the_oldest_once_with_attempt_one,
    a_specific_claim_takes_only_a_queued_submission,
    finished_submission_round_trips_its_report,
    groups_partial_scores_and_transcripts_round_trip_and_a_rejudge_clears_them,
    tests_are_visible_while_judging,
    renewing_keeps_a_lease_and_fails_once_it_is_lost,
    a_worker_whose_lease_expired_cannot_overwrite_the_newer_attempt,
    a_failed_attempt_is_retried_and_the_third_ends_ie_with_the_reason,
    a_failed_attempt_waits_its_pause_before_the_next_try,
    a_lease_that_expires_on_every_try_ends_ie_instead_of_looping,
    a_released_claim_is_queued_again_without_counting_a_try,
    only_expired_leases_are_requeued,
    a_rejudge_keeps_the_old_result_in_history_and_waits_behind_live_ones,
    unknown_submission_is_none,
    the_rate_limit_refuses_the_eleventh_submission_of_a_minute,
    lists_are_newest_first_filtered_and_paged,
    users_are_unique_listed_and_disabled,
    a_token_works_until_revoked_or_its_user_is_disabled,
    forty_own_tokens_made_at_once_stop_at_the_cap,
);

/// A try by `user` in contest `cid` made at `at_ms`, judged `verdict`.
pub(super) async fn judged_at(
    store: &Store,
    user: i64,
    cid: i64,
    at_ms: i64,
    verdict: Verdict,
) -> i64 {
    let mut try_ = new("nim");
    try_.user_id = Some(user);
    let id = store
        .insert_contest_submission(try_, cid, at_ms)
        .await
        .unwrap();
    let lease = crate::helpers::claim_own(store, id, LEASE).await.unwrap();
    assert!(store.finish(lease, &report(verdict), None).await.unwrap());
    id
}

mod awards;
mod contests;
mod jury;
mod record;
mod reruns;
mod shadows;
mod team_ids;
mod withdraw;

//! The one claim and the re-runs of close calls (issue 32): a re-run goes
//! only to a worker that can run it; one that no such worker took in time,
//! or that failed on every try, lets the first judging stand, recorded as
//! such; a result is one transaction with its timing record. On SQLite and
//! on PostgreSQL.

use std::time::Duration;

use grundy::judge::Report;
use grundy::store::{ClaimAs, Failed, Queue, Status, Store, Timed};
use grundy::verdict::Verdict;

use super::{new, report, run, EXPIRED, LEASE};
use crate::helpers::claim_any;

const HOUR: Duration = Duration::from_secs(3600);

/// Worker process `worker` as it claims: with `languages` (every one when
/// `None`), refusing the problems in `refused`.
fn as_worker<'a>(
    worker: &'a str,
    languages: Option<&'a [String]>,
    refused: &'a [String],
) -> ClaimAs<'a> {
    ClaimAs {
        worker,
        languages,
        refused,
        alive: Duration::from_secs(15),
        only: None,
    }
}

fn timed(worker: &str) -> Timed<'_> {
    Timed {
        worker,
        factor: 1.0,
        limit_ms: 1000,
    }
}

/// Worker process `name`, alive, announcing `languages` (`id version` a line).
async fn alive(store: &Store, name: &str, languages: &str) {
    store.register_workers(name, 1, "test").await.unwrap();
    store.announce_workers(name, 1, languages).await.unwrap();
}

/// A C++ submission of nim that worker `a` judged first, a close call put
/// back for its re-run, which waits `wait` at most: its id and the first
/// judging.
async fn close_call(store: &Store, wait: Duration) -> (i64, Report) {
    let id = store.enqueue(new("nim")).await.unwrap();
    let claim = store
        .claim(LEASE, &as_worker("a", None, &[]))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(claim.lease.id, id);
    assert!(!claim.rerun);
    let mut first = report(Verdict::AC);
    first.tests.push(super::test("02", Verdict::AC));
    assert!(store
        .defer_rerun(claim.lease, timed("a"), &first, wait)
        .await
        .unwrap());
    (id, first)
}

/// The submission's stored result is its first judging, recorded as
/// standing for a reason containing `why`.
async fn first_stands(store: &Store, id: i64, first: &Report, why: &str) {
    let sub = store.get(id).await.unwrap().unwrap();
    assert_eq!(sub.status, Status::Done);
    assert_eq!(sub.report.as_ref(), Some(first), "the first judging, whole");
    let t = store.timing_of(id).await.unwrap().unwrap();
    assert!(!t.rerun_pending);
    assert_eq!(t.judged_by.as_deref(), Some("a"));
    assert_eq!(
        t.first.map(|f| (f.verdict, f.judged_by)),
        Some((Verdict::AC, Some("a".into())))
    );
    let stands = t.first_stands.expect("recorded as standing");
    assert!(stands.contains(why), "{stands}");
    assert!(
        claim_any(store, LEASE).await.is_none(),
        "and it is not re-run later"
    );
}

/// Issue 32's findings: a live worker without the language took the
/// re-run (and failed it into IE); one that refused the package took it
/// and gave it back forever.
async fn a_rerun_goes_only_to_a_worker_that_can_run_it(store: Store) {
    alive(&store, "a", "c 13\ncpp 13").await;
    alive(&store, "c-only", "c 13").await;
    alive(&store, "refuser", "c 13\ncpp 13").await;
    store
        .refuse_package("refuser", "nim", "", "its tests differ")
        .await
        .unwrap();
    let (id, _) = close_call(&store, HOUR).await;
    let c = ["c".to_string()];
    let nim = ["nim".to_string()];
    assert!(
        store
            .claim(LEASE, &as_worker("c-only", Some(&c), &[]))
            .await
            .unwrap()
            .is_none(),
        "not by a worker without its language"
    );
    assert!(
        store
            .claim(LEASE, &as_worker("refuser", None, &nim))
            .await
            .unwrap()
            .is_none(),
        "not by a worker that refused its package"
    );
    // No other live worker can run it: the one that judged it first does.
    let claim = store
        .claim(LEASE, &as_worker("a", None, &[]))
        .await
        .unwrap()
        .expect("the first worker re-runs it");
    assert_eq!(claim.lease.id, id);
    assert!(claim.rerun);
    assert!(store.release(claim.lease).await.unwrap());

    // Once one can, it is kept from the first worker for that one.
    alive(&store, "b", "cpp 13").await;
    assert!(store
        .claim(LEASE, &as_worker("a", None, &[]))
        .await
        .unwrap()
        .is_none());
    let claim = store
        .claim(LEASE, &as_worker("b", None, &[]))
        .await
        .unwrap()
        .expect("another worker re-runs it");
    assert_eq!((claim.lease.id, claim.rerun), (id, true));
    assert!(store
        .finish(claim.lease, &report(Verdict::AC), Some(timed("b")))
        .await
        .unwrap());
    let t = store.timing_of(id).await.unwrap().unwrap();
    assert_eq!(t.judged_by.as_deref(), Some("b"));
    assert_eq!(t.first.map(|f| f.judged_by), Some(Some("a".into())));
    assert_eq!(t.first_stands, None, "the re-run's verdict stands");
}

async fn a_rerun_no_worker_took_in_time_lets_the_first_judging_stand(store: Store) {
    let (id, first) = close_call(&store, Duration::ZERO).await;
    // Any claim settles it, even one by a worker that could not run it.
    let c = ["c".to_string()];
    assert!(store
        .claim(LEASE, &as_worker("c-only", Some(&c), &[]))
        .await
        .unwrap()
        .is_none());
    first_stands(&store, id, &first, "in time").await;
}

async fn a_rerun_that_fails_on_every_try_lets_the_first_judging_stand(store: Store) {
    let (id, first) = close_call(&store, HOUR).await;
    for _ in 1..3 {
        let claim = claim_any(&store, LEASE).await.unwrap();
        assert!(claim.rerun);
        assert_eq!(
            store
                .fail(claim.lease, "box broke", Duration::ZERO)
                .await
                .unwrap(),
            Failed::Requeued
        );
    }
    let claim = claim_any(&store, LEASE).await.unwrap();
    assert_eq!(
        store
            .fail(claim.lease, "box broke", Duration::ZERO)
            .await
            .unwrap(),
        Failed::FirstStands
    );
    first_stands(&store, id, &first, "box broke").await;

    // Abandoned on every try (the lease expired each time) alike.
    let (id, first) = close_call(&store, HOUR).await;
    for _ in 0..3 {
        assert!(claim_any(&store, EXPIRED).await.unwrap().rerun);
    }
    assert!(claim_any(&store, LEASE).await.is_none());
    first_stands(&store, id, &first, "abandoned").await;
}

/// Issue 32's finding: the result and its timing record were two
/// transactions, and a crash between them cleared the re-run's exclusion
/// and the first judging. The database here fails the result's tests, as
/// a crash midway would leave it: nothing of the result is written.
fn a_result_is_one_transaction_with_its_timing_record(postgres: bool) {
    let Some((url, _guard)) = crate::distributed::database(postgres) else {
        return;
    };
    let side = url.clone();
    run(&url, move |store| async move {
        let (id, _) = close_call(&store, HOUR).await;
        let claim = claim_any(&store, LEASE).await.unwrap();
        assert!(claim.rerun);
        fail_finished_tests(&side, postgres).await;
        let written = store
            .finish(claim.lease, &report(Verdict::WA), Some(timed("b")))
            .await;
        assert!(written.is_err(), "{written:?}");
        let t = store.timing_of(id).await.unwrap().unwrap();
        assert!(t.rerun_pending, "still a re-run");
        assert_eq!(t.judged_by, None);
        assert_eq!(t.first.map(|f| f.verdict), Some(Verdict::AC));
        let sub = store.get(id).await.unwrap().unwrap();
        assert_eq!(sub.status, Status::Judging);
        assert!(sub.report.is_none());
    });
}

/// Makes the database refuse a test result of a submission already marked
/// done in the same transaction (what a finished result writes last).
async fn fail_finished_tests(url: &str, postgres: bool) {
    if postgres {
        let pool = sqlx::PgPool::connect(url).await.unwrap();
        for statement in [
            "CREATE FUNCTION crash() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN
                 IF (SELECT status FROM submissions WHERE id = NEW.submission_id) = 'done' THEN
                     RAISE EXCEPTION 'crash';
                 END IF;
                 RETURN NEW;
             END $$",
            "CREATE TRIGGER crash BEFORE INSERT ON test_results
             FOR EACH ROW EXECUTE FUNCTION crash()",
        ] {
            sqlx::query(statement).execute(&pool).await.unwrap();
        }
        pool.close().await;
    } else {
        let pool = sqlx::SqlitePool::connect(url).await.unwrap();
        sqlx::query(
            "CREATE TRIGGER crash BEFORE INSERT ON test_results
             WHEN (SELECT status FROM submissions WHERE id = NEW.submission_id) = 'done'
             BEGIN SELECT RAISE(ABORT, 'crash'); END",
        )
        .execute(&pool)
        .await
        .unwrap();
        pool.close().await;
    }
}

#[test]
fn a_result_is_one_transaction_with_its_timing_record_on_sqlite() {
    a_result_is_one_transaction_with_its_timing_record(false);
}

#[test]
fn a_result_is_one_transaction_with_its_timing_record_on_postgres() {
    a_result_is_one_transaction_with_its_timing_record(true);
}

on_both_databases!(
    a_rerun_goes_only_to_a_worker_that_can_run_it,
    a_rerun_no_worker_took_in_time_lets_the_first_judging_stand,
    a_rerun_that_fails_on_every_try_lets_the_first_judging_stand,
);

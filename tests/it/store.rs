//! The store's queries, each against a fresh database.

use grundy::judge::{Report, TestReport};
use grundy::store::{NewSubmission, Status, Store};
use grundy::verdict::Verdict;
use sqlx::SqlitePool;

fn new(problem: &str) -> NewSubmission<'_> {
    NewSubmission {
        problem,
        language: "cpp",
        source: b"int main() {}",
    }
}

fn report(verdict: Verdict) -> Report {
    Report {
        verdict,
        score: if verdict == Verdict::AC { 100 } else { 0 },
        time_ms: 12,
        memory_kib: 3412,
        compile_output: String::new(),
        tests: vec![TestReport {
            name: "01".into(),
            group: grundy::problem::Group::Sample,
            verdict,
            time_ms: 12,
            wall_ms: 14,
            memory_kib: 3412,
            exit_code: Some(0),
            signal: None,
            message: String::new(),
        }],
    }
}

#[sqlx::test]
async fn inserted_submission_is_queued(pool: SqlitePool) {
    let store = Store::from_pool(pool).await.unwrap();
    let id = store.insert_submission(new("nim")).await.unwrap();
    let sub = store.get(id).await.unwrap().unwrap();
    assert_eq!(sub.status, Status::Queued);
    assert_eq!(sub.problem, "nim");
    assert_eq!(sub.source, b"int main() {}");
    assert!(sub.report.is_none());
}

#[sqlx::test]
async fn claim_next_takes_the_oldest_once(pool: SqlitePool) {
    let store = Store::from_pool(pool).await.unwrap();
    let a = store.insert_submission(new("nim")).await.unwrap();
    let b = store.insert_submission(new("nim")).await.unwrap();
    assert_eq!(store.claim_next_pending().await.unwrap().unwrap().id, a);
    assert_eq!(store.claim_next_pending().await.unwrap().unwrap().id, b);
    assert!(store.claim_next_pending().await.unwrap().is_none());
    assert!(
        !store.claim(a).await.unwrap(),
        "a claimed submission is not claimed twice"
    );
}

#[sqlx::test]
async fn finished_submission_round_trips_its_report(pool: SqlitePool) {
    let store = Store::from_pool(pool).await.unwrap();
    let id = store.insert_submission(new("nim")).await.unwrap();
    assert!(store.claim(id).await.unwrap());
    let r = report(Verdict::WA);
    store.finish_submission(id, &r).await.unwrap();
    let sub = store.get(id).await.unwrap().unwrap();
    assert_eq!(sub.status, Status::Done);
    assert_eq!(sub.report.unwrap(), r);
}

#[sqlx::test]
async fn unfinished_submissions_are_requeued(pool: SqlitePool) {
    let store = Store::from_pool(pool).await.unwrap();
    let id = store.insert_submission(new("nim")).await.unwrap();
    let done = store.insert_submission(new("nim")).await.unwrap();
    assert!(store.claim(id).await.unwrap());
    assert!(store.claim(done).await.unwrap());
    store
        .finish_submission(done, &report(Verdict::AC))
        .await
        .unwrap();
    // The judge dies here; on restart:
    assert_eq!(store.requeue_unfinished().await.unwrap(), 1);
    assert_eq!(store.get(id).await.unwrap().unwrap().status, Status::Queued);
    assert_eq!(store.get(done).await.unwrap().unwrap().status, Status::Done);
    assert_eq!(store.claim_next_pending().await.unwrap().unwrap().id, id);
}

#[sqlx::test]
async fn unknown_submission_is_none(pool: SqlitePool) {
    let store = Store::from_pool(pool).await.unwrap();
    assert!(store.get(42).await.unwrap().is_none());
}

#[sqlx::test]
async fn a_verdict_outside_the_words_is_refused_by_the_schema(pool: SqlitePool) {
    let store = Store::from_pool(pool.clone()).await.unwrap();
    let id = store.insert_submission(new("nim")).await.unwrap();
    let r = sqlx::query("UPDATE submissions SET status = 'done', verdict = 'OK' WHERE id = ?")
        .bind(id)
        .execute(&pool)
        .await;
    assert!(r.is_err());
}

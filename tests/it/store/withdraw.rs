//! A contest try that no worker can judge blocks nothing for good (issue
//! 47), on both databases: the finalize names it and says what to do; an
//! admin withdraws it with a reason; it then counts for nobody (boards,
//! the contest's lists, the finalize), the contest's record deletes its
//! submission and judgement for every reader that held them, and the reason
//! stays beside it. What has a result that counts is never withdrawn, nor
//! anything once the results are final.
// See: issue 47.

use grundy::store::{Error, Reader, Store};
use grundy::verdict::Verdict;

use super::jury::contest;
use super::{judged_at, new, run};

fn now_ms() -> i64 {
    grundy::site::contests::now_ms()
}

/// The refusal's text, or a panic naming what came instead.
fn refused<T: std::fmt::Debug>(result: Result<T, Error>) -> String {
    match result {
        Err(Error::Refused(_, why)) => why,
        other => panic!("not refused: {other:?}"),
    }
}

async fn a_try_no_worker_judges_is_withdrawn_and_the_contest_finalized(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    // Ended an hour ago.
    let start = now_ms() - 3 * 3_600_000;
    let cid = store
        .create_contest(&contest("wd", start, 0, Some(&["ann"])), now_ms())
        .await
        .unwrap();
    store.catch_up_contest(cid).await.unwrap();
    let judged = judged_at(&store, ann, cid, start + 600_000, Verdict::WA).await;
    // A try in a language no worker has: it stays queued.
    let mut kotlin = new("nim");
    kotlin.user_id = Some(ann);
    kotlin.language = "kotlin";
    let stuck = store
        .insert_contest_submission(kotlin, cid, start + 1_200_000)
        .await
        .unwrap();
    let objects = |reader| {
        let store = store.clone();
        async move {
            store
                .contest_objects(cid, reader, "submissions")
                .await
                .unwrap()
                .iter()
                .filter_map(|e| e.id.clone())
                .collect::<Vec<_>>()
        }
    };
    assert!(objects(Reader::Public).await.contains(&stuck.to_string()));

    // The finalize names the try and what to do.
    let why = refused(store.finalize_contest(cid).await);
    assert!(
        why.contains(&format!("{stuck} (nim, kotlin: not judged yet)")),
        "{why}"
    );
    assert!(
        why.contains("grundy contest withdraw wd ID --reason"),
        "{why}"
    );
    let unsettled = store.unsettled_tries(cid).await.unwrap();
    assert_eq!(unsettled.iter().map(|t| t.id).collect::<Vec<_>>(), [stuck]);

    // A withdrawal needs a reason; a judged try keeps its result.
    assert!(refused(store.withdraw_try(cid, stuck, "  ").await).contains("needs a reason"));
    let why = refused(store.withdraw_try(cid, judged, "no").await);
    assert!(why.contains("has its result (WA)"), "{why}");
    let reason = "no judge here runs Kotlin; resubmit in another language";
    store.withdraw_try(cid, stuck, reason).await.unwrap();
    assert!(refused(store.withdraw_try(cid, stuck, reason).await).contains("withdrawn already"));

    // It counts for nobody, and the record deleted it for every reader.
    assert_eq!(
        store.withdrawal_of(stuck).await.unwrap().as_deref(),
        Some(reason)
    );
    let withdrawn = store.withdrawn_tries(cid).await.unwrap();
    assert_eq!(
        (
            withdrawn.len(),
            withdrawn[0].id,
            withdrawn[0].reason.as_str()
        ),
        (1, stuck, reason)
    );
    let listed = store.contest_submissions(cid, None).await.unwrap();
    assert_eq!(listed.iter().map(|s| s.id).collect::<Vec<_>>(), [judged]);
    assert!(store
        .contest_attempts(cid)
        .await
        .unwrap()
        .iter()
        .all(|a| a.id != stuck));
    for reader in [Reader::Public, Reader::Admin, Reader::Team(ann)] {
        let ids = objects(reader).await;
        assert!(!ids.contains(&stuck.to_string()), "{reader:?}: {ids:?}");
        assert!(ids.contains(&judged.to_string()), "{reader:?}: {ids:?}");
        let events = store.contest_events(cid, 0, reader, 100_000).await.unwrap();
        for kind in ["submissions", "judgements"] {
            let last = events
                .iter()
                .rev()
                .find(|e| e.kind == kind && e.id.as_deref() == Some(&stuck.to_string()))
                .unwrap_or_else(|| panic!("{reader:?}: no {kind} event of {stuck}"));
            assert!(last.data.is_none(), "{reader:?}: {kind} deleted: {last:?}");
        }
    }

    // Nothing blocks the finalize now; after it nothing is withdrawn.
    store.finalize_contest(cid).await.unwrap();
    let why = refused(store.withdraw_try(cid, judged, "late").await);
    assert!(why.contains("final"), "{why}");
}

/// A try that ended in a judging error may be withdrawn too, and a try of
/// another contest, or none, is refused naming it.
async fn a_judging_error_may_be_withdrawn_and_strangers_are_refused(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let start = now_ms() - 3 * 3_600_000;
    let cid = store
        .create_contest(&contest("ie", start, 0, Some(&["ann"])), now_ms())
        .await
        .unwrap();
    let other = store
        .create_contest(&contest("other", start, 0, Some(&["ann"])), now_ms())
        .await
        .unwrap();
    let errored = judged_at(&store, ann, cid, start + 600_000, Verdict::IE).await;
    let why = refused(store.finalize_contest(cid).await);
    assert!(why.contains("ended in a judging error"), "{why}");
    let why = refused(store.withdraw_try(other, errored, "why").await);
    assert!(why.contains("not a try of this contest"), "{why}");
    let why = refused(store.withdraw_try(cid, 999_999, "why").await);
    assert!(why.contains("no submission 999999"), "{why}");
    store
        .withdraw_try(cid, errored, "the judge lost its checker")
        .await
        .unwrap();
    store.finalize_contest(cid).await.unwrap();
}

on_both_databases!(
    a_try_no_worker_judges_is_withdrawn_and_the_contest_finalized,
    a_judging_error_may_be_withdrawn_and_strangers_are_refused,
);

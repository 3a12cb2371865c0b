//! Each contest's record (issue 32), on both databases: events numbered in
//! the order they commit even when two writers cross, what the unfreeze
//! reveals appended as new events for those who had not read it, a try
//! refused by the database's clock outside the window, and a version that
//! moves with every change.

use std::time::Duration;

use grundy::contest::Scoring;
use grundy::store::{Event, NewContest, OverLimit, Queue, Reader, Store, SubmitLimits};
use grundy::verdict::Verdict;

use super::{new, report, run, LEASE};

const NO_LIMITS: SubmitLimits = SubmitLimits {
    per_minute: 0,
    max_waiting: 0,
};

fn now_ms() -> i64 {
    grundy::site::contests::now_ms()
}

/// A two-hour ICPC contest started `ago` ms ago, frozen for its last 30
/// minutes, with `participants`.
fn contest(slug: &str, ago: i64, participants: &[&str]) -> NewContest {
    NewContest {
        slug: slug.into(),
        name: slug.into(),
        start_ms: now_ms() - ago,
        duration_s: 7200,
        freeze_s: 1800,
        penalty_min: 20,
        scoring: Scoring::Icpc,
        medals: grundy::contest::Medals::default(),
        participants: Some(participants.iter().map(|s| s.to_string()).collect()),
        problems: vec![("A".into(), "nim".into())],
        colors: Vec::new(),
    }
}

async fn events(store: &Store, contest: i64, after: i64, reader: Reader) -> Vec<Event> {
    store
        .contest_events(contest, after, reader, 10_000)
        .await
        .unwrap()
}

/// The (kind, id) of each event.
fn kinds(events: &[Event]) -> Vec<(String, String)> {
    events
        .iter()
        .map(|e| (e.kind.clone(), e.id.clone().unwrap_or_default()))
        .collect()
}

/// A try is stored with its contest only while the database's clock is in
/// the window; outside it nothing is stored.
async fn a_try_outside_the_window_is_refused_and_not_stored(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let over = store
        .create_contest(&contest("over", 3 * 3_600_000, &["ann"]), now_ms())
        .await
        .unwrap();
    let soon = store
        .create_contest(&contest("soon", -3_600_000, &["ann"]), now_ms())
        .await
        .unwrap();
    let open = store
        .create_contest(&contest("open", 60_000, &["ann"]), now_ms())
        .await
        .unwrap();
    let mut try_ = new("nim");
    try_.user_id = Some(ann);
    for c in [over, soon] {
        let r = store.insert_submission_within(try_.clone(), NO_LIMITS, Some(c));
        assert_eq!(r.await.unwrap(), Err(OverLimit::Closed), "contest {c}");
        assert!(store.contest_submissions(c, None).await.unwrap().is_empty());
    }
    let id = store
        .insert_submission_within(try_, NO_LIMITS, Some(open))
        .await
        .unwrap()
        .expect("open");
    assert_eq!(store.contest_of_submission(id).await.unwrap(), Some(open));
    // Stored with its contest, and in its record, in one transaction.
    let record = events(&store, open, 0, Reader::Public).await;
    assert!(
        kinds(&record).contains(&("submissions".into(), id.to_string())),
        "{record:?}"
    );
}

/// A result sealed by the freeze is read by its team and the admins when
/// it is judged, and by everyone else from the unfreeze on: appended again
/// after the events they had read, never before.
async fn the_unfreeze_appends_what_it_reveals(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    store.add_user("bob", "h", false).await.unwrap();
    let bob = store.user("bob").await.unwrap().unwrap().id;
    // Started 100 minutes ago: frozen since 10 minutes ago.
    let cup = store
        .create_contest(&contest("cup", 6_000_000, &["ann", "bob"]), now_ms())
        .await
        .unwrap();
    store.catch_up_contest(cup).await.unwrap();
    let read = |reader| {
        let store = store.clone();
        async move { events(&store, cup, 0, reader).await }
    };
    let last = |e: &[Event]| e.last().map_or(0, |e| e.seq);
    let (public0, bob0, admin0) = (
        last(&read(Reader::Public).await),
        last(&read(Reader::Team(bob)).await),
        last(&read(Reader::Admin).await),
    );
    let mut mine = new("nim");
    mine.user_id = Some(ann);
    let id = store
        .insert_submission_within(mine, NO_LIMITS, Some(cup))
        .await
        .unwrap()
        .expect("open");
    let lease = crate::helpers::claim_own(&store, id, LEASE).await.unwrap();
    assert!(store
        .finish(lease, &report(Verdict::AC), None)
        .await
        .unwrap());
    let judgement = ("judgements".to_string(), id.to_string());
    let run = ("runs".to_string(), format!("{id}-1"));

    let public = events(&store, cup, public0, Reader::Public).await;
    assert!(!kinds(&public).contains(&judgement), "sealed: {public:?}");
    assert!(kinds(&public).contains(&("submissions".into(), id.to_string())));
    let own = events(&store, cup, 0, Reader::Team(ann)).await;
    let verdicts: Vec<_> = own
        .iter()
        .filter(|e| e.kind == "judgements" && e.id.as_deref() == Some(&id.to_string()))
        .map(|e| e.data.as_ref().unwrap()["judgement_type_id"].clone())
        .collect();
    assert_eq!(verdicts.last().and_then(|v| v.as_str()), Some("AC"));

    // The end (the results are revealed only after it): the window moved
    // back, the try still after the freeze.
    store
        .update_contest(cup, &contest("cup", 7_300_000, &["ann", "bob"]))
        .await
        .unwrap();
    let public_seen = last(&events(&store, cup, public0, Reader::Public).await).max(public0);
    let admin_seen = last(&events(&store, cup, admin0, Reader::Admin).await);
    let own_seen = last(&events(&store, cup, 0, Reader::Team(ann)).await);
    store.set_contest_thawed(cup, Some(now_ms())).await.unwrap();
    // The public resumes where it stopped and gets the result, then the
    // new state.
    let revealed = events(&store, cup, public_seen, Reader::Public).await;
    let k = kinds(&revealed);
    assert!(k.contains(&judgement) && k.contains(&run), "{k:?}");
    let at = |x: &(String, String)| k.iter().position(|y| y == x).unwrap();
    assert!(
        at(&judgement) < at(&("state".into(), String::new())),
        "{k:?}"
    );
    assert!(revealed.iter().all(|e| e.seq > public_seen));
    let verdict = revealed
        .iter()
        .find(|e| e.kind == "judgements")
        .and_then(|e| e.data.clone())
        .unwrap();
    assert_eq!(verdict["judgement_type_id"], "AC");
    // Another team too; the admins and the team itself read it once.
    assert!(kinds(&events(&store, cup, bob0, Reader::Team(bob)).await).contains(&judgement));
    assert!(!kinds(&events(&store, cup, admin_seen, Reader::Admin).await).contains(&judgement));
    // (The moved start told every reader its run again, counted anew.)
    let own = kinds(&events(&store, cup, own_seen, Reader::Team(ann)).await);
    assert!(
        !own.contains(&run),
        "the thaw tells the team nothing again: {own:?}"
    );
    for reader in [
        Reader::Admin,
        Reader::Team(ann),
        Reader::Team(bob),
        Reader::Public,
    ] {
        objects_are_the_replay(&store, cup, reader).await;
    }
}

/// Issue 46: every collection of `contest` that `reader` reads (each
/// object's latest event only, read so by the database) is what replaying
/// the whole record for that reader holds: each object's latest event,
/// deletes left out, in the order the objects first appeared.
async fn objects_are_the_replay(store: &Store, contest: i64, reader: Reader) {
    let all = events(store, contest, 0, reader).await;
    for kind in [
        "problems",
        "teams",
        "submissions",
        "judgements",
        "runs",
        "awards",
    ] {
        let mut replay: Vec<Event> = Vec::new();
        for e in all.iter().filter(|e| e.kind == kind) {
            match replay.iter_mut().find(|o| o.id == e.id) {
                Some(o) => *o = e.clone(),
                None => replay.push(e.clone()),
            }
        }
        replay.retain(|e| e.data.is_some());
        let read = store.contest_objects(contest, reader, kind).await.unwrap();
        assert_eq!(read, replay, "{kind} as {reader:?} reads them");
    }
}

/// Participants {1, 5} becoming {1, 2, 3} (the same sum of ids) moves
/// the version, and so do a question and its answer.
async fn the_version_moves_with_every_change(store: Store) {
    for name in ["u1", "u2", "u3", "u4", "u5"] {
        store.add_user(name, "h", false).await.unwrap();
    }
    let root = store.add_user("root", "h", true).await.unwrap();
    let id = store
        .create_contest(&contest("v", 60_000, &["u1", "u5"]), now_ms())
        .await
        .unwrap();
    let c = store.contest("v").await.unwrap().unwrap();
    let before = store.contest_version(&c).await.unwrap();
    store
        .update_contest(id, &contest("v", 60_000, &["u1", "u2", "u3"]))
        .await
        .unwrap();
    let after = store.contest_version(&c).await.unwrap();
    assert!(after > before);
    let teams: Vec<_> = store
        .contest_teams(&c)
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(teams, ["u1", "u2", "u3"]);
    let u1 = store.user("u1").await.unwrap().unwrap().id;
    let q = store.ask(id, Some(u1), None, "?", now_ms()).await.unwrap();
    let asked = store.contest_version(&c).await.unwrap();
    assert!(asked > after);
    assert!(store
        .answer(id, q, "!", false, root, now_ms())
        .await
        .unwrap());
    assert!(store.contest_version(&c).await.unwrap() > asked);
    // u5 left: the record says so.
    let u5 = store.user("u5").await.unwrap().unwrap().id.to_string();
    let gone = events(&store, id, before.0, Reader::Public).await;
    assert!(
        gone.iter()
            .any(|e| e.kind == "teams" && e.id.as_deref() == Some(&u5) && e.data.is_none()),
        "{gone:?}"
    );
}

/// Account ann, contest `slug` (started a minute ago, ann its only
/// participant) and a try of ann's there, not judged yet.
async fn one_try(store: &Store, slug: &str) -> (i64, i64, i64) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let cup = store
        .create_contest(&contest(slug, 60_000, &["ann"]), now_ms())
        .await
        .unwrap();
    let mut try_ = new("nim");
    try_.user_id = Some(ann);
    let id = store
        .insert_submission_within(try_, NO_LIMITS, Some(cup))
        .await
        .unwrap()
        .expect("open");
    (ann, cup, id)
}

/// Issue 46: a judged try appends its judgement and every run in a few
/// statements, however many tests it has: 1,200 runs (more than one
/// statement holds) come back numbered one after another, in test order,
/// each as its test ended, after the judgement, with nothing lost
/// between statements.
async fn a_try_with_many_tests_appends_every_run_in_order(store: Store) {
    let (ann, cup, id) = one_try(&store, "many").await;
    let before = events(&store, cup, 0, Reader::Admin)
        .await
        .last()
        .unwrap()
        .seq;
    let mut judged = report(Verdict::WA);
    judged.tests = (0..1200)
        .map(|k| {
            let verdict = if k == 700 { Verdict::WA } else { Verdict::AC };
            let mut t = super::test(&format!("{k:04}"), verdict);
            t.time_ms = k;
            t
        })
        .collect();
    let lease = crate::helpers::claim_own(&store, id, LEASE).await.unwrap();
    assert!(store.finish(lease, &judged, None).await.unwrap());
    let appended = events(&store, cup, before, Reader::Admin).await;
    let seqs: Vec<i64> = appended.iter().map(|e| e.seq).collect();
    let expected: Vec<i64> = (before + 1..before + 1 + seqs.len() as i64).collect();
    assert_eq!(seqs, expected, "numbered one after another");
    assert_eq!(appended[0].kind, "judgements");
    let runs: Vec<&Event> = appended.iter().filter(|e| e.kind == "runs").collect();
    assert_eq!(runs.len(), 1200);
    for (k, r) in runs.iter().enumerate() {
        let data = r.data.as_ref().unwrap();
        assert_eq!(data["ordinal"], k as i64 + 1, "{data}");
        let verdict = if k == 700 { "WA" } else { "AC" };
        assert_eq!(data["judgement_type_id"], verdict, "{data}");
    }
    // The version is the last number.
    let c = store.contest("many").await.unwrap().unwrap();
    assert_eq!(
        store.contest_version(&c).await.unwrap().0,
        *seqs.last().unwrap()
    );
    // One object read alone is the one the whole collection holds, for
    // every reader; one that is not there is none.
    for reader in [Reader::Admin, Reader::Team(ann), Reader::Public] {
        for kind in ["submissions", "judgements", "runs"] {
            let all = store.contest_objects(cup, reader, kind).await.unwrap();
            for e in all.iter().take(3).chain(all.iter().rev().take(3)) {
                let id = e.id.as_deref().unwrap();
                let alone = store.contest_object(cup, reader, (kind, id)).await;
                let alone = alone.unwrap().expect("read alone");
                assert_eq!((alone.seq, &alone.data), (e.seq, &e.data), "{kind} {id}");
            }
        }
        let none = store.contest_object(cup, reader, ("runs", "no-such-run"));
        assert!(none.await.unwrap().is_none());
    }
}

/// Issue 46: a worker's judgement computes the awards that moved from
/// what the record last said of them, kept by the store between
/// judgements; an award event written by anything else (here a rejudge)
/// makes it read them again. A try accepted, sent back (the winner gone),
/// then accepted again: the record names its team the winner again.
async fn awards_kept_between_judgements_follow_a_rejudge(store: Store) {
    let (ann, cup, id) = one_try(&store, "kept").await;
    let judge = |store: Store| async move {
        let lease = crate::helpers::claim_own(&store, id, LEASE).await.unwrap();
        assert!(store
            .finish(lease, &report(Verdict::AC), None)
            .await
            .unwrap());
    };
    let winner = |store: Store| async move {
        store
            .contest_awards(cup, Reader::Admin)
            .await
            .unwrap()
            .into_iter()
            .find(|a| a.id == "winner")
            .map(|a| a.team_ids)
            .unwrap_or_default()
    };
    judge(store.clone()).await;
    assert_eq!(winner(store.clone()).await, vec![ann.to_string()]);
    assert!(store.rejudge(id).await.unwrap());
    assert_eq!(winner(store.clone()).await, Vec::<String>::new());
    judge(store.clone()).await;
    assert_eq!(winner(store.clone()).await, vec![ann.to_string()]);
}

on_both_databases!(
    awards_kept_between_judgements_follow_a_rejudge,
    a_try_with_many_tests_appends_every_run_in_order,
    a_try_outside_the_window_is_refused_and_not_stored,
    the_unfreeze_appends_what_it_reveals,
    the_version_moves_with_every_change,
);

/// Writer A takes the contest's next number and holds it uncommitted, as
/// every writer of the record does first; writer B (a question, through
/// the store) starts meanwhile. B waits for A, so it cannot commit a
/// larger number while A's smaller one is still to come: a reader sees
/// nothing of either until A commits, then both in number order, and a
/// reader that resumes after what it read misses neither.
macro_rules! crossing_writers {
    ($pool:ty, $url:expr) => {{
        let url: String = $url;
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let store = Store::open(&url).await.unwrap();
            let ann = store.add_user("ann", "h", false).await.unwrap();
            let cup = store
                .create_contest(&contest("cup", 60_000, &["ann"]), now_ms())
                .await
                .unwrap();
            let c = store.contest("cup").await.unwrap().unwrap();
            let seen = store.contest_version(&c).await.unwrap().0;

            let raw = <$pool>::connect(&url).await.unwrap();
            let mut a = raw.begin().await.unwrap();
            let bump =
                "UPDATE contests SET event_seq = event_seq + 1 WHERE id = $1 RETURNING event_seq";
            let seq_a: i64 = sqlx::query_scalar(bump)
                .bind(cup)
                .fetch_one(&mut *a)
                .await
                .unwrap();
            assert_eq!(seq_a, seen + 1);

            let b = {
                let store = store.clone();
                tokio::spawn(async move { store.ask(cup, Some(ann), None, "B?", now_ms()).await })
            };
            tokio::time::sleep(Duration::from_millis(300)).await;
            assert!(
                !b.is_finished(),
                "B committed while A held a smaller number"
            );
            assert!(events(&store, cup, seen, Reader::Admin).await.is_empty());

            sqlx::query(
                "INSERT INTO contest_events (contest_id, seq, kind, object_id, data, audience,
                                             team_id, at_ms)
                 VALUES ($1, $2, 'clarifications', 'a0', '{\"id\":\"a0\"}', 'all', NULL, 0)",
            )
            .bind(cup)
            .bind(seq_a)
            .execute(&mut *a)
            .await
            .unwrap();
            a.commit().await.unwrap();
            b.await.unwrap().unwrap();
            let got = events(&store, cup, seen, Reader::Admin).await;
            let seqs: Vec<i64> = got.iter().map(|e| e.seq).collect();
            assert_eq!(seqs, [seen + 1, seen + 2], "{got:?}");
            assert_eq!(got[0].id.as_deref(), Some("a0"));
            assert_eq!(got[1].data.as_ref().unwrap()["text"], "B?");
            raw.close().await;
            store.close().await;
        });
    }};
}

#[test]
fn crossing_writers_commit_in_number_order_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("grundy.db").display());
    crossing_writers!(sqlx::SqlitePool, url);
}

#[test]
fn crossing_writers_commit_in_number_order_on_postgres() {
    let Some(url) = crate::pg::database() else {
        return;
    };
    crossing_writers!(sqlx::PgPool, url);
}

//! Contests in the store, on both databases: a contest with its problems
//! and participants, its submissions as the scoreboard reads them, and
//! clarifications.

use grundy::contest::{Scoring, Team};
use grundy::judge::GroupReport;
use grundy::problem::Group;
use grundy::store::{Error, NewContest, Queue, Store};
use grundy::verdict::Verdict;

use super::{new, report, run, LEASE};
use crate::helpers::claim_own;

const HOUR_MS: i64 = 3_600_000;

fn contest(slug: &str, start_ms: i64, participants: Option<&[&str]>) -> NewContest {
    NewContest {
        slug: slug.into(),
        name: format!("Contest {slug}"),
        start_ms,
        duration_s: 7200,
        freeze_s: 1800,
        penalty_min: 20,
        scoring: Scoring::Ioi,
        medals: grundy::contest::Medals::default(),
        participants: participants.map(|p| p.iter().map(|s| s.to_string()).collect()),
        problems: vec![("A".into(), "nim".into()), ("B".into(), "kayles".into())],
        colors: Vec::new(),
    }
}

/// A WA that scores 30 of 100: its small group passed, its large one not.
fn small_only() -> grundy::judge::Report {
    let group = |name: &str, points, score, verdict, test: &str| GroupReport {
        name: Group::parse(name).unwrap(),
        points,
        score,
        verdict: Some(verdict),
        skipped: false,
        tests: vec![test.into()],
    };
    let mut r = report(Verdict::WA);
    r.score = 30;
    r.groups = vec![
        group("small", 30, 30, Verdict::AC, "01"),
        group("large", 70, 0, Verdict::WA, "02"),
    ];
    r
}

async fn a_contest_keeps_its_problems_participants_tries_and_clarifications(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let bob = store.add_user("bob", "h", false).await.unwrap();
    let root = store.add_user("root", "h", true).await.unwrap();
    let now = grundy::site::contests::now_ms();

    // Created, listed, and read back by slug with its settings.
    let id = store
        .create_contest(&contest("spring", now - HOUR_MS, Some(&["ann"])), now)
        .await
        .unwrap();
    let later = store
        .create_contest(&contest("autumn", now + HOUR_MS, None), now)
        .await
        .unwrap();
    let slugs: Vec<_> = store
        .contests()
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.slug)
        .collect();
    assert_eq!(slugs, ["autumn", "spring"], "latest start first");
    let spring = store.contest("spring").await.unwrap().unwrap();
    assert_eq!(spring.id, id);
    assert_eq!(spring.scoring, Scoring::Ioi);
    assert_eq!((spring.duration_s, spring.freeze_s), (7200, 1800));
    assert!(!spring.open_to_all && spring.board_public);
    let labels: Vec<_> = spring
        .problems
        .iter()
        .map(|p| (p.label.as_str(), p.slug.as_str()))
        .collect();
    assert_eq!(labels, [("A", "nim"), ("B", "kayles")]);
    assert!(store.contest("winter").await.unwrap().is_none());
    assert!(matches!(
        store.create_contest(&contest("spring", now, None), now).await,
        Err(Error::ContestExists(s)) if s == "spring"
    ));
    assert!(matches!(
        store.create_contest(&contest("summer", now, Some(&["zed"])), now).await,
        Err(Error::NoUser(n)) if n == "zed"
    ));
    assert!(
        store.contest("summer").await.unwrap().is_none(),
        "rolled back"
    );

    // Who takes part: the named ones in a closed contest; in an open
    // one every enabled account that is not an admin's.
    assert!(store.takes_part(&spring, ann).await.unwrap());
    assert!(!store.takes_part(&spring, bob).await.unwrap());
    let team = |id, name: &str| Team::new(id, name);
    assert_eq!(
        store.contest_teams(&spring).await.unwrap(),
        [team(ann, "ann")]
    );
    let autumn = store.contest("autumn").await.unwrap().unwrap();
    assert!(autumn.open_to_all);
    store.set_disabled("bob", true).await.unwrap();
    assert_eq!(
        store.contest_teams(&autumn).await.unwrap(),
        [team(ann, "ann")]
    );
    store.set_disabled("bob", false).await.unwrap();
    assert_eq!(
        store.contest_teams(&autumn).await.unwrap(),
        [team(ann, "ann"), team(bob, "bob")]
    );
    assert_eq!(store.hidden_problems(now).await.unwrap().len(), 2);
    assert_eq!(store.hiding_contests("nim", now).await.unwrap(), ["autumn"]);

    // Settings changed: bob joins, problem B goes.
    let mut changed = contest("spring", now - HOUR_MS, Some(&["ann", "bob"]));
    changed.problems.pop();
    changed.scoring = Scoring::Icpc;
    store.update_contest(id, &changed).await.unwrap();
    let spring = store.contest("spring").await.unwrap().unwrap();
    assert_eq!((spring.scoring, spring.problems.len()), (Scoring::Icpc, 1));
    assert!(store.takes_part(&spring, bob).await.unwrap());
    store.set_contest_frozen(id, Some(now)).await.unwrap();
    // No reveal while it runs (issue 39).
    assert!(matches!(
        store.set_contest_thawed(id, Some(now + 1)).await,
        Err(grundy::store::Error::Refused(..))
    ));
    store.set_board_public(id, false).await.unwrap();
    let spring = store.contest("spring").await.unwrap().unwrap();
    assert_eq!((spring.frozen_ms, spring.thawed_ms), (Some(now), None));
    assert!(!spring.board_public);

    // Two tries by ann: one judged with group scores, one still queued;
    // a practice submission stays out of the contest.
    let mut judged = new("nim");
    judged.user_id = Some(ann);
    let open = grundy::store::SubmitLimits {
        per_minute: 0,
        max_waiting: 0,
    };
    let mut tries = Vec::new();
    for _ in 0..2 {
        let s = store.insert_submission_within(judged.clone(), open, Some(id));
        tries.push(s.await.unwrap().expect("within the window"));
    }
    let (first, second) = (tries[0], tries[1]);
    let practice = store.enqueue(judged).await.unwrap();
    assert_eq!(store.contest_of_submission(first).await.unwrap(), Some(id));
    assert_eq!(store.contest_of_submission(practice).await.unwrap(), None);
    let lease = claim_own(&store, first, LEASE).await.unwrap();
    assert!(store.finish(lease, &small_only(), None).await.unwrap());

    let subs = store.contest_submissions(id, None).await.unwrap();
    let ids: Vec<_> = subs.iter().map(|s| (s.id, s.status.as_str())).collect();
    assert_eq!(ids, [(first, "done"), (second, "queued")]);
    assert!(store
        .contest_submissions(id, Some(bob))
        .await
        .unwrap()
        .is_empty());
    let attempts = store.contest_attempts(id).await.unwrap();
    assert_eq!(attempts.len(), 2);
    assert_eq!((attempts[0].id, attempts[0].team), (first, ann));
    assert_eq!(attempts[0].problem, "nim");
    assert!(
        (attempts[0].at_ms - now).abs() < HOUR_MS,
        "{}",
        attempts[0].at_ms
    );
    let result = attempts[0].result.as_ref().expect("judged");
    assert_eq!((result.verdict, result.score), (Verdict::WA, 30));
    assert_eq!(
        result.groups,
        [("small".to_string(), 30), ("large".to_string(), 0)]
    );
    assert!(attempts[1].result.is_none(), "not yet judged");
    let runs = store.contest_runs(id).await.unwrap();
    assert_eq!(
        runs,
        [(first, 0, "WA".to_string(), 12, "sample".to_string())]
    );
    assert!(store.contest_attempts(later).await.unwrap().is_empty());

    // A question asked, answered to its asker, then to all; bob sees it
    // only once it is answered to all; an announcement is seen by all.
    let q = store
        .ask(id, Some(ann), Some("A"), "Is 0 a move?", now)
        .await
        .unwrap();
    let note = store
        .ask(id, None, None, "Ten minutes left", now + 1)
        .await
        .unwrap();
    let seen =
        |v: Vec<grundy::store::Clarification>| v.into_iter().map(|c| c.id).collect::<Vec<_>>();
    assert_eq!(
        seen(store.clarifications(id, Some(bob)).await.unwrap()),
        [note]
    );
    assert!(store
        .answer(id, q, "No.", false, root, now + 2)
        .await
        .unwrap());
    assert_eq!(
        seen(store.clarifications(id, Some(bob)).await.unwrap()),
        [note]
    );
    assert_eq!(
        seen(store.clarifications(id, Some(ann)).await.unwrap()),
        [q, note]
    );
    assert!(store
        .answer(id, q, "No.", true, root, now + 3)
        .await
        .unwrap());
    assert_eq!(
        seen(store.clarifications(id, Some(bob)).await.unwrap()),
        [q, note]
    );
    assert!(!store
        .answer(later, q, "wrong contest", true, root, now)
        .await
        .unwrap());
    let all = store.clarifications(id, None).await.unwrap();
    assert_eq!(all.len(), 2);
    let c = &all[0];
    assert_eq!(
        (c.user.as_deref(), c.label.as_deref(), c.question.as_str()),
        (Some("ann"), Some("A"), "Is 0 a move?")
    );
    assert_eq!(
        (c.answer.as_deref(), c.to_all, c.answered_ms),
        (Some("No."), true, Some(now + 3))
    );
    assert_eq!((all[1].user_id, all[1].user.as_deref()), (None, None));
}

/// A contest's version (what cached boards and open event feeds check)
/// moves with every change they depend on and not otherwise; a try brought
/// in with its own time keeps it.
async fn a_contest_version_moves_with_what_its_board_reads(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let root = store.add_user("root", "h", true).await.unwrap();
    let now = grundy::site::contests::now_ms();
    let id = store
        .create_contest(&contest("spring", now - HOUR_MS, None), now)
        .await
        .unwrap();
    let spring = store.contest("spring").await.unwrap().unwrap();
    let mut last = store.contest_version(&spring).await.unwrap();
    assert_eq!(store.contest_version(&spring).await.unwrap(), last, "still");
    let mut moved = |why: &str, now: grundy::store::ContestVersion, moves: bool| {
        if moves {
            assert_ne!(now, last, "{why}");
        } else {
            assert_eq!(now, last, "{why}");
        }
        last = now;
    };
    let mut tried = new("nim");
    tried.user_id = Some(ann);
    let at = now - HOUR_MS + 61_000;
    let s = store
        .insert_contest_submission(tried, id, at)
        .await
        .unwrap();
    moved("a try", store.contest_version(&spring).await.unwrap(), true);
    let attempts = store.contest_attempts(id).await.unwrap();
    assert_eq!((attempts[0].id, attempts[0].at_ms), (s, at), "its own time");
    let lease = claim_own(&store, s, LEASE).await.unwrap();
    assert!(store
        .finish(lease, &report(Verdict::AC), None)
        .await
        .unwrap());
    moved(
        "judged",
        store.contest_version(&spring).await.unwrap(),
        true,
    );
    assert!(store.rejudge(s).await.unwrap());
    moved(
        "re-queued",
        store.contest_version(&spring).await.unwrap(),
        true,
    );
    store.add_user("bob", "h", false).await.unwrap();
    moved(
        "an account",
        store.contest_version(&spring).await.unwrap(),
        true,
    );
    store.set_disabled("bob", true).await.unwrap();
    moved(
        "disabled",
        store.contest_version(&spring).await.unwrap(),
        true,
    );
    // One account out and another in between two polls: as many as
    // before, and the version still moves (bob is back).
    store.set_disabled("bob", false).await.unwrap();
    store.set_disabled("ann", true).await.unwrap();
    moved(
        "swapped",
        store.contest_version(&spring).await.unwrap(),
        true,
    );
    // ann made a try: a team of the contest, disabled or not (as the
    // board and the API list it), so enabling her changes nothing there.
    store.set_disabled("ann", false).await.unwrap();
    moved(
        "ann stays",
        store.contest_version(&spring).await.unwrap(),
        false,
    );
    let q = store.ask(id, Some(ann), None, "?", now).await.unwrap();
    moved(
        "a question",
        store.contest_version(&spring).await.unwrap(),
        true,
    );
    assert!(store
        .answer(id, q, "!", false, root, now + 1)
        .await
        .unwrap());
    moved(
        "an answer",
        store.contest_version(&spring).await.unwrap(),
        true,
    );
}

/// Issue 44: a try is stamped with the instant its window is checked at.
/// Stamped by one expression of the clock and checked by another, a try
/// stamped exactly at `start + duration` was stored and counted (contest
/// time 0:00:07.000 in a 7 s contest). At the given instant: the end and
/// after are refused and store nothing; the start and the last millisecond
/// before the end are taken, stamped with that instant.
async fn a_try_is_stamped_and_checked_at_one_instant(store: Store) {
    use grundy::store::{OverLimit, SubmitLimits};
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let now = grundy::site::contests::now_ms();
    // A 7 s contest that starts on a whole second, as in the report.
    let start = now - now % 1000 - 60_000;
    let end = start + 7_000;
    let seven = NewContest {
        duration_s: 7,
        freeze_s: 0,
        ..contest("short", start, Some(&["ann"]))
    };
    let id = store.create_contest(&seven, now).await.unwrap();
    let limits = SubmitLimits {
        per_minute: 0,
        max_waiting: 0,
    };
    let mut tried = new("nim");
    tried.user_id = Some(ann);
    for at in [end, end + 1, start - 1] {
        let taken = store
            .insert_submission_at(tried.clone(), limits, Some(id), at)
            .await
            .unwrap();
        assert!(
            matches!(taken, Err(OverLimit::Closed)),
            "at {at}: {taken:?}"
        );
    }
    assert!(
        store.contest_attempts(id).await.unwrap().is_empty(),
        "a refused try stores nothing"
    );
    let mut taken = Vec::new();
    for at in [start, end - 1] {
        let s = store
            .insert_submission_at(tried.clone(), limits, Some(id), at)
            .await
            .unwrap()
            .unwrap_or_else(|why| panic!("at {at}: {why:?}"));
        taken.push((s, at));
    }
    let attempts: Vec<(i64, i64)> = store
        .contest_attempts(id)
        .await
        .unwrap()
        .iter()
        .map(|a| (a.id, a.at_ms))
        .collect();
    assert_eq!(
        attempts, taken,
        "each stamped with the instant it was checked at"
    );
}

/// Issue 46: a board kept between changes, brought up to date by the
/// tries each change names, is at every step the board computed afresh
/// from the whole history, for an admin, the public and a team: tries
/// made, judged (with group scores), sent back, judged again, one
/// withdrawn while it waits,
/// a team hidden and shown, an account added to an open contest.
async fn a_board_kept_between_changes_is_the_board_read_afresh(store: Store) {
    use grundy::contest::scoreboard::scoreboard;
    use grundy::contest::Viewer;
    use grundy::site::boards::Boards;
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let bob = store.add_user("bob", "h", false).await.unwrap();
    let now = grundy::site::contests::now_ms();
    let open = NewContest {
        freeze_s: 0,
        ..contest("kept", now - HOUR_MS, None)
    };
    let id = store.create_contest(&open, now).await.unwrap();
    let boards = Boards::default();
    let same = |why: &'static str| {
        let (store, boards) = (&store, &boards);
        async move {
            let c = store.contest("kept").await.unwrap().unwrap();
            let now = grundy::site::contests::now_ms();
            let teams = store.contest_teams(&c).await.unwrap();
            let attempts = store.contest_attempts(c.id).await.unwrap();
            for viewer in [Viewer::Admin, Viewer::Public, Viewer::Team(ann)] {
                let kept = boards.board(store, &c, viewer, now).await.unwrap();
                let afresh = scoreboard(&c, &teams, &attempts, viewer, now);
                assert_eq!(kept.board, afresh, "{why}, for {viewer:?}");
            }
        }
    };
    same("none yet").await;
    let try_of = |user: i64, problem: &'static str, at: i64| {
        let mut t = new(problem);
        t.user_id = Some(user);
        store.insert_contest_submission(t, id, at)
    };
    let first = try_of(ann, "nim", now - HOUR_MS + 60_000).await.unwrap();
    same("a try").await;
    let lease = claim_own(&store, first, LEASE).await.unwrap();
    assert!(store.finish(lease, &small_only(), None).await.unwrap());
    same("judged with groups").await;
    let second = try_of(bob, "kayles", now - HOUR_MS + 120_000)
        .await
        .unwrap();
    let third = try_of(ann, "kayles", now - HOUR_MS + 180_000)
        .await
        .unwrap();
    for s in [second, third] {
        let lease = claim_own(&store, s, LEASE).await.unwrap();
        assert!(store
            .finish(lease, &report(Verdict::AC), None)
            .await
            .unwrap());
    }
    same("two solves").await;
    assert!(store.rejudge(second).await.unwrap());
    same("sent back").await;
    let lease = claim_own(&store, second, LEASE).await.unwrap();
    assert!(store
        .finish(lease, &report(Verdict::WA), None)
        .await
        .unwrap());
    same("judged again").await;
    let waiting = try_of(bob, "nim", now - HOUR_MS + 200_000).await.unwrap();
    same("a try waiting").await;
    store
        .withdraw_try(id, waiting, "a broken test")
        .await
        .unwrap();
    same("withdrawn").await;
    assert!(store.set_hidden("bob", true).await.unwrap());
    same("a team hidden").await;
    assert!(store.set_hidden("bob", false).await.unwrap());
    same("shown again").await;
    let cid = store.add_user("cid", "h", false).await.unwrap();
    let fourth = try_of(cid, "nim", now - HOUR_MS + 240_000).await.unwrap();
    same("an account and its try").await;
    let lease = claim_own(&store, fourth, LEASE).await.unwrap();
    assert!(store
        .finish(lease, &report(Verdict::AC), None)
        .await
        .unwrap());
    same("its solve").await;
}

/// The awards a judgement appends, computed from the contest's tries as
/// the last judgement left them and brought up to date by the tries
/// changed since, are at every step the awards generated afresh from the
/// whole history, for the admins and the public: tries judged (with group
/// scores), sent back and judged again, a jury's own try (which the record
/// leaves out, so nothing but a count tells the kept tries it changed), a
/// try withdrawn, a team hidden.
async fn awards_kept_between_judgements_are_the_awards_read_afresh(store: Store) {
    use grundy::contest::awards::generate;
    use grundy::contest::scoreboard::scoreboard;
    use grundy::contest::Viewer;
    use grundy::store::Reader;
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let bob = store.add_user("bob", "h", false).await.unwrap();
    let jury = store.add_user("jury", "h", true).await.unwrap();
    let now = grundy::site::contests::now_ms();
    let listed = NewContest {
        freeze_s: 0,
        ..contest("awarded", now - HOUR_MS, Some(&["ann", "bob", "jury"]))
    };
    let id = store.create_contest(&listed, now).await.unwrap();
    let same = |why: &'static str| {
        let store = &store;
        async move {
            let c = store.contest("awarded").await.unwrap().unwrap();
            let now = grundy::site::contests::now_ms();
            let teams = store.contest_teams(&c).await.unwrap();
            let attempts = store.contest_attempts(c.id).await.unwrap();
            let groups = store.contest_team_groups(&c).await.unwrap();
            for (reader, viewer) in [
                (Reader::Admin, Viewer::Admin),
                (Reader::Public, Viewer::Public),
            ] {
                let mut recorded = store.contest_awards(id, reader).await.unwrap();
                let mut afresh =
                    generate(&c, &scoreboard(&c, &teams, &attempts, viewer, now), &groups);
                recorded.sort_by(|a, b| a.id.cmp(&b.id));
                afresh.sort_by(|a, b| a.id.cmp(&b.id));
                assert!(!afresh.is_empty(), "{why}: some award");
                assert_eq!(recorded, afresh, "{why}, for {viewer:?}");
            }
        }
    };
    let judged = |user: i64, problem: &'static str, at: i64, report: grundy::judge::Report| {
        let store = &store;
        async move {
            let mut t = new(problem);
            t.user_id = Some(user);
            let s = store.insert_contest_submission(t, id, at).await.unwrap();
            let lease = claim_own(store, s, LEASE).await.unwrap();
            assert!(store.finish(lease, &report, None).await.unwrap());
            s
        }
    };
    judged(ann, "nim", now - HOUR_MS + 60_000, small_only()).await;
    same("judged with groups").await;
    let bobs = judged(bob, "kayles", now - HOUR_MS + 120_000, report(Verdict::AC)).await;
    same("a solve").await;
    assert!(store.rejudge(bobs).await.unwrap());
    same("sent back").await;
    let lease = claim_own(&store, bobs, LEASE).await.unwrap();
    assert!(store
        .finish(lease, &report(Verdict::WA), None)
        .await
        .unwrap());
    same("judged again").await;
    // The jury's own try moves nothing the record tells; the next
    // judgement's awards count it all the same.
    judged(jury, "kayles", now - HOUR_MS + 150_000, report(Verdict::AC)).await;
    judged(ann, "kayles", now - HOUR_MS + 180_000, report(Verdict::WA)).await;
    same("after a jury's try").await;
    judged(bob, "nim", now - HOUR_MS + 200_000, report(Verdict::AC)).await;
    same("another solve").await;
    let mut waiting = new("nim");
    waiting.user_id = Some(ann);
    let waiting = store
        .insert_contest_submission(waiting, id, now - HOUR_MS + 210_000)
        .await
        .unwrap();
    store
        .withdraw_try(id, waiting, "a broken test")
        .await
        .unwrap();
    same("a waiting try withdrawn").await;
    assert!(store.set_hidden("bob", true).await.unwrap());
    judged(ann, "nim", now - HOUR_MS + 240_000, report(Verdict::AC)).await;
    same("a team hidden, then a solve").await;
}

on_both_databases!(
    a_board_kept_between_changes_is_the_board_read_afresh,
    awards_kept_between_judgements_are_the_awards_read_afresh,
    a_contest_keeps_its_problems_participants_tries_and_clarifications,
    a_contest_version_moves_with_what_its_board_reads,
    a_try_is_stamped_and_checked_at_one_instant,
);

/// What a contest's tries count ([`TALLY_AFRESH`], read over the tries)
/// against what its `contest_tallies` row says, which the database's
/// triggers keep as tries are written.
macro_rules! tallies_kept_by_triggers {
    ($pool:ty, $url:expr) => {{
        let url: String = $url;
        run(&url.clone(), |store| async move {
            let raw = <$pool>::connect(&url).await.unwrap();
            let ann = store.add_user("ann", "h", false).await.unwrap();
            let bob = store.add_user("bob", "h", false).await.unwrap();
            let jury = store.add_user("jury", "h", true).await.unwrap();
            let now = grundy::site::contests::now_ms();
            let id = store
                .create_contest(
                    &contest("tallied", now - HOUR_MS, Some(&["ann", "bob", "jury"])),
                    now,
                )
                .await
                .unwrap();
            let same = |why: &'static str| {
                let raw = &raw;
                async move {
                    let kept: Option<(i64, i64, i64, i64, i64)> = sqlx::query_as(
                        "SELECT tries, judged, accepted, compile_errors, score
                         FROM contest_tallies WHERE contest_id = $1",
                    )
                    .bind(id)
                    .fetch_optional(raw)
                    .await
                    .unwrap();
                    let afresh: (i64, i64, i64, i64, i64) = sqlx::query_as(TALLY_AFRESH)
                        .bind(id)
                        .fetch_one(raw)
                        .await
                        .unwrap();
                    assert_eq!(kept.unwrap_or_default(), afresh, "{why}");
                    afresh
                }
            };
            assert_eq!(same("no try yet").await, (0, 0, 0, 0, 0));
            let made = |user: i64, at: i64| {
                let store = &store;
                async move {
                    let mut t = new("nim");
                    t.user_id = Some(user);
                    store.insert_contest_submission(t, id, at).await.unwrap()
                }
            };
            let first = made(ann, now - HOUR_MS + 60_000).await;
            same("made").await;
            let lease = claim_own(&store, first, LEASE).await.unwrap();
            same("claimed").await;
            assert!(store.finish(lease, &small_only(), None).await.unwrap());
            assert_eq!(same("judged").await, (1, 1, 0, 0, 30));
            let second = made(bob, now - HOUR_MS + 90_000).await;
            let lease = claim_own(&store, second, LEASE).await.unwrap();
            assert!(store
                .finish(lease, &report(Verdict::CE), None)
                .await
                .unwrap());
            same("a compile error").await;
            assert!(store.rejudge(second).await.unwrap());
            same("sent back").await;
            let lease = claim_own(&store, second, LEASE).await.unwrap();
            assert!(store
                .finish(lease, &report(Verdict::AC), None)
                .await
                .unwrap());
            assert_eq!(same("judged again").await, (2, 2, 1, 0, 130));
            // The jury's own try, which the record leaves out, counts.
            let jurys = made(jury, now - HOUR_MS + 100_000).await;
            let lease = claim_own(&store, jurys, LEASE).await.unwrap();
            assert!(store
                .finish(lease, &report(Verdict::AC), None)
                .await
                .unwrap());
            assert_eq!(same("a jury's try").await, (3, 3, 2, 0, 230));
            let waiting = made(ann, now - HOUR_MS + 120_000).await;
            same("one waiting").await;
            store
                .withdraw_try(id, waiting, "a broken test")
                .await
                .unwrap();
            assert_eq!(same("withdrawn").await, (3, 3, 2, 0, 230));
            // A practice submission is no try of it.
            let mut practice = new("nim");
            practice.user_id = Some(ann);
            store.insert_submission(practice).await.unwrap();
            same("practice").await;
            raw.close().await;
        });
    }};
}

/// What a contest's tries count, read over them all: what
/// `contest_tallies` must say.
const TALLY_AFRESH: &str = "SELECT COUNT(*),
        COUNT(CASE WHEN status = 'done' AND verdict IS NOT NULL THEN 1 END),
        COUNT(CASE WHEN status = 'done' AND verdict = 'AC' THEN 1 END),
        COUNT(CASE WHEN status = 'done' AND verdict = 'CE' THEN 1 END),
        CAST(COALESCE(SUM(CASE WHEN status = 'done' AND verdict IS NOT NULL
                               THEN score END), 0) AS BIGINT)
     FROM submissions
     WHERE contest_id = $1 AND user_id IS NOT NULL AND withdrawn_reason IS NULL";

/// A contest's tally, kept by triggers as its tries are made, judged,
/// sent back, withdrawn (and a jury's try, which the record leaves out),
/// is at every step what its tries count.
#[test]
fn a_contests_tally_is_what_its_tries_count_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("grundy.db").display());
    tallies_kept_by_triggers!(sqlx::SqlitePool, url);
}

#[test]
fn a_contests_tally_is_what_its_tries_count_on_postgres() {
    let Some(url) = crate::pg::database() else {
        return;
    };
    tallies_kept_by_triggers!(sqlx::PgPool, url);
}

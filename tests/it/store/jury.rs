//! A contest's results are one truth whatever the jury does (issue 43), on
//! both databases: extending a contest during its freeze keeps the freeze
//! where it began; moving a begun freeze later reveals, in the record, what
//! it no longer hides, and moving it earlier is refused; a contest whose
//! results are final is never rejudged; a jury's try makes no team; the
//! REST objects are the record replayed; and the clock writes a contest's
//! moments with no reader there.

use std::time::Duration;

use grundy::contest::{clics, Scoring, Viewer};
use grundy::store::{Error, Event, NewContest, Queue, Reader, Store, SubmitLimits};
use grundy::verdict::Verdict;

use super::{judged_at, new, report, run, LEASE};

const NO_LIMITS: SubmitLimits = SubmitLimits {
    per_minute: 0,
    max_waiting: 0,
};

fn now_ms() -> i64 {
    grundy::site::contests::now_ms()
}

/// A two-hour ICPC contest started `ago` ms ago, frozen for its last
/// `freeze_s` seconds, with `participants` (`None`: open to all).
pub(super) fn contest(
    slug: &str,
    start_ms: i64,
    freeze_s: i64,
    participants: Option<&[&str]>,
) -> NewContest {
    NewContest {
        slug: slug.into(),
        name: slug.into(),
        start_ms,
        duration_s: 7200,
        freeze_s,
        penalty_min: 20,
        scoring: Scoring::Icpc,
        medals: grundy::contest::Medals::default(),
        participants: participants.map(|p| p.iter().map(|s| s.to_string()).collect()),
        problems: vec![("A".into(), "nim".into())],
        colors: Vec::new(),
    }
}

async fn events(store: &Store, contest: i64, after: i64, reader: Reader) -> Vec<Event> {
    store
        .contest_events(contest, after, reader, 100_000)
        .await
        .unwrap()
}

/// Whether `events` hold the judgement of try `id`.
fn has_judgement(events: &[Event], id: i64) -> bool {
    events
        .iter()
        .any(|e| e.kind == "judgements" && e.id.as_deref() == Some(&id.to_string()))
}

fn last(events: &[Event]) -> i64 {
    events.last().map_or(0, |e| e.seq)
}

/// Extended by half an hour ten minutes into its freeze, a contest stays
/// frozen from where the freeze began: the public reads no result sealed
/// since, neither in the record nor by the freeze's rule.
async fn extending_a_contest_during_its_freeze_keeps_the_freeze(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let start = now_ms() - 6_000_000;
    let settings = contest("ext", start, 1800, Some(&["ann"]));
    let id = store.create_contest(&settings, now_ms()).await.unwrap();
    store.catch_up_contest(id).await.unwrap();
    let c = store.contest_by_id(id).await.unwrap().unwrap();
    let froze = c.freeze_ms().unwrap();
    assert!(c.is_frozen(now_ms()));
    let sealed = judged_at(&store, ann, id, now_ms() - 60_000, Verdict::AC).await;
    let seen = last(&events(&store, id, 0, Reader::Public).await);

    let longer = NewContest {
        duration_s: 7200 + 1800,
        ..settings.clone()
    };
    store.update_contest(id, &longer).await.unwrap();
    let c = store.contest_by_id(id).await.unwrap().unwrap();
    assert_eq!(
        c.freeze_ms(),
        Some(froze),
        "the freeze stays where it began"
    );
    assert!(c.is_frozen(now_ms()), "still frozen");
    assert!(c.hides(Viewer::Public, Some(ann), now_ms() - 60_000, now_ms()));
    let public = events(&store, id, seen, Reader::Public).await;
    assert!(!has_judgement(&public, sealed), "{public:?}");
    let state = public.iter().rev().find(|e| e.kind == "state").unwrap();
    assert!(
        !state.data.as_ref().unwrap()["frozen"].is_null(),
        "{state:?}"
    );
    // Shortened by ten minutes (the freeze as the settings now show it),
    // still frozen from the same moment.
    let shorter = NewContest {
        duration_s: 7200 - 600,
        freeze_s: c.freeze_s,
        ..settings
    };
    store.update_contest(id, &shorter).await.unwrap();
    let c = store.contest_by_id(id).await.unwrap().unwrap();
    assert_eq!(c.freeze_ms(), Some(froze));
}

/// A begun freeze moved later reveals what it no longer hides, in the
/// record, to everyone who had not read it, and keeps sealed what it still
/// hides; removed, it reveals the rest; moved earlier, it is refused.
async fn moving_a_begun_freeze_reveals_what_it_no_longer_hides(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let bob = store.add_user("bob", "h", false).await.unwrap();
    let start = now_ms() - 6_000_000;
    // Frozen for the last 30 minutes: since 10 minutes ago.
    let settings = contest("mv", start, 1800, Some(&["ann", "bob"]));
    let id = store.create_contest(&settings, now_ms()).await.unwrap();
    store.catch_up_contest(id).await.unwrap();
    let early = judged_at(&store, ann, id, now_ms() - 480_000, Verdict::AC).await;
    let late = judged_at(&store, ann, id, now_ms() - 60_000, Verdict::WA).await;
    let public = events(&store, id, 0, Reader::Public).await;
    assert!(!has_judgement(&public, early) && !has_judgement(&public, late));
    let (public_seen, bob_seen) = (
        last(&public),
        last(&events(&store, id, 0, Reader::Team(bob)).await),
    );
    let ann_seen = last(&events(&store, id, 0, Reader::Team(ann)).await);

    // Earlier than it began: refused, nothing changes.
    let earlier = NewContest {
        freeze_s: 2400,
        ..settings.clone()
    };
    match store.update_contest(id, &earlier).await {
        Err(Error::Refused(_, why)) => assert!(why.contains("earlier"), "{why}"),
        other => panic!("moved earlier: {other:?}"),
    }

    // Five minutes later: the early try (8 minutes ago) is revealed.
    let later = NewContest {
        freeze_s: 1500,
        ..settings.clone()
    };
    store.update_contest(id, &later).await.unwrap();
    let public = events(&store, id, public_seen, Reader::Public).await;
    assert!(has_judgement(&public, early), "{public:?}");
    assert!(!has_judgement(&public, late), "still sealed");
    assert!(has_judgement(
        &events(&store, id, bob_seen, Reader::Team(bob)).await,
        early
    ));
    assert!(
        !has_judgement(
            &events(&store, id, ann_seen, Reader::Team(ann)).await,
            early
        ),
        "the team read its own already"
    );
    // Removed: the rest.
    let public_seen = last(&public);
    let none = NewContest {
        freeze_s: 0,
        ..settings
    };
    store.update_contest(id, &none).await.unwrap();
    let public = events(&store, id, public_seen, Reader::Public).await;
    assert!(has_judgement(&public, late), "{public:?}");
    assert!(!has_judgement(&public, early), "revealed once");
    // REST is the record replayed: the public's judgements hold both.
    let judgements = store
        .contest_objects(id, Reader::Public, "judgements")
        .await
        .unwrap();
    let ids: Vec<_> = judgements.iter().filter_map(|e| e.id.clone()).collect();
    assert_eq!(ids, [early.to_string(), late.to_string()]);
}

/// After the finalize a contest's tries are never rejudged: one by id is
/// refused, a problem's rejudge leaves them and says how many; nor do an
/// import or an account change touch its teams: its record does not move.
async fn a_final_contest_is_never_rejudged(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let start = now_ms() - 3 * 3_600_000;
    let id = store
        .create_contest(&contest("fin", start, 1800, Some(&["ann"])), now_ms())
        .await
        .unwrap();
    let tried = judged_at(&store, ann, id, start + 600_000, Verdict::WA).await;
    // A practice try of the same problem.
    let practice = store.enqueue(new("nim")).await.unwrap();
    let lease = crate::helpers::claim_own(&store, practice, LEASE)
        .await
        .unwrap();
    assert!(store
        .finish(lease, &report(Verdict::AC), None)
        .await
        .unwrap());
    store.finalize_contest(id).await.unwrap();
    let c = store.contest_by_id(id).await.unwrap().unwrap();
    let version = store.contest_version(&c).await.unwrap();

    match store.rejudge(tried).await {
        Err(Error::Refused(slug, why)) => {
            assert_eq!(slug, "fin");
            assert!(why.contains("final"), "{why}");
        }
        other => panic!("rejudged a final try: {other:?}"),
    }
    let done = store.rejudge_problem("nim").await.unwrap();
    assert_eq!((done.queued, done.final_kept), (1, 1));
    let s = store.get(tried).await.unwrap().unwrap();
    assert_eq!(s.report.unwrap().verdict, Verdict::WA, "left as it was");
    assert_eq!(store.contest_version(&c).await.unwrap(), version);
    // Frozen still (finalized, not thawed): an import and an account
    // change leave its teams as they were.
    let teams_before = store
        .contest_objects(id, Reader::Public, "teams")
        .await
        .unwrap();
    let mut sheet = grundy::contest::affiliation::Affiliations::default();
    sheet
        .add_csv(
            "teams.csv",
            "team,organization,country,groups\nann,Heap University,NLD,Division 1\n",
        )
        .unwrap();
    store.import_affiliations(&sheet).await.unwrap();
    store.set_disabled("ann", true).await.unwrap();
    assert_eq!(store.contest_version(&c).await.unwrap(), version);
    assert_eq!(
        store
            .contest_objects(id, Reader::Public, "teams")
            .await
            .unwrap(),
        teams_before
    );
}

/// A jury's try in a contest open to all makes no team: the admin is not
/// among its teams and the record holds no submission of theirs.
async fn a_jury_try_makes_no_team(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let root = store.add_user("root", "h", true).await.unwrap();
    let id = store
        .create_contest(&contest("open", now_ms() - 60_000, 0, None), now_ms())
        .await
        .unwrap();
    let mut jury = new("nim");
    jury.user_id = Some(root);
    let jury_try = store
        .insert_submission_within(jury, NO_LIMITS, Some(id))
        .await
        .unwrap()
        .expect("taken");
    let mut team = new("nim");
    team.user_id = Some(ann);
    let team_try = store
        .insert_submission_within(team, NO_LIMITS, Some(id))
        .await
        .unwrap()
        .expect("taken");
    let c = store.contest_by_id(id).await.unwrap().unwrap();
    let teams: Vec<i64> = store
        .contest_teams(&c)
        .await
        .unwrap()
        .iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(teams, [ann]);
    let submissions: Vec<String> = store
        .contest_objects(id, Reader::Admin, "submissions")
        .await
        .unwrap()
        .into_iter()
        .filter_map(|e| e.id)
        .collect();
    assert_eq!(submissions, [team_try.to_string()], "not {jury_try}");
    let team_ids: Vec<String> = store
        .contest_objects(id, Reader::Admin, "teams")
        .await
        .unwrap()
        .into_iter()
        .filter_map(|e| e.id)
        .collect();
    assert_eq!(team_ids, [ann.to_string()]);
}

/// An admin listed among a contest's participants is one of its teams:
/// the record tells its tries as it tells every team's, so the kept
/// boards, brought up by the record's changes, show what a board
/// computed whole shows.
async fn a_listed_admin_is_a_team_whose_tries_the_record_tells(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let root = store.add_user("root", "h", true).await.unwrap();
    let start = now_ms() - 600_000;
    let id = store
        .create_contest(
            &contest("listed", start, 0, Some(&["ann", "root"])),
            now_ms(),
        )
        .await
        .unwrap();
    let c = store.contest_by_id(id).await.unwrap().unwrap();
    let boards = grundy::site::boards::Boards::default();
    let solved = |shown: &grundy::site::boards::Shown, user: i64| {
        shown
            .board
            .rows
            .iter()
            .find(|r| r.team.id == user)
            .map(|r| r.solved)
    };
    let before = boards
        .board(&store, &c, Viewer::Admin, now_ms())
        .await
        .unwrap();
    assert_eq!(solved(&before, root), Some(0), "the listed admin is a team");

    let tried = judged_at(&store, root, id, start + 60_000, Verdict::AC).await;
    judged_at(&store, ann, id, start + 120_000, Verdict::WA).await;
    let admin = events(&store, id, 0, Reader::Admin).await;
    assert!(
        admin
            .iter()
            .any(|e| e.kind == "submissions" && e.id.as_deref() == Some(&tried.to_string())),
        "the record tells the listed admin's try"
    );
    assert!(has_judgement(&admin, tried));
    let kept = boards
        .board(&store, &c, Viewer::Admin, now_ms())
        .await
        .unwrap();
    let whole = grundy::site::boards::Boards::default()
        .board(&store, &c, Viewer::Admin, now_ms())
        .await
        .unwrap();
    assert_eq!(solved(&whole, root), Some(1));
    assert_eq!(
        solved(&kept, root),
        Some(1),
        "the kept board is brought up with it"
    );
    assert_eq!(kept.board.rows, whole.board.rows);
}

/// The ids of the objects of endpoint `kind` that `reader` holds, as REST
/// and a feed read to its end give them.
async fn held(store: &Store, cid: i64, reader: Reader, kind: &str) -> Vec<String> {
    store
        .contest_objects(cid, reader, kind)
        .await
        .unwrap()
        .into_iter()
        .filter_map(|e| e.id)
        .collect()
}

/// The board kept across the changes equals the one computed whole, and
/// `user`'s row there solved `solved` (`None`: no row).
async fn boards_agree(
    store: &Store,
    boards: &grundy::site::boards::Boards,
    cid: i64,
    user: i64,
    solved: Option<u32>,
) {
    let c = store.contest_by_id(cid).await.unwrap().unwrap();
    let kept = boards
        .board(store, &c, Viewer::Admin, now_ms())
        .await
        .unwrap();
    let whole = grundy::site::boards::Boards::default()
        .board(store, &c, Viewer::Admin, now_ms())
        .await
        .unwrap();
    assert_eq!(kept.board.rows, whole.board.rows);
    let row = whole.board.rows.iter().find(|r| r.team.id == user);
    assert_eq!(row.map(|r| r.solved), solved);
}

/// An admin taken off a contest's list is no team of it any more (a jury's
/// tries make none) and takes its tries from every reader of the record
/// with it: no reader holds a submission of a team that is not there.
/// Listed again, it brings them back with their results. The record and
/// the boards agree throughout.
async fn an_admin_taken_off_the_list_takes_its_tries_with_it(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let root = store.add_user("root", "h", true).await.unwrap();
    let start = now_ms() - 600_000;
    let both = contest("list", start, 0, Some(&["ann", "root"]));
    let id = store.create_contest(&both, now_ms()).await.unwrap();
    let boards = grundy::site::boards::Boards::default();
    let tried = judged_at(&store, root, id, start + 60_000, Verdict::AC).await;
    judged_at(&store, ann, id, start + 120_000, Verdict::WA).await;
    boards_agree(&store, &boards, id, root, Some(1)).await;

    store
        .update_contest(id, &contest("list", start, 0, Some(&["ann"])))
        .await
        .unwrap();
    for reader in [Reader::Admin, Reader::Public, Reader::Team(ann)] {
        for kind in ["submissions", "judgements", "runs"] {
            let ids = held(&store, id, reader, kind).await;
            assert!(
                !ids.is_empty() && ids.iter().all(|o| clics::try_of(o) != Some(tried)),
                "{reader:?} holds {kind} of ann's try and none of root's {tried}: {ids:?}"
            );
        }
        assert_eq!(held(&store, id, reader, "teams").await, [ann.to_string()]);
    }
    boards_agree(&store, &boards, id, root, None).await;

    store.update_contest(id, &both).await.unwrap();
    for reader in [Reader::Admin, Reader::Public] {
        assert!(
            held(&store, id, reader, "submissions")
                .await
                .contains(&tried.to_string()),
            "{reader:?} is told root's try again"
        );
        let judgements = store
            .contest_objects(id, reader, "judgements")
            .await
            .unwrap();
        let told = judgements
            .iter()
            .find(|e| e.data.as_ref().unwrap()["submission_id"] == tried.to_string().as_str());
        assert_eq!(
            told.map(|e| e.data.as_ref().unwrap()["judgement_type_id"].clone()),
            Some(serde_json::json!("AC")),
            "{reader:?} reads its result again: {judgements:?}"
        );
        assert!(held(&store, id, reader, "runs")
            .await
            .iter()
            .any(|o| clics::try_of(o) == Some(tried)));
    }
    boards_agree(&store, &boards, id, root, Some(1)).await;
}

/// A team of a contest open to all that is made an admin is no team of it
/// any more and takes its tries from every reader of the record with it;
/// made a team again, it brings them back with their results.
async fn a_team_made_admin_takes_its_tries_with_it(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let bob = store.add_user("bob", "h", false).await.unwrap();
    let start = now_ms() - 600_000;
    let id = store
        .create_contest(&contest("open", start, 0, None), now_ms())
        .await
        .unwrap();
    let boards = grundy::site::boards::Boards::default();
    let tried = judged_at(&store, ann, id, start + 60_000, Verdict::AC).await;
    judged_at(&store, bob, id, start + 120_000, Verdict::WA).await;
    boards_agree(&store, &boards, id, ann, Some(1)).await;

    store.set_admin("ann", true).await.unwrap();
    for reader in [Reader::Admin, Reader::Public] {
        let ids = held(&store, id, reader, "submissions").await;
        assert_eq!(ids, [(tried + 1).to_string()], "{reader:?}: only bob's try");
        assert!(held(&store, id, reader, "judgements")
            .await
            .iter()
            .all(|o| clics::try_of(o) != Some(tried)));
        assert_eq!(held(&store, id, reader, "teams").await, [bob.to_string()]);
    }
    boards_agree(&store, &boards, id, ann, None).await;

    store.set_admin("ann", false).await.unwrap();
    for reader in [Reader::Admin, Reader::Public] {
        let submissions = held(&store, id, reader, "submissions").await;
        assert!(submissions.contains(&tried.to_string()), "{reader:?}");
        let events = events(&store, id, 0, reader).await;
        assert!(has_judgement(&events, tried), "{reader:?}");
    }
    boards_agree(&store, &boards, id, ann, Some(1)).await;
}

/// An admin's jury try, made before the admin was listed among the
/// contest's participants, is told once the admin is: the admin is a
/// team, and the record and the boards show its try alike.
async fn an_admin_listed_later_brings_the_tries_made_before(store: Store) {
    store.add_user("ann", "h", false).await.unwrap();
    let root = store.add_user("root", "h", true).await.unwrap();
    let start = now_ms() - 600_000;
    let id = store
        .create_contest(&contest("later", start, 0, Some(&["ann"])), now_ms())
        .await
        .unwrap();
    let boards = grundy::site::boards::Boards::default();
    let jury = judged_at(&store, root, id, start + 60_000, Verdict::AC).await;
    assert!(!held(&store, id, Reader::Admin, "submissions")
        .await
        .contains(&jury.to_string()));
    boards_agree(&store, &boards, id, root, None).await;

    store
        .update_contest(id, &contest("later", start, 0, Some(&["ann", "root"])))
        .await
        .unwrap();
    for reader in [Reader::Admin, Reader::Public] {
        assert_eq!(
            held(&store, id, reader, "submissions").await,
            [jury.to_string()],
            "{reader:?}"
        );
        let events = events(&store, id, 0, reader).await;
        assert!(has_judgement(&events, jury), "{reader:?}");
    }
    boards_agree(&store, &boards, id, root, Some(1)).await;
}

/// The clock appends a contest's start (its state and its problems for
/// everyone) at its time, with no reader to catch the record up.
async fn the_clock_writes_the_start_with_nobody_reading(store: Store) {
    store.add_user("ann", "h", false).await.unwrap();
    let start = now_ms() + 1_500;
    let id = store
        .create_contest(&contest("clock", start, 0, Some(&["ann"])), now_ms())
        .await
        .unwrap();
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let clock = tokio::spawn(grundy::site::clock::run(store.clone(), stopped));
    let mut started = None;
    for _ in 0..200 {
        let public = events(&store, id, 0, Reader::Public).await;
        started = public
            .iter()
            .find(|e| e.kind == "state" && !e.data.as_ref().unwrap()["started"].is_null())
            .map(|e| e.seq);
        if let Some(at) = started {
            // The problems reach everyone with the start.
            assert!(
                public.iter().any(|e| e.kind == "problems" && e.seq < at),
                "{public:?}"
            );
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    stop.send_replace(true);
    clock.await.unwrap();
    assert!(started.is_some(), "no `started` within 20 s");
}

on_both_databases!(
    extending_a_contest_during_its_freeze_keeps_the_freeze,
    moving_a_begun_freeze_reveals_what_it_no_longer_hides,
    a_final_contest_is_never_rejudged,
    a_jury_try_makes_no_team,
    a_listed_admin_is_a_team_whose_tries_the_record_tells,
    an_admin_taken_off_the_list_takes_its_tries_with_it,
    an_admin_listed_later_brings_the_tries_made_before,
    a_team_made_admin_takes_its_tries_with_it,
    the_clock_writes_the_start_with_nobody_reading,
);

/// Every writer of several contests locks them in one order: a problem's
/// rejudge (tries in two contests, the later contest's made first) and
/// account changes (which write every contest open to all) run together
/// on PostgreSQL without a deadlock.
#[test]
fn a_rejudge_and_account_changes_together_never_deadlock_on_postgres() {
    let Some(url) = crate::pg::database() else {
        return;
    };
    run(&url, |store: Store| async move {
        let ann = store.add_user("ann", "h", false).await.unwrap();
        store.add_user("bob", "h", false).await.unwrap();
        let start = now_ms() - 60_000;
        let first = store
            .create_contest(&contest("one", start, 0, None), now_ms())
            .await
            .unwrap();
        let second = store
            .create_contest(&contest("two", start, 0, None), now_ms())
            .await
            .unwrap();
        for cid in [second, first, second, first] {
            let mut try_ = new("nim");
            try_.user_id = Some(ann);
            let id = store
                .insert_submission_within(try_, NO_LIMITS, Some(cid))
                .await
                .unwrap()
                .expect("taken");
            let lease = crate::helpers::claim_own(&store, id, LEASE).await.unwrap();
            assert!(store
                .finish(lease, &report(Verdict::WA), None)
                .await
                .unwrap());
        }
        let rejudges = {
            let store = store.clone();
            tokio::spawn(async move {
                for _ in 0..30 {
                    store.rejudge_problem("nim").await.expect("rejudge");
                    // Judged again, to be rejudged again.
                    while let Some(claim) = crate::helpers::claim_any(&store, LEASE).await {
                        store
                            .finish(claim.lease, &report(Verdict::WA), None)
                            .await
                            .expect("finish");
                    }
                }
            })
        };
        for i in 0..60 {
            store
                .set_disabled("bob", i % 2 == 0)
                .await
                .expect("account change");
        }
        rejudges.await.expect("no deadlock");
    });
}

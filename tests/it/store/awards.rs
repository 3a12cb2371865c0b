//! A contest's awards in its record (issue 39), on both databases: the
//! finalize appends them, computed inside its own transaction, before its
//! state and for the admins only while the freeze hides results; a change
//! after it is appended in its transaction; the unfreeze appends the
//! latest of each for everyone else; once the updates ended nothing
//! changes.

use grundy::contest::awards::AwardEdit;
use grundy::contest::{Medals, Scoring};
use grundy::store::{AwardChange, Event, NewContest, Queue as _, Reader, Store, SubmitLimits};
use grundy::verdict::Verdict;

use super::{new, report, run, LEASE};

fn now_ms() -> i64 {
    grundy::site::contests::now_ms()
}

/// A two-hour contest started `ago` ms ago, frozen for its last 30
/// minutes, one gold medal only.
fn contest(ago: i64) -> NewContest {
    NewContest {
        slug: "cup".into(),
        name: "Cup".into(),
        start_ms: now_ms() - ago,
        duration_s: 7200,
        freeze_s: 1800,
        penalty_min: 20,
        scoring: Scoring::Icpc,
        medals: Medals {
            gold: 1,
            silver: 0,
            bronze: 0,
        },
        participants: Some(vec!["ann".into(), "bob".into()]),
        problems: vec![("A".into(), "nim".into())],
        colors: Vec::new(),
    }
}

fn set(id: &str, citation: &str, teams: Option<Vec<String>>) -> AwardChange {
    AwardChange::Set(AwardEdit {
        id: id.into(),
        citation: citation.into(),
        team_ids: teams,
    })
}

async fn awards(store: &Store, contest: i64, after: i64, reader: Reader) -> Vec<Event> {
    store
        .contest_events(contest, after, reader, 10_000)
        .await
        .unwrap()
        .into_iter()
        .filter(|e| e.kind == "awards")
        .collect()
}

async fn the_finalize_writes_the_awards_and_the_thaw_reveals_them(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let bob = store.add_user("bob", "h", false).await.unwrap();
    // Started 100 minutes ago: frozen since 10 minutes ago; ann solves.
    let cup = store
        .create_contest(&contest(6_000_000), now_ms())
        .await
        .unwrap();
    let mut mine = new("nim");
    mine.user_id = Some(ann);
    let open = SubmitLimits {
        per_minute: 0,
        max_waiting: 0,
    };
    let id = store
        .insert_submission_within(mine, open, Some(cup))
        .await
        .unwrap()
        .expect("open");
    let lease = crate::helpers::claim_own(&store, id, LEASE).await.unwrap();
    assert!(store
        .finish(lease, &report(Verdict::AC), None)
        .await
        .unwrap());
    // Before the finalize, a change is kept and not in the record.
    let champion = set("winner", "Champion", None);
    assert!(store.change_contest_award(cup, &champion).await.unwrap());
    assert!(awards(&store, cup, 0, Reader::Admin).await.is_empty());
    let wrong = store
        .change_contest_award(cup, &set("special", "Spirit", Some(vec!["999".into()])))
        .await;
    match wrong {
        Err(grundy::store::Error::Refused(_, why)) => assert!(why.contains("no team 999"), "{why}"),
        other => panic!("an unknown team: {other:?}"),
    }

    // The end, then the finalize: the awards before its state, for admins.
    store
        .update_contest(cup, &contest(7_300_000))
        .await
        .unwrap();
    store.finalize_contest(cup).await.unwrap();
    let all = store
        .contest_events(cup, 0, Reader::Admin, 10_000)
        .await
        .unwrap();
    let first = all.iter().position(|e| e.kind == "awards").expect("awards");
    assert_eq!(all.last().unwrap().kind, "state");
    assert!(all[first..all.len() - 1].iter().all(|e| e.kind == "awards"));
    let winner = all
        .iter()
        .find(|e| e.id.as_deref() == Some("winner"))
        .and_then(|e| e.data.clone())
        .unwrap();
    assert_eq!(winner["citation"], "Champion");
    assert_eq!(winner["team_ids"], serde_json::json!([ann.to_string()]));
    assert!(awards(&store, cup, 0, Reader::Public).await.is_empty());
    assert!(awards(&store, cup, 0, Reader::Team(bob)).await.is_empty());
    assert!(
        store
            .set_contest_medals(cup, Medals::default())
            .await
            .is_err(),
        "final: the medals no longer change"
    );

    // Changes after it: each appended at once; an own award added, then
    // removed (a delete).
    let head = all.last().unwrap().seq;
    store
        .change_contest_award(cup, &set("gold-medal", "Gold", None))
        .await
        .unwrap();
    store
        .change_contest_award(cup, &set("special", "Spirit", Some(vec![bob.to_string()])))
        .await
        .unwrap();
    assert!(store
        .change_contest_award(cup, &AwardChange::Remove("special".into()))
        .await
        .unwrap());
    let later = awards(&store, cup, head, Reader::Admin).await;
    let seen: Vec<(Option<&str>, bool)> = later
        .iter()
        .map(|e| (e.id.as_deref(), e.data.is_some()))
        .collect();
    assert_eq!(
        seen,
        [
            (Some("gold-medal"), true),
            (Some("special"), true),
            (Some("special"), false)
        ]
    );

    // The thaw: the latest of each for everyone else, before its state.
    let public_head = store
        .contest_events(cup, 0, Reader::Public, 10_000)
        .await
        .unwrap()
        .last()
        .unwrap()
        .seq;
    store.set_contest_thawed(cup, Some(now_ms())).await.unwrap();
    let revealed = store
        .contest_events(cup, public_head, Reader::Public, 10_000)
        .await
        .unwrap();
    assert_eq!(revealed.last().unwrap().kind, "state");
    let shown: Vec<&Event> = revealed.iter().filter(|e| e.kind == "awards").collect();
    assert!(!shown.iter().any(|e| e.id.as_deref() == Some("special")));
    let gold = shown
        .iter()
        .find(|e| e.id.as_deref() == Some("gold-medal"))
        .and_then(|e| e.data.clone())
        .unwrap();
    assert_eq!(gold["citation"], "Gold");
    assert_eq!(gold["team_ids"], serde_json::json!([ann.to_string()]));
    assert!(shown.iter().any(|e| e.id.as_deref() == Some("winner")));
    // The admins read them once, before.
    assert!(
        awards(&store, cup, later.last().unwrap().seq, Reader::Admin)
            .await
            .is_empty()
    );
    // The updates ended: no change any more.
    let late = store
        .change_contest_award(cup, &set("winner", "Late", None))
        .await;
    assert!(
        matches!(late, Err(grundy::store::Error::Refused(..))),
        "{late:?}"
    );
}

on_both_databases!(the_finalize_writes_the_awards_and_the_thaw_reveals_them);

//! A contest's awards in its record (issues 39 and 43), on both
//! databases: they follow the standings as each change moves them, the
//! admins' from the full board and everyone else's from the frozen one;
//! an admin's change is appended in its transaction; the unfreeze brings
//! the public's to the admins'; once the updates ended nothing changes.

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

/// Each award as `reader` holds it after reading the whole record.
async fn held(
    store: &Store,
    contest: i64,
    reader: Reader,
) -> std::collections::BTreeMap<String, serde_json::Value> {
    let mut out = std::collections::BTreeMap::new();
    for e in awards(store, contest, 0, reader).await {
        let id = e.id.clone().expect("an award's id");
        match e.data {
            Some(data) => out.insert(id, data),
            None => out.remove(&id),
        };
    }
    out
}

/// Award `id` as `reader` holds it: (citation, team ids).
async fn award(store: &Store, contest: i64, reader: Reader, id: &str) -> (String, Vec<String>) {
    let all = held(store, contest, reader).await;
    let a = all.get(id).unwrap_or_else(|| panic!("{id} in {all:?}"));
    let teams = a["team_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    (a["citation"].as_str().unwrap().to_string(), teams)
}

async fn the_record_follows_the_standings_and_the_thaw_reveals_them(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let bob = store.add_user("bob", "h", false).await.unwrap();
    // Started 100 minutes ago: frozen since 10 minutes ago. Made, the
    // contest's awards are in its record already, with no team yet.
    let cup = store
        .create_contest(&contest(6_000_000), now_ms())
        .await
        .unwrap();
    let nobody: Vec<String> = Vec::new();
    for reader in [Reader::Admin, Reader::Public, Reader::Team(bob)] {
        let winner = award(&store, cup, reader, "winner").await;
        assert_eq!(winner, ("Contest winner".into(), nobody.clone()));
        assert_eq!(award(&store, cup, reader, "gold-medal").await.1, nobody);
    }
    // ann solves after the freeze: the admins' awards move at once, the
    // public's and the other team's stay as the frozen board has them.
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
    let ann_id = vec![ann.to_string()];
    assert_eq!(award(&store, cup, Reader::Admin, "winner").await.1, ann_id);
    assert_eq!(
        award(&store, cup, Reader::Admin, "gold-medal").await.1,
        ann_id
    );
    assert_eq!(
        award(&store, cup, Reader::Admin, "first-to-solve-nim")
            .await
            .1,
        ann_id
    );
    for reader in [Reader::Public, Reader::Team(bob)] {
        assert_eq!(award(&store, cup, reader, "winner").await.1, nobody);
        assert_eq!(
            award(&store, cup, reader, "first-to-solve-nim").await.1,
            nobody
        );
    }
    // An admin's change before the finalize: in the record at once, for
    // each reader with the teams its board gives.
    let champion = set("winner", "Champion", None);
    assert!(store.change_contest_award(cup, &champion).await.unwrap());
    assert_eq!(
        award(&store, cup, Reader::Admin, "winner").await,
        ("Champion".into(), ann_id.clone())
    );
    assert_eq!(
        award(&store, cup, Reader::Public, "winner").await,
        ("Champion".into(), nobody.clone())
    );
    let wrong = store
        .change_contest_award(cup, &set("special", "Spirit", Some(vec!["999".into()])))
        .await;
    match wrong {
        Err(grundy::store::Error::Refused(_, why)) => assert!(why.contains("no team 999"), "{why}"),
        other => panic!("an unknown team: {other:?}"),
    }

    // The end, then the finalize: the awards were up to date, so its
    // state follows the record's last award with none between.
    store
        .update_contest(cup, &contest(7_300_000))
        .await
        .unwrap();
    let before = held(&store, cup, Reader::Admin).await;
    store.finalize_contest(cup).await.unwrap();
    let all = store
        .contest_events(cup, 0, Reader::Admin, 10_000)
        .await
        .unwrap();
    assert_eq!(all.last().unwrap().kind, "state");
    assert_eq!(held(&store, cup, Reader::Admin).await, before);
    assert!(
        store
            .set_contest_medals(cup, Medals::default())
            .await
            .is_err(),
        "final: the medals no longer change"
    );

    // Changes after it: each appended at once; an own award added, then
    // removed (a delete), the admins' only while the freeze hides results.
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
    let public = awards(&store, cup, head, Reader::Public).await;
    let seen: Vec<Option<&str>> = public.iter().map(|e| e.id.as_deref()).collect();
    assert_eq!(seen, [Some("gold-medal")]);

    // The thaw: the public's awards become the admins', before its state;
    // the admins read nothing new.
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
    assert!(revealed.iter().any(|e| e.id.as_deref() == Some("winner")));
    let admins = held(&store, cup, Reader::Admin).await;
    assert!(!admins.contains_key("special"));
    for reader in [Reader::Public, Reader::Team(bob)] {
        assert_eq!(held(&store, cup, reader).await, admins, "{reader:?}");
    }
    assert_eq!(
        award(&store, cup, Reader::Public, "gold-medal").await,
        ("Gold".into(), ann_id.clone())
    );
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

on_both_databases!(the_record_follows_the_standings_and_the_thaw_reveals_them);

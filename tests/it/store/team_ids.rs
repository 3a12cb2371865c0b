//! Issue 43, point 5, on both databases: a team keeps the id its
//! registration gave it (and teams, organizations and groups their
//! `icpc_id`) in every object of the record; an id that reached a record
//! never changes, and an import that would change one stores nothing; a
//! hidden team is off the board and the admins' only, and its tries with
//! it.

use grundy::contest::affiliation::Affiliations;
use grundy::contest::Viewer;
use grundy::store::{Error, NewContest, Reader, Store};
use grundy::verdict::Verdict;
use serde_json::Value;

use super::{judged_at, run};

fn now_ms() -> i64 {
    grundy::site::contests::now_ms()
}

/// A two-hour ICPC contest on nim begun at `start_ms`, for `participants`.
fn contest(start_ms: i64, participants: &[&str]) -> NewContest {
    NewContest {
        name: "WF".into(),
        ..super::jury::contest("wf", start_ms, 0, Some(participants))
    }
}

/// What CLICS files `files` (name, body) bring.
fn clics(files: &[(&str, &str)]) -> Affiliations {
    let mut a = Affiliations::default();
    for (name, body) in files {
        a.add_clics(name, body).expect("a CLICS file");
    }
    a
}

/// The objects of `kind` that `reader` holds.
async fn objects(store: &Store, cid: i64, reader: Reader, kind: &str) -> Vec<Value> {
    store
        .contest_objects(cid, reader, kind)
        .await
        .unwrap()
        .into_iter()
        .filter_map(|e| e.data)
        .collect()
}

/// The `key` of each object.
fn each(list: &[Value], key: &str) -> Vec<String> {
    list.iter()
        .map(|o| o[key].as_str().unwrap_or("?").to_string())
        .collect()
}

const REGISTRATION: [(&str, &str); 3] = [
    (
        "organizations.json",
        r#"[{"id":"uva","name":"UvA","icpc_id":1234}]"#,
    ),
    (
        "groups.json",
        r#"[{"id":"div1","name":"Division 1","icpc_id":"g-7"}]"#,
    ),
    (
        "teams.json",
        r#"[{"id":"wf-ann","name":"ann","icpc_id":4711,"organization_id":"uva","group_ids":["div1"]},
            {"id":"wf-bob","name":"bob","icpc_id":"x-1"}]"#,
    ),
];

/// The registration's ids in every object that names a team, and the
/// `icpc_id`s in the objects; importing the same files again is nothing.
async fn registration_ids_reach_every_object(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    store.add_user("bob", "h", false).await.unwrap();
    let start = now_ms() - 600_000;
    let cid = store
        .create_contest(&contest(start, &["ann", "bob"]), now_ms())
        .await
        .unwrap();
    store
        .import_affiliations(&clics(&REGISTRATION))
        .await
        .unwrap();
    let tried = judged_at(&store, ann, cid, start + 60_000, Verdict::AC).await;
    store
        .ask(cid, Some(ann), None, "Is 0 a move?", now_ms())
        .await
        .unwrap();

    let teams = objects(&store, cid, Reader::Public, "teams").await;
    let mut ids = each(&teams, "id");
    ids.sort();
    assert_eq!(ids, ["wf-ann", "wf-bob"], "{teams:?}");
    let team_ann = teams.iter().find(|t| t["id"] == "wf-ann").unwrap();
    assert_eq!(team_ann["label"], "wf-ann");
    assert_eq!(team_ann["icpc_id"], "4711");
    assert_eq!(team_ann["hidden"], false);
    let orgs = objects(&store, cid, Reader::Public, "organizations").await;
    assert_eq!(orgs[0]["icpc_id"], "1234", "{orgs:?}");
    let groups = objects(&store, cid, Reader::Public, "groups").await;
    assert_eq!(groups[0]["icpc_id"], "g-7", "{groups:?}");
    let submissions = objects(&store, cid, Reader::Public, "submissions").await;
    assert_eq!(submissions[0]["id"], tried.to_string());
    assert_eq!(submissions[0]["team_id"], "wf-ann");
    let questions = objects(&store, cid, Reader::Admin, "clarifications").await;
    assert_eq!(questions[0]["from_team_id"], "wf-ann", "{questions:?}");
    // The board's team, which the scoreboard and the awards name.
    let c = store.contest_by_id(cid).await.unwrap().unwrap();
    let board: Vec<(String, String)> = store
        .contest_teams(&c)
        .await
        .unwrap()
        .into_iter()
        .map(|t| (t.name, t.team_id))
        .collect();
    assert!(
        board.contains(&("ann".into(), "wf-ann".into())),
        "{board:?}"
    );

    let version = store.contest_version(&c).await.unwrap();
    store
        .import_affiliations(&clics(&REGISTRATION))
        .await
        .unwrap();
    assert_eq!(store.contest_version(&c).await.unwrap(), version);
}

/// An import that would change the id of a team the record holds a try
/// of, or give a team the id of another, is refused with one line naming
/// the team, and stores nothing of the rest.
async fn a_recorded_team_id_never_changes(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    store.add_user("bob", "h", false).await.unwrap();
    let carl = store.add_user("carl", "h", false).await.unwrap();
    let start = now_ms() - 600_000;
    let cid = store
        .create_contest(&contest(start, &["ann", "bob", "carl"]), now_ms())
        .await
        .unwrap();
    store
        .import_affiliations(&clics(&REGISTRATION))
        .await
        .unwrap();
    judged_at(&store, ann, cid, start + 60_000, Verdict::WA).await;
    let c = store.contest_by_id(cid).await.unwrap().unwrap();
    let version = store.contest_version(&c).await.unwrap();
    let teams = objects(&store, cid, Reader::Admin, "teams").await;

    // bob first, whose change alone would be allowed: nothing of it stays.
    let change = clics(&[(
        "teams.json",
        r#"[{"id":"bob-2","name":"bob"},{"id":"ann-2","name":"ann"}]"#,
    )]);
    match store.import_affiliations(&change).await {
        Err(Error::BadImport(why)) => {
            assert!(
                why.contains("team ann-2") && why.contains("wf-ann"),
                "{why}"
            );
            assert!(!why.contains('\n'), "{why}");
        }
        other => panic!("a recorded id changed: {other:?}"),
    }
    let taken = clics(&[(
        "teams.json",
        &format!(r#"[{{"id":"{carl}","name":"bob"}}]"#),
    )]);
    match store.import_affiliations(&taken).await {
        Err(Error::BadImport(why)) => {
            assert!(
                why.contains(&format!("team {carl}")) && why.contains("carl"),
                "{why}"
            );
        }
        other => panic!("two teams with one id: {other:?}"),
    }
    assert_eq!(store.contest_version(&c).await.unwrap(), version);
    assert_eq!(objects(&store, cid, Reader::Admin, "teams").await, teams);
    let (_, _, members) = store.affiliations().await.unwrap();
    assert_eq!(members.len(), 3);
}

/// A hidden team is off the board for every reader and the admins' only:
/// the public and the other teams lose its object and its tries when it
/// is hidden, see none of its later tries, and get them back when it is
/// shown again. The import's `hidden` hides it as the command does.
async fn a_hidden_team_is_the_admins_only(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let bob = store.add_user("bob", "h", false).await.unwrap();
    let start = now_ms() - 600_000;
    let cid = store
        .create_contest(&contest(start, &["ann", "bob"]), now_ms())
        .await
        .unwrap();
    let first = judged_at(&store, bob, cid, start + 60_000, Verdict::AC).await;
    judged_at(&store, ann, cid, start + 120_000, Verdict::WA).await;
    let bob_id = bob.to_string();
    let public_has = |list: &[Value], id: &str| list.iter().any(|o| o["id"] == id);

    assert!(store.set_hidden("bob", true).await.unwrap());
    let teams = objects(&store, cid, Reader::Public, "teams").await;
    assert!(!public_has(&teams, &bob_id), "{teams:?}");
    let as_ann = objects(&store, cid, Reader::Team(ann), "teams").await;
    assert!(!public_has(&as_ann, &bob_id), "{as_ann:?}");
    let admin = objects(&store, cid, Reader::Admin, "teams").await;
    let hidden = admin.iter().find(|t| t["id"] == bob_id.as_str()).unwrap();
    assert_eq!(hidden["hidden"], true);
    for kind in ["submissions", "judgements", "runs"] {
        let public = objects(&store, cid, Reader::Public, kind).await;
        assert!(
            public
                .iter()
                .all(|o| !o["id"].as_str().unwrap().starts_with(&first.to_string())),
            "{kind}: {public:?}"
        );
        let admin = objects(&store, cid, Reader::Admin, kind).await;
        assert_eq!(admin.len(), 2, "{kind}: {admin:?}");
    }
    let later = judged_at(&store, bob, cid, start + 180_000, Verdict::AC).await;
    let public = objects(&store, cid, Reader::Public, "submissions").await;
    assert_eq!(each(&public, "team_id"), [ann.to_string()], "{public:?}");
    let admin = objects(&store, cid, Reader::Admin, "submissions").await;
    assert!(public_has(&admin, &later.to_string()), "{admin:?}");
    // Off the board for every reader, the admins included.
    let c = store.contest_by_id(cid).await.unwrap().unwrap();
    let teams = store.contest_teams(&c).await.unwrap();
    let attempts = store.contest_attempts(cid).await.unwrap();
    for viewer in [Viewer::Admin, Viewer::Public, Viewer::Team(bob)] {
        let board =
            grundy::contest::scoreboard::scoreboard(&c, &teams, &attempts, viewer, now_ms());
        let rows: Vec<&str> = board.rows.iter().map(|r| r.team.name.as_str()).collect();
        assert_eq!(rows, ["ann"], "{viewer:?}");
    }

    assert!(store.set_hidden("bob", false).await.unwrap());
    let teams = objects(&store, cid, Reader::Public, "teams").await;
    let shown = teams.iter().find(|t| t["id"] == bob_id.as_str()).unwrap();
    assert_eq!(shown["hidden"], false);
    let public = objects(&store, cid, Reader::Public, "submissions").await;
    assert_eq!(public.len(), 3, "every try again: {public:?}");
    let judgements = objects(&store, cid, Reader::Public, "judgements").await;
    assert_eq!(judgements.len(), 3, "{judgements:?}");
    // Shown twice is once.
    let version = store.contest_version(&c).await.unwrap();
    assert!(store.set_hidden("bob", false).await.unwrap());
    assert_eq!(store.contest_version(&c).await.unwrap(), version);

    let mut sheet = Affiliations::default();
    sheet
        .add_csv("teams.csv", "team,hidden\nbob,yes\n")
        .unwrap();
    store.import_affiliations(&sheet).await.unwrap();
    let teams = objects(&store, cid, Reader::Public, "teams").await;
    assert!(!public_has(&teams, &bob_id), "{teams:?}");
    let version = store.contest_version(&c).await.unwrap();
    store.import_affiliations(&sheet).await.unwrap();
    assert_eq!(store.contest_version(&c).await.unwrap(), version);
    assert!(!store.set_hidden("nobody", true).await.unwrap());
}

/// An account made after an import whose number is a registration's id
/// for another team gets an id of its own: no two teams share one.
async fn a_new_account_never_takes_a_registered_id(store: Store) {
    let ann = store.add_user("ann", "h", false).await.unwrap();
    let registered = (ann + 2).to_string();
    let teams = format!(r#"[{{"id":"{registered}","name":"ann"}}]"#);
    store
        .import_affiliations(&clics(&[("teams.json", &teams)]))
        .await
        .unwrap();
    store.add_user("bob", "h", false).await.unwrap();
    let carl = store.add_user("carl", "h", false).await.unwrap();
    assert_eq!(carl, ann + 2, "accounts are numbered in order");
    let start = now_ms() - 600_000;
    let cid = store
        .create_contest(&contest(start, &["ann", "bob", "carl"]), now_ms())
        .await
        .unwrap();
    let c = store.contest_by_id(cid).await.unwrap().unwrap();
    let mut board: Vec<(String, String)> = store
        .contest_teams(&c)
        .await
        .unwrap()
        .into_iter()
        .map(|t| (t.name, t.team_id))
        .collect();
    board.sort();
    assert_eq!(
        board,
        [
            ("ann".to_string(), registered.clone()),
            ("bob".to_string(), (ann + 1).to_string()),
            ("carl".to_string(), format!("u{carl}")),
        ]
    );
    let teams = objects(&store, cid, Reader::Public, "teams").await;
    let mut ids = each(&teams, "id");
    ids.sort();
    let mut want = vec![registered, (ann + 1).to_string(), format!("u{carl}")];
    want.sort();
    assert_eq!(ids, want, "{teams:?}");
}

on_both_databases!(
    a_new_account_never_takes_a_registered_id,
    registration_ids_reach_every_object,
    a_recorded_team_id_never_changes,
    a_hidden_team_is_the_admins_only,
);

//! Issue 48 on both databases: a contest imported whole in one
//! transaction (or not at all), and the other system's feed kept as the
//! shadow applies it: each submission stored for judging once however
//! often the feed repeats it, judgements and runs deleted and replaced,
//! the token and the end kept, a difference marked as checked.

use std::collections::BTreeMap;

use grundy::contest::affiliation::{Affiliations, Membership};
use grundy::store::shadows::{
    ImportedContest, ShadowChange, ShadowJudgement, ShadowRun, ShadowTry,
};
use grundy::store::{Error, NewContest, NewSubmission, Store};

use super::run;

fn imported(slug: &str) -> ImportedContest {
    let now = grundy::site::contests::now_ms();
    ImportedContest {
        contest: NewContest {
            slug: slug.into(),
            name: "Finals".into(),
            start_ms: now - 3_600_000,
            duration_s: 5 * 3600,
            freeze_s: 0,
            penalty_min: 20,
            scoring: grundy::contest::Scoring::Icpc,
            medals: grundy::contest::Medals::default(),
            participants: Some(vec!["team-7".into()]),
            problems: vec![("A".into(), "nim".into())],
            colors: Vec::new(),
        },
        new_accounts: vec!["team-7".into()],
        affiliations: Affiliations {
            teams: vec![Membership {
                keys: vec!["team-7".into()],
                team_id: Some("team-7".into()),
                icpc_id: Some("777".into()),
                ..Membership::default()
            }],
            ..Affiliations::default()
        },
        source: "https://shadow:secret@primary.example/api/contests/wf".into(),
        problems: BTreeMap::from([("p-nim".to_string(), "A".to_string())]),
        languages: BTreeMap::from([("gnu-c".to_string(), "c".to_string())]),
    }
}

async fn a_shadowed_feed_is_kept_once_and_read_back(store: Store) {
    let cid = store.import_contest(&imported("wf"), "x", 0).await.unwrap();
    // Imported again: refused whole, no second account.
    let again = store.import_contest(&imported("wf"), "x", 0).await;
    assert!(
        matches!(again, Err(Error::UserExists(_) | Error::ContestExists(_))),
        "{again:?}"
    );
    assert_eq!(store.users().await.unwrap().len(), 1);
    let teams = store.accounts_by_team_id().await.unwrap();
    let user = teams["team-7"];
    let shadow = store.shadow(cid).await.unwrap().expect("a shadow");
    assert_eq!(shadow.problems["p-nim"], "A");
    assert_eq!(shadow.languages["gnu-c"], "c");
    assert_eq!(shadow.token, None);

    let t = |id: &'static str| ShadowTry {
        external_id: id,
        team: "team-7",
        problem: "p-nim",
        language: "gnu-c",
        contest_time_ms: 60_000,
    };
    let new = NewSubmission {
        problem: "nim",
        language: "c",
        source: b"int main() {}",
        user_id: Some(user),
    };
    let apply = |change: ShadowChange<'static>, token: &'static str| {
        let store = store.clone();
        async move { store.apply_shadow(cid, &change, Some(token)).await.unwrap() }
    };
    let first = apply(ShadowChange::Try(t("s1"), Ok(new.clone())), "1").await;
    assert!(first.is_some(), "stored for judging");
    assert_eq!(
        apply(ShadowChange::Try(t("s1"), Ok(new.clone())), "2").await,
        None,
        "once"
    );
    assert_eq!(
        apply(ShadowChange::Try(t("s2"), Err("no files".into())), "3").await,
        None
    );
    let j = |id: &'static str, verdict: &'static str| {
        ShadowChange::Judgement(ShadowJudgement {
            external_id: id,
            submission: "s1",
            verdict: Some(verdict),
            current: true,
            max_run_ms: Some(40),
        })
    };
    apply(j("j1", "WA"), "4").await;
    apply(
        ShadowChange::Run(ShadowRun {
            external_id: "r1",
            judgement: "j1",
            ordinal: 1,
            verdict: "WA",
            time_ms: Some(3),
        }),
        "5",
    )
    .await;
    apply(ShadowChange::JudgementGone("j1"), "6").await;
    apply(ShadowChange::RunGone("r1"), "7").await;
    apply(j("j2", "AC"), "8").await;
    apply(ShadowChange::Ended, "9").await;

    let rows = store.shadow_rows(cid).await.unwrap();
    assert_eq!(rows.submissions.len(), 2, "{rows:?}");
    assert_eq!(rows.submissions[0].external_id, "s1");
    assert_eq!(rows.submissions[0].submission_id, first);
    assert_eq!(rows.submissions[0].status.as_deref(), Some("queued"));
    assert_eq!(
        rows.submissions[1].unjudged_reason.as_deref(),
        Some("no files")
    );
    let judgements: Vec<(&str, bool, i64)> = rows
        .judgements
        .iter()
        .map(|j| (j.external_id.as_str(), j.deleted, j.arrival))
        .collect();
    assert_eq!(judgements, [("j1", true, 1), ("j2", false, 2)]);
    assert!(
        rows.runs.is_empty(),
        "the deleted run is left out: {:?}",
        rows.runs
    );
    let shadow = store.shadow(cid).await.unwrap().unwrap();
    assert_eq!(shadow.token.as_deref(), Some("9"));
    assert!(shadow.ended_ms.is_some());
    // The contest's own submissions: the one stored for judging.
    assert_eq!(store.contest_submissions(cid, None).await.unwrap().len(), 1);

    assert!(store
        .check_shadowed(cid, "s1", Some("looked"), 5)
        .await
        .unwrap());
    assert!(!store
        .check_shadowed(cid, "s9", Some("looked"), 5)
        .await
        .unwrap());
    let rows = store.shadow_rows(cid).await.unwrap();
    assert_eq!(rows.submissions[0].checked_note.as_deref(), Some("looked"));
    // The page and the API show the source with its credentials masked.
    let report = grundy::shadow::differences(&store, cid)
        .await
        .unwrap()
        .unwrap();
    assert!(!report.source.contains("secret"), "{}", report.source);
}

on_both_databases!(a_shadowed_feed_is_kept_once_and_read_back);

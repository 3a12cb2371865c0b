//! The CLICS Contest API checked against the standard's own JSON schemas
//! (tests/fixtures/clics-2023-06, see ORIGIN.md there), with its roles:
//! the freeze for the public and other teams, tokens and HTTP Basic, and
//! the event feed resumed by `since_token`.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::helpers::{c_judge, repo, NIM_C_AC, NIM_C_WA_FIRST};
use crate::web::PASSWORD;

/// The standard's schemas, found by their `$id` in the fixtures folder.
struct Fixtures;

impl jsonschema::Retrieve for Fixtures {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let name = uri
            .as_str()
            .rsplit('/')
            .next()
            .unwrap_or("")
            .split('#')
            .next()
            .unwrap_or("");
        let text = std::fs::read_to_string(schema_dir().join(name))
            .map_err(|e| format!("schema {uri}: {e}"))?;
        Ok(serde_json::from_str(&text)?)
    }
}

fn schema_dir() -> std::path::PathBuf {
    repo().join("tests/fixtures/clics-2023-06")
}

/// Fails naming every way `value` breaks the standard's schema `name`.
pub(crate) fn assert_valid(name: &str, value: &Value) {
    let text = std::fs::read_to_string(schema_dir().join(format!("{name}.json"))).expect("schema");
    let schema: Value = serde_json::from_str(&text).expect("schema JSON");
    let validator = jsonschema::options()
        .with_retriever(Fixtures)
        .build(&schema)
        .unwrap_or_else(|e| panic!("schema {name}: {e}"));
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{name}: {}\n{value:#}",
        errors.join("\n")
    );
}

pub(crate) fn get(url: &str, auth: Option<&str>) -> (u16, String) {
    let headers: Vec<(&str, &str)> = auth.map(|a| ("Authorization", a)).into_iter().collect();
    let r = crate::http::get(url, &headers);
    (r.status, r.body)
}

pub(crate) fn json(url: &str, auth: Option<&str>) -> Value {
    let (status, body) = get(url, auth);
    assert_eq!(status, 200, "{url}: {body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{url}: {e}: {body}"))
}

pub(crate) fn basic(name: &str) -> String {
    use base64::Engine as _;
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{name}:{PASSWORD}"))
    )
}

#[test]
fn every_endpoint_matches_the_standards_schemas_and_roles() {
    let Some((_ws, s)) = c_judge() else {
        return;
    };
    s.account("ann", true);
    let bob_id = s.account("bob", false);
    let cid_id = s.account("cid", false);
    let bob = format!("Bearer {}", s.token("bob"));
    let ann = basic("ann");
    let now = grundy::site::contests::now_ms();
    let new = grundy::store::NewContest {
        slug: "wf".into(),
        name: "World Final".into(),
        start_ms: now - 60_000,
        duration_s: 3600,
        freeze_s: 0,
        penalty_min: 20,
        scoring: grundy::contest::Scoring::Icpc,
        participants: Some(vec!["bob".into(), "cid".into()]),
        problems: vec![("A".into(), "nim".into())],
    };
    let id =
        s.rt.block_on(s.store.create_contest(&new, now))
            .expect("create");
    let contest =
        s.rt.block_on(s.store.contest("wf"))
            .expect("read")
            .expect("there");
    let submit = |user: i64, source: &str| s.contest_submit("wf", user, source);
    let judged = || s.contest_judged(id);
    submit(bob_id, NIM_C_WA_FIRST);
    submit(bob_id, NIM_C_AC);
    judged();
    // The freeze, then cid's accepted try.
    s.rt.block_on(
        s.store
            .set_contest_frozen(id, Some(grundy::site::contests::now_ms())),
    )
    .expect("freeze");
    std::thread::sleep(Duration::from_millis(5));
    submit(cid_id, NIM_C_AC);
    judged();
    let q =
        s.rt.block_on(
            s.store
                .ask(id, Some(bob_id), Some("A"), "Is 0 a heap?", now),
        )
        .expect("ask");
    s.rt.block_on(s.store.answer(id, q, "No.", true, 1, now))
        .expect("answer");
    s.rt.block_on(s.store.ask(id, Some(cid_id), None, "Private?", now))
        .expect("ask");

    let api = format!("{}/api/contests", s.url);
    assert_valid("contests", &json(&api, None));
    let single = [
        ("", "contest"),
        ("/state", "state"),
        ("/access", "access"),
        ("/judgement-types", "judgement-types"),
        ("/languages", "languages"),
        ("/problems", "problems"),
        ("/teams", "teams"),
        ("/submissions", "submissions"),
        ("/judgements", "judgements"),
        ("/runs", "runs"),
        ("/clarifications", "clarifications"),
        ("/scoreboard", "scoreboard"),
    ];
    for auth in [None, Some(bob.as_str()), Some(ann.as_str())] {
        for (path, schema) in single {
            assert_valid(schema, &json(&format!("{api}/wf{path}"), auth));
        }
    }
    assert_valid("problem", &json(&format!("{api}/wf/problems/nim"), None));
    assert_eq!(get(&format!("{api}/wf/problems/nope"), None).0, 404);
    assert_eq!(get(&format!("{api}/nope/state"), None).0, 404);
    let refused = get(&format!("{api}/wf/state"), Some("Bearer nope"));
    assert_eq!(refused.0, 401, "{}", refused.1);
    assert_eq!(
        get(&format!("{api}/wf/state"), Some("Basic Ym9iOndyb25n")).0,
        401
    );

    // The freeze: cid's try has no judgement for the public or bob; cid
    // and the admin see it.
    let judgements = |auth: Option<&str>| {
        json(&format!("{api}/wf/judgements"), auth)
            .as_array()
            .unwrap()
            .len()
    };
    assert_eq!(judgements(None), 2);
    assert_eq!(judgements(Some(&bob)), 2);
    assert_eq!(judgements(Some(&basic("cid"))), 3);
    assert_eq!(judgements(Some(&ann)), 3);
    let board = json(&format!("{api}/wf/scoreboard"), None);
    let cid_row = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["team_id"].as_str() == Some(&*cid_id.to_string()))
        .unwrap()
        .clone();
    assert_eq!(cid_row["problems"][0]["num_pending"], 1);
    assert_eq!(cid_row["score"]["num_solved"], 0);
    let bob_row = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["team_id"].as_str() == Some(&*bob_id.to_string()))
        .unwrap()
        .clone();
    assert_eq!(
        bob_row["score"]["total_time"], 21,
        "a minute to the AC and 20 for the wrong try: {bob_row}"
    );
    assert_eq!(bob_row["problems"][0]["first_to_solve"], true);
    // The public sees the question answered to all and its answer, not
    // the private question.
    let clars = json(&format!("{api}/wf/clarifications"), None);
    assert_eq!(clars.as_array().unwrap().len(), 2, "{clars}");
    assert_eq!(clars[1]["text"], "No.");
    assert_eq!(clars[1]["reply_to_id"], "q1");
    assert!(!clars.to_string().contains("Private?"));
    assert_eq!(
        json(&format!("{api}/wf/clarifications"), Some(&ann))
            .as_array()
            .unwrap()
            .len(),
        3
    );

    // The event feed: every line one schema-valid event; since_token
    // resumes after a token with exactly the rest.
    let (status, feed) = get(&format!("{api}/wf/event-feed?stream=false"), None);
    assert_eq!(status, 200);
    let events: Vec<Value> = feed
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    for e in &events {
        assert_valid("event-feed", e);
    }
    let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    for kind in [
        "contest",
        "judgement-types",
        "languages",
        "problems",
        "teams",
        "state",
        "submissions",
        "judgements",
        "runs",
        "clarifications",
    ] {
        assert!(kinds.contains(&kind), "{kind} in {kinds:?}");
    }
    let cut = events.len() / 2;
    let token = events[cut]["token"].as_str().unwrap();
    let (_, rest) = get(
        &format!("{api}/wf/event-feed?stream=false&since_token={token}"),
        None,
    );
    assert_eq!(rest.lines().count(), events.len() - cut - 1);
    assert_eq!(
        get(&format!("{api}/wf/event-feed?since_token=bad"), None).0,
        400
    );

    // Revealed and over: the feed streams what it has and ends by itself.
    let mut over = new.clone();
    over.start_ms = contest.start_ms - 3_600_000;
    s.rt.block_on(s.store.update_contest(id, &over))
        .expect("end it");
    s.rt.block_on(
        s.store
            .set_contest_thawed(id, Some(grundy::site::contests::now_ms())),
    )
    .expect("thaw");
    let started = Instant::now();
    let (status, streamed) = get(&format!("{api}/wf/event-feed"), None);
    assert_eq!(status, 200);
    assert!(started.elapsed() < Duration::from_secs(30));
    let state = json(&format!("{api}/wf/state"), None);
    assert!(!state["end_of_updates"].is_null(), "{state}");
    assert!(
        streamed
            .lines()
            .filter(|l| l.contains("\"judgements\""))
            .count()
            >= 3
    );
    assert_eq!(judgements(None), 3);
}

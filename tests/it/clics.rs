//! The CLICS Contest API checked against the standard's own JSON schemas
//! (tests/fixtures/clics-2023-06, see ORIGIN.md there), with its roles:
//! the freeze for the public and other teams, tokens and HTTP Basic, and
//! the event feed resumed by `since_token`.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

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

/// [`assert_valid`] against the strict form of schema `name`: no property
/// beyond the standard's (the schema's strict anchor made
/// `additionalProperties: false`).
fn assert_strict(name: &str, value: &Value) {
    let text = std::fs::read_to_string(schema_dir().join(format!("{name}.json"))).expect("schema");
    let anchor = "\"$comment\": \"ANCHOR_TO_INSERT_REQUIRE_STRICT_PROPERTIES\"";
    assert!(text.contains(anchor), "{name} has no strict anchor");
    let strict = text.replace(anchor, "\"additionalProperties\": false");
    let schema: Value = serde_json::from_str(&strict).expect("schema JSON");
    let validator = jsonschema::options()
        .with_retriever(Fixtures)
        .build(&schema)
        .unwrap_or_else(|e| panic!("schema {name}: {e}"));
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| e.to_string())
        .collect();
    assert!(
        errors.is_empty(),
        "{name} (strict): {}\n{value:#}",
        errors.join("\n")
    );
}

/// What a reader holds after reading contest `slug`'s whole feed with
/// `auth` equals what every REST collection returns it: the objects of
/// each endpoint, in the order they first appeared (issue 43's one
/// derivation).
fn assert_rest_is_the_feed(api: &str, slug: &str, auth: Option<&str>) {
    let (status, text) = get(&format!("{api}/{slug}/event-feed?stream=false"), auth);
    assert_eq!(status, 200, "{text}");
    let mut held: Vec<((String, String), Value)> = Vec::new();
    for line in text.lines() {
        let e: Value = serde_json::from_str(line).expect("a JSON line");
        let Some(kind) = e["type"].as_str() else {
            continue;
        };
        // The contest and its state are one object each, with no id.
        let id = e["id"].as_str().unwrap_or("");
        let key = (kind.to_string(), id.to_string());
        match held.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = e["data"].clone(),
            None => held.push((key, e["data"].clone())),
        }
    }
    for kind in [
        "judgement-types",
        "languages",
        "problems",
        "teams",
        "organizations",
        "groups",
        "submissions",
        "judgements",
        "runs",
        "clarifications",
        "awards",
    ] {
        let from_feed: Vec<&Value> = held
            .iter()
            .filter(|((k, _), v)| k == kind && !v.is_null())
            .map(|(_, v)| v)
            .collect();
        let rest = json(&format!("{api}/{slug}/{kind}"), auth);
        let rest: Vec<&Value> = rest.as_array().unwrap().iter().collect();
        assert_eq!(rest, from_feed, "{kind} as {auth:?}");
    }
    // The board too: the scoreboard a reader computes from its feed is the
    // one the API sends it, and the one the site's own API (which the
    // pages' boards are drawn from) sends the same reader.
    let rows = |board: &Value| -> BTreeMap<String, Value> {
        board["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let mut r = r.clone();
                // Rank and the tie-break minute are the board's order, not
                // a sum of the record; the feed gives no rank.
                r.as_object_mut().unwrap().remove("rank");
                r["score"].as_object_mut().unwrap().remove("time");
                (r["team_id"].as_str().unwrap().to_string(), r)
            })
            .collect()
    };
    let scoreboard = json(&format!("{api}/{slug}/scoreboard"), auth);
    assert_eq!(
        rows(&scoreboard),
        board_of_feed(&held),
        "the scoreboard as {auth:?}"
    );
    if auth.is_none_or(|a| a.starts_with("Bearer ")) {
        let site = api.replace("/api/contests", "/api/v1/contests");
        let (status, own) = get(&format!("{site}/{slug}/board"), auth);
        if status != 200 {
            // The site's board of a contest for its participants only.
            assert!(auth.is_none(), "{status} {own}");
            return;
        }
        let own: Value = serde_json::from_str(&own).unwrap();
        let own: BTreeMap<String, (u64, u64)> = own["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["team"]["team_id"].as_str().unwrap().to_string(),
                    (
                        r["solved"].as_u64().unwrap(),
                        r["penalty"].as_u64().unwrap(),
                    ),
                )
            })
            .collect();
        let clics: BTreeMap<String, (u64, u64)> = rows(&scoreboard)
            .into_iter()
            .map(|(team, r)| {
                let score = &r["score"];
                let sums = (
                    score["num_solved"].as_u64().unwrap(),
                    score["total_time"].as_u64().unwrap(),
                );
                (team, sums)
            })
            .collect();
        assert_eq!(own, clics, "/api/v1's board as {auth:?}");
    }
}

/// Milliseconds of a Contest API relative time, `[-]h:mm:ss[.uuu]`.
fn reltime_ms(t: &str) -> i64 {
    let (sign, t) = match t.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, t),
    };
    let parts: Vec<&str> = t.split(':').collect();
    let (h, m): (i64, i64) = (parts[0].parse().unwrap(), parts[1].parse().unwrap());
    let s: f64 = parts[2].parse().unwrap();
    sign * ((h * 60 + m) * 60_000 + (s * 1000.0).round() as i64)
}

/// The ICPC scoreboard's rows (without rank) as a client computes them
/// from the objects its feed left it, by the standard's own rules: a
/// judgement type's `solved` and `penalty` say which tries count; a try
/// whose judgement has no type yet (or no judgement) is pending; tries
/// after the first solve are not counted; a solve costs its minute and
/// the contest's `penalty_time` per earlier penalised try.
fn board_of_feed(held: &[((String, String), Value)]) -> BTreeMap<String, Value> {
    let of = |kind: &str| -> Vec<&Value> {
        held.iter()
            .filter(|((k, _), v)| k == kind && !v.is_null())
            .map(|(_, v)| v)
            .collect()
    };
    let contest = of("contest")[0];
    let penalty = match &contest["penalty_time"] {
        Value::String(t) => reltime_ms(t) / 60_000,
        n => n.as_i64().unwrap(),
    };
    let types: BTreeMap<&str, (bool, bool)> = of("judgement-types")
        .into_iter()
        .map(|t| {
            let flags = (
                t["penalty"].as_bool().unwrap(),
                t["solved"].as_bool().unwrap(),
            );
            (t["id"].as_str().unwrap(), flags)
        })
        .collect();
    let mut problems = of("problems");
    problems.sort_by_key(|p| p["ordinal"].as_i64());
    let judgements = of("judgements");
    // The latest judgement of a submission is the last to appear.
    let type_of = |sub: &Value| -> Option<&str> {
        judgements
            .iter()
            .rev()
            .find(|j| j["submission_id"] == sub["id"])
            .and_then(|j| j["judgement_type_id"].as_str())
    };
    // Every contest time is counted from the contest's start as the feed
    // has it now, though the start moved since (as this test moves it to
    // end the contest).
    let start = grundy::contest::time::parse_time(contest["start_time"].as_str().unwrap()).unwrap();
    for kind in ["submissions", "judgements", "runs", "clarifications"] {
        for v in of(kind) {
            for (at, rel) in [
                ("time", "contest_time"),
                ("start_time", "start_contest_time"),
                ("end_time", "end_contest_time"),
            ] {
                if let Some(t) = v[at].as_str() {
                    let ms = grundy::contest::time::parse_time(t).unwrap() - start;
                    assert_eq!(
                        reltime_ms(v[rel].as_str().unwrap()),
                        ms,
                        "{kind} {rel}: {v}"
                    );
                }
            }
        }
    }
    let mut submissions = of("submissions");
    submissions.sort_by_key(|s| reltime_ms(s["contest_time"].as_str().unwrap()));
    // A hidden team is on no board (the standard's `hidden`).
    of("teams")
        .into_iter()
        .filter(|team| team["hidden"] != true)
        .map(|team| {
            let (mut solved, mut total) = (0, 0);
            let cells: Vec<Value> = problems
                .iter()
                .map(|p| {
                    let (mut judged, mut pending, mut rejected) = (0, 0, 0);
                    let mut solve = None;
                    for s in submissions
                        .iter()
                        .filter(|s| s["team_id"] == team["id"] && s["problem_id"] == p["id"])
                    {
                        match type_of(s).map(|t| types[t]) {
                            None => pending += 1,
                            Some((_, true)) => {
                                judged = rejected + 1;
                                solve = Some(reltime_ms(s["contest_time"].as_str().unwrap()));
                                break;
                            }
                            Some((true, false)) => {
                                rejected += 1;
                                judged = rejected;
                            }
                            Some((false, false)) => {}
                        }
                    }
                    let mut cell = json!({"problem_id": p["id"], "num_judged": judged,
                                          "num_pending": pending, "solved": solve.is_some()});
                    if let Some(ms) = solve {
                        let minute = ms.div_euclid(60_000);
                        cell["time"] = json!(minute);
                        solved += 1;
                        total += minute + rejected * penalty;
                    }
                    cell
                })
                .collect();
            let id = team["id"].as_str().unwrap().to_string();
            let row = json!({"team_id": id, "score": {"num_solved": solved, "total_time": total},
                             "problems": cells});
            (id, row)
        })
        .collect()
}

/// A one-hour ICPC contest on nim (label A) started at `start_ms`, with
/// `participants`, no freeze, penalty 20, ICPC's medals and no colours:
/// the tests change what they are about with `..` over it.
pub(crate) fn icpc_on_nim(
    slug: &str,
    name: &str,
    start_ms: i64,
    participants: &[&str],
) -> grundy::store::NewContest {
    grundy::store::NewContest {
        slug: slug.into(),
        name: name.into(),
        start_ms,
        duration_s: 3600,
        freeze_s: 0,
        penalty_min: 20,
        scoring: grundy::contest::Scoring::Icpc,
        medals: grundy::contest::Medals::default(),
        participants: Some(participants.iter().map(|p| p.to_string()).collect()),
        problems: vec![("A".into(), "nim".into())],
        colors: Vec::new(),
    }
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
    let new = icpc_on_nim("wf", "World Final", now - 60_000, &["bob", "cid"]);
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
    let private =
        s.rt.block_on(s.store.ask(id, Some(cid_id), None, "Private?", now))
            .expect("ask");

    let api = format!("{}/api/contests", s.url);
    assert_valid("contests", &json(&api, None));
    // The API's root, with the slash too (as DOMjudge's tools ask for it),
    // strictly the standard's, and readable by another site's page.
    for path in ["/api", "/api/"] {
        let url = format!("{}{path}", s.url);
        let (status, cors, body) = get_with_header(&url, None, "access-control-allow-origin");
        assert_eq!(
            (status, cors),
            (200, vec!["*".to_string()]),
            "{path}: {body}"
        );
        assert_strict("api_information", &serde_json::from_str(&body).unwrap());
    }
    // `strict` is taken everywhere, and filters nothing.
    assert_valid("teams", &json(&format!("{api}/wf/teams?strict=1"), None));
    assert_valid(
        "scoreboard",
        &json(&format!("{api}/wf/scoreboard?strict=true"), None),
    );
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
        ("/awards", "awards"),
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
    assert_eq!(bob_row["problems"][0]["time"], 1);
    // The public sees the question answered to all and its answer, not
    // the private question.
    let clars = json(&format!("{api}/wf/clarifications"), None);
    assert_eq!(clars.as_array().unwrap().len(), 2, "{clars}");
    assert_eq!(clars[1]["text"], "No.");
    assert_eq!(clars[1]["reply_to_id"], "q1");
    assert!(!clars.to_string().contains("Private?"));
    // Who asked is the asker's and the judges' to know.
    assert!(clars[0]["from_team_id"].is_null(), "{clars}");
    let cid_reads = json(&format!("{api}/wf/clarifications"), Some(&basic("cid")));
    let asked = |list: &Value| {
        list.as_array()
            .unwrap()
            .iter()
            .find(|q| q["id"] == "q1")
            .cloned()
    };
    assert!(asked(&cid_reads).unwrap()["from_team_id"].is_null());
    let bob_reads = json(&format!("{api}/wf/clarifications"), Some(&bob));
    assert_eq!(
        asked(&bob_reads).unwrap()["from_team_id"],
        bob_id.to_string()
    );
    assert_eq!(
        json(&format!("{api}/wf/clarifications"), Some(&ann))
            .as_array()
            .unwrap()
            .len(),
        3
    );

    // Frozen: REST is what each reader's feed replays to.
    for auth in [
        None,
        Some(bob.as_str()),
        Some(ann.as_str()),
        Some(&*basic("cid")),
    ] {
        assert_rest_is_the_feed(&api, "wf", auth);
    }

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
    s.rt.block_on(s.store.answer(id, private, "Yes.", false, 1, now))
        .expect("answer");
    s.rt.block_on(s.store.finalize_contest(id))
        .expect("finalize");
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

    // Thawed and final: REST is still each reader's feed replayed.
    for auth in [None, Some(bob.as_str()), Some(ann.as_str())] {
        assert_rest_is_the_feed(&api, "wf", auth);
    }

    // Final: no rejudge route changes the contest's tries.
    let admin = format!("Bearer {}", s.token("ann"));
    let first = json(&format!("{api}/wf/submissions"), None)[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let v1 = format!("{}/api/v1", s.url);
    let (status, body) = crate::freeze::api(
        "POST",
        &format!("{v1}/submissions/{first}/rejudge"),
        &admin,
        None,
    );
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"]["code"], "refused", "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains("final"));
    let (status, body) =
        crate::freeze::api("POST", &format!("{v1}/problems/nim/rejudge"), &admin, None);
    assert_eq!(status, 202, "{body}");
    assert_eq!(
        (body["rejudged"].clone(), body["final_kept"].clone()),
        (json!(0), json!(3))
    );
    // The pages too.
    let cookie = crate::web::sign_in(&s.url, "ann");
    let page = format!("{}/submissions/{first}", s.url);
    let shown = crate::web::http("GET", &page, Some(&cookie), None);
    let csrf = crate::helpers::csrf_of(&shown.body);
    let refused = crate::web::http(
        "POST",
        &format!("{page}/rejudge"),
        Some(&cookie),
        Some(&[("csrf", &csrf)]),
    );
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(refused.body.contains("final"), "{}", refused.body);
    assert_eq!(judgements(None), 3);
}

/// A GET as a client reads it: status, the named header's values, body.
fn get_with_header(url: &str, auth: Option<&str>, header: &str) -> (u16, Vec<String>, String) {
    let headers: Vec<(&str, &str)> = auth.map(|a| ("Authorization", a)).into_iter().collect();
    let reply = crate::http::get(url, &headers);
    let name = header.to_ascii_lowercase();
    let values = reply
        .headers
        .iter()
        .filter(|(n, _)| *n == name)
        .map(|(_, v)| v.clone())
        .collect();
    (reply.status, values, reply.body)
}

/// The keys of every object of `list`, together.
fn keys_of(list: &Value) -> std::collections::BTreeSet<String> {
    let objects: Vec<&Value> = match list {
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    objects
        .iter()
        .flat_map(|o| o.as_object().into_iter().flat_map(|m| m.keys().cloned()))
        .collect()
}

/// The state events of a feed, checked against the standard's order:
/// `ended < thawed` (and a freeze before any thaw), `ended < finalized`,
/// and `end_of_updates` only on the very last event. (The test moves the
/// contest's window, so earlier states legitimately differ.)
fn check_state_order(events: &[Value]) {
    for (i, e) in events.iter().enumerate() {
        if e["type"] != "state" {
            continue;
        }
        let d = &e["data"];
        let t = |k: &str| d[k].as_str().map(|s| s.to_string());
        if let Some(thawed) = t("thawed") {
            let ended = t("ended").unwrap_or_else(|| panic!("thawed before ended: {d}"));
            assert!(t("frozen").is_some(), "thawed without frozen: {d}");
            assert!(ended <= thawed, "{d}");
        }
        if let Some(fin) = t("finalized") {
            let ended = t("ended").unwrap_or_else(|| panic!("finalized before ended: {d}"));
            assert!(ended <= fin, "{d}");
        }
        if t("end_of_updates").is_some() {
            assert_eq!(i, events.len() - 1, "an event after end_of_updates: {e}");
            assert!(t("finalized").is_some(), "{d}");
        }
    }
}

/// Issue 39: a contest played through — a freeze, a rejudge, a judging
/// error, a question, the end, the finalize and the thaw — read by a
/// client as the ICPC tools read the Contest API: the standard's error
/// body and challenge, language ids, filters, `access` exactly what is
/// sent, the scoreboard's fields and order, the feed's deletes and its
/// states in order, and the package's final state.
#[test]
fn a_contest_played_through_reads_as_the_icpc_tools_read_it() {
    use crate::freeze::judged;
    use grundy::store::Queue as _;
    use grundy::verdict::Verdict;
    let ws = crate::helpers::workspace_with_server("submissions_per_minute = 0");
    let s = crate::helpers::Server::start(&ws, 0);
    s.account("ann", true);
    let bob = s.account("bob", false);
    let cid = s.account("Cid", false);
    let dan = s.account("dan", false);
    let ann = basic("ann");
    let now = grundy::site::contests::now_ms();
    let new = grundy::store::NewContest {
        colors: vec![("A".into(), "#ff0000".into())],
        ..icpc_on_nim(
            "wf",
            "World Final",
            now - 5 * 60_000,
            &["bob", "Cid", "dan"],
        )
    };
    // An organization and a group, so every property `access` declares
    // is sent.
    let mut teams = grundy::contest::affiliation::Affiliations::default();
    teams
        .add_csv(
            "teams.csv",
            "team,organization,country,groups\nbob,Heap University,NLD,Division 1\n",
        )
        .expect("a sheet");
    s.rt.block_on(s.store.import_affiliations(&teams))
        .expect("import");
    let id =
        s.rt.block_on(s.store.create_contest(&new, now))
            .expect("create");
    let api = format!("{}/api/contests", s.url);
    let at = |path: &str| format!("{api}/wf{path}");

    // Errors: the standard's body, and a challenge on 401.
    let (status, _, body) = get_with_header(&at("/problems/nope"), None, "x");
    assert_eq!(status, 404);
    let body: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(body["code"], 404, "{body}");
    assert!(
        body["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
    assert_eq!(body.as_object().unwrap().len(), 2, "{body}");
    let (status, challenges, body) =
        get_with_header(&at("/state"), Some("Bearer nope"), "WWW-Authenticate");
    assert_eq!(status, 401);
    assert!(body.contains("\"code\":401"), "{body}");
    assert!(
        challenges.iter().any(|c| c.starts_with("Bearer"))
            && challenges.iter().any(|c| c.starts_with("Basic")),
        "{challenges:?}"
    );
    // Language ids as the standard names them.
    let languages = json(&format!("{api}/wf/languages"), None);
    let ids: Vec<&str> = languages
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["id"].as_str().unwrap())
        .collect();
    assert!(
        ids.contains(&"python3") && !ids.contains(&"python"),
        "{ids:?}"
    );

    // Played: dan solves, bob and Cid fail once; the freeze; bob's late
    // try; a judging error; a question.
    let dan_ac = judged(&s, dan, id, Verdict::AC);
    let bob_wa = judged(&s, bob, id, Verdict::WA);
    judged(&s, cid, id, Verdict::WA);
    let refused = s.rt.block_on(s.store.set_contest_thawed(id, Some(now)));
    assert!(
        matches!(refused, Err(grundy::store::Error::Refused(..))),
        "no freeze, no thaw: {refused:?}"
    );
    s.rt.block_on(
        s.store
            .set_contest_frozen(id, Some(grundy::site::contests::now_ms())),
    )
    .expect("freeze");
    std::thread::sleep(Duration::from_millis(5));
    let refused = s.rt.block_on(s.store.set_contest_thawed(id, Some(now)));
    assert!(
        matches!(refused, Err(grundy::store::Error::Refused(..))),
        "no thaw before the end: {refused:?}"
    );
    let errored = judged(&s, bob, id, Verdict::IE);
    let q =
        s.rt.block_on(s.store.ask(id, Some(cid), Some("A"), "Is 0 a heap?", now))
            .expect("ask");

    // Filters: on a property's id, on null, several at once; an unknown
    // property is refused.
    let list = |path: &str| json(&at(path), Some(&ann));
    let one = list(&format!("/judgements?submission_id={bob_wa}"));
    assert_eq!(one.as_array().unwrap().len(), 1, "{one}");
    assert_eq!(one[0]["submission_id"], bob_wa.to_string());
    let bobs = list(&format!("/submissions?team_id={bob}&problem_id=nim"));
    assert_eq!(bobs.as_array().unwrap().len(), 2, "{bobs}");
    assert!(
        list(&format!("/submissions?team_id={bob}&problem_id=other"))
            .as_array()
            .unwrap()
            .is_empty()
    );
    let unanswered = list("/clarifications?to_team_id=&reply_to_id=");
    assert_eq!(unanswered.as_array().unwrap().len(), 1, "{unanswered}");
    let (status, body) = get(&at("/judgements?colour=red"), Some(&ann));
    assert_eq!(status, 400, "{body}");
    assert!(
        body.contains("\"code\":400") && body.contains("colour"),
        "{body}"
    );

    // `access` lists exactly what is sent, and nothing unlisted answers.
    let access = json(&at("/access"), Some(&ann));
    let mut listed = std::collections::BTreeSet::new();
    for e in access["endpoints"].as_array().unwrap() {
        let kind = e["type"].as_str().unwrap();
        listed.insert(kind.to_string());
        let declared: std::collections::BTreeSet<String> = e["properties"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_string())
            .collect();
        let sent = match kind {
            "event-feed" => continue,
            "contest" => keys_of(&json(&at(""), Some(&ann))),
            other => keys_of(&json(&at(&format!("/{other}")), Some(&ann))),
        };
        assert_eq!(sent, declared, "{kind}: sent and declared");
    }
    for kind in [
        "groups",
        "organizations",
        "persons",
        "accounts",
        "awards",
        "commentary",
    ] {
        if !listed.contains(kind) {
            assert_eq!(get(&at(&format!("/{kind}")), None).0, 404, "{kind}");
        }
    }

    // The scoreboard: dan first with score.time; bob and Cid tied, in the
    // standard's collation (bob before Cid, where byte order puts Cid
    // first); no property the standard lacks.
    let board = json(&at("/scoreboard"), Some(&ann));
    let rows = board["rows"].as_array().unwrap();
    let order: Vec<String> = rows
        .iter()
        .map(|r| r["team_id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(order, [dan, bob, cid].map(|t| t.to_string()), "{board}");
    assert_eq!(rows[0]["score"]["time"], 5, "{}", rows[0]);
    assert_eq!(rows[0]["problems"][0]["time"], 5, "{}", rows[0]);
    assert!(rows[1]["score"].get("time").is_none(), "{}", rows[1]);
    assert!(!board.to_string().contains("first_to_solve"), "{board}");
    assert_valid("scoreboard", &board);

    // A rejudge: the runs of the judgement deleted, the judgement pending
    // again, in the feed.
    assert!(s
        .rt
        .block_on(grundy::store::Queue::rejudge(&s.store, dan_ac))
        .expect("rejudge"));
    let feed = |auth: Option<&str>| -> Vec<Value> {
        let (status, text) = get(&at("/event-feed?stream=false"), auth);
        assert_eq!(status, 200, "{text}");
        text.lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect()
    };
    // A rejudge is a new judgement, pending; the old one stays as it
    // ended, with its runs (an ended judgement is never re-opened).
    let events = feed(Some(&ann));
    let run = format!("{dan_ac}-1");
    assert!(
        !events
            .iter()
            .any(|e| e["type"] == "runs" && e["id"] == run.as_str() && e["data"].is_null()),
        "run {run} deleted"
    );
    let judgement = |id: &str| -> Vec<Value> {
        events
            .iter()
            .filter(|e| e["type"] == "judgements" && e["id"] == id)
            .map(|e| e["data"].clone())
            .collect()
    };
    let first = judgement(&dan_ac.to_string());
    assert!(
        !first.last().unwrap()["end_time"].is_null(),
        "the first judgement stays ended: {first:?}"
    );
    let second = judgement(&format!("{dan_ac}-2"));
    assert_eq!(second.len(), 1, "{second:?}");
    assert!(second[0]["judgement_type_id"].is_null() && second[0]["end_time"].is_null());
    assert_eq!(second[0]["submission_id"], dan_ac.to_string());
    assert!(second[0]["start_time"].as_str() > first[0]["start_time"].as_str());

    // The finalize refuses before the end, then while anything blocks it.
    let finalize = || ws.grundy(&["contest", "finalize", "wf"]);
    let out = finalize();
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("not ended"), "{}", out.stderr);
    let mut over = new.clone();
    over.start_ms -= 3_600_000;
    s.rt.block_on(s.store.update_contest(id, &over))
        .expect("end it");
    let out = finalize();
    assert!(out.stderr.contains("not judged"), "{}", out.stderr);
    let lease =
        s.rt.block_on(crate::helpers::claim_own(
            &s.store,
            dan_ac,
            Duration::from_secs(60),
        ))
        .expect("claimed");
    let ac = grundy::judge::Report {
        verdict: Verdict::AC,
        score: 100,
        time_ms: 7,
        memory_kib: 1,
        compile_output: String::new(),
        tests: Vec::new(),
        groups: Vec::new(),
    };
    assert!(s
        .rt
        .block_on(s.store.finish(lease, &ac, None))
        .expect("finish"));
    let out = finalize();
    assert!(out.stderr.contains("judging error"), "{}", out.stderr);
    assert!(s
        .rt
        .block_on(grundy::store::Queue::rejudge(&s.store, errored))
        .expect("rejudge"));
    let lease =
        s.rt.block_on(crate::helpers::claim_own(
            &s.store,
            errored,
            Duration::from_secs(60),
        ))
        .expect("claimed");
    let wa = grundy::judge::Report {
        verdict: Verdict::WA,
        score: 0,
        ..ac.clone()
    };
    assert!(s
        .rt
        .block_on(s.store.finish(lease, &wa, None))
        .expect("finish"));
    let out = finalize();
    assert!(out.stderr.contains("not answered"), "{}", out.stderr);
    s.rt.block_on(s.store.answer(id, q, "Yes.", false, 1, now))
        .expect("answer");
    let out = finalize();
    assert_eq!(out.code, 0, "{}", out.stderr);
    let state = json(&at("/state"), None);
    assert!(
        state["finalized"].is_string() && state["thawed"].is_null(),
        "{state}"
    );
    assert!(state["end_of_updates"].is_null(), "frozen still: {state}");
    // Final: a team's question now could not be answered without undoing
    // the finalize, so it is refused (and stores nothing).
    let late =
        s.rt.block_on(s.store.ask(id, Some(bob), None, "Again?", now));
    assert!(
        matches!(late, Err(grundy::store::Error::Refused(..))),
        "{late:?}"
    );
    // Nothing re-freezes an ended contest; the thaw is the last change.
    assert!(s
        .rt
        .block_on(
            s.store
                .set_contest_frozen(id, Some(grundy::site::contests::now_ms()))
        )
        .is_err());
    s.rt.block_on(
        s.store
            .set_contest_thawed(id, Some(grundy::site::contests::now_ms())),
    )
    .expect("thaw");
    let state = json(&at("/state"), None);
    assert!(state["end_of_updates"].is_string(), "{state}");
    assert!(s.rt.block_on(s.store.update_contest(id, &new)).is_err());
    // After the end of updates not even an announcement is appended.
    let late =
        s.rt.block_on(s.store.ask(id, None, None, "Thanks all", now));
    assert!(
        matches!(late, Err(grundy::store::Error::Refused(..))),
        "{late:?}"
    );
    let late = s.rt.block_on(s.store.answer(id, q, "Again.", true, 1, now));
    assert!(
        matches!(late, Err(grundy::store::Error::Refused(..))),
        "{late:?}"
    );
    for auth in [None, Some(ann.as_str()), Some(basic("bob").as_str())] {
        let events = feed(auth);
        check_state_order(&events);
        assert!(events.last().unwrap()["data"]["end_of_updates"].is_string());
    }

    // The package: the same final state, its feed ending on it, the
    // standard's language ids.
    let dir = ws.dir.path().join("package");
    let out = ws.grundy(&["contest", "export", "wf", dir.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let read = |name: &str| -> Value {
        serde_json::from_slice(&std::fs::read(dir.join(name)).expect(name)).expect(name)
    };
    assert_eq!(read("state.json"), json(&at("/state"), None));
    assert!(read("languages.json").to_string().contains("\"python3\""));
    let text = std::fs::read_to_string(dir.join("event-feed.ndjson")).expect("feed");
    let events: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    check_state_order(&events);
    // The rejudge's new judgement, beside the first, which kept its runs.
    assert!(events
        .iter()
        .any(|e| e["type"] == "judgements" && e["id"] == format!("{dan_ac}-2").as_str()));
    assert!(!events
        .iter()
        .any(|e| e["type"] == "runs" && e["data"].is_null()));
}

/// Issue 39: a scoring (IOI) contest's fields: problems' `max_score`, a
/// judgement's `score` declared, a partial score's cell time the minute
/// it was made (not 0), and `score.time`.
#[test]
fn a_scoring_contest_sends_the_standards_fields() {
    use grundy::verdict::Verdict;
    let ws = crate::helpers::workspace_with_server("submissions_per_minute = 0");
    let s = crate::helpers::Server::start(&ws, 0);
    let bob = s.account("bob", false);
    let now = grundy::site::contests::now_ms();
    let new = grundy::store::NewContest {
        slug: "oi".into(),
        name: "Olympiad".into(),
        start_ms: now - 7 * 60_000 - 30_000,
        duration_s: 3600,
        freeze_s: 0,
        penalty_min: 0,
        scoring: grundy::contest::Scoring::Ioi,
        medals: grundy::contest::Medals::default(),
        participants: Some(vec!["bob".into()]),
        problems: vec![("A".into(), "nim".into())],
        colors: Vec::new(),
    };
    let id =
        s.rt.block_on(s.store.create_contest(&new, now))
            .expect("create");
    let partial = grundy::judge::Report {
        verdict: Verdict::WA,
        score: 40,
        time_ms: 7,
        memory_kib: 1,
        compile_output: String::new(),
        tests: Vec::new(),
        groups: Vec::new(),
    };
    crate::freeze::judged_as(&s, bob, Some(id), &partial);
    let api = format!("{}/api/contests/oi", s.url);
    let problems = json(&format!("{api}/problems"), None);
    assert_eq!(problems[0]["max_score"], 100, "{problems}");
    let access = json(&format!("{api}/access"), None);
    let declared = |kind: &str| -> Vec<String> {
        access["endpoints"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["type"] == kind)
            .map(|e| {
                e["properties"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p.as_str().unwrap().to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    assert!(declared("judgements").contains(&"score".to_string()));
    assert!(declared("problems").contains(&"max_score".to_string()));
    assert!(!declared("contest").contains(&"penalty_time".to_string()));
    let judgements = json(&format!("{api}/judgements"), None);
    assert_eq!(judgements[0]["score"], 40, "{judgements}");
    let board = json(&format!("{api}/scoreboard"), None);
    assert_valid("scoreboard", &board);
    let row = &board["rows"][0];
    assert_eq!(row["problems"][0]["score"], 40, "{row}");
    assert_eq!(row["problems"][0]["time"], 7, "{row}");
    assert_eq!(row["score"]["time"], 7, "{row}");
}

/// The awards of `url` (a contest's `/awards`) as `auth` reads them, by
/// id: (citation, team ids).
fn awards_of(
    url: &str,
    auth: Option<&str>,
) -> std::collections::BTreeMap<String, (String, Vec<String>)> {
    let list = json(url, auth);
    assert_valid("awards", &list);
    list.as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let teams = a["team_ids"]
                .as_array()
                .unwrap_or_else(|| panic!("team_ids: {a}"))
                .iter()
                .map(|t| t.as_str().unwrap().to_string())
                .collect();
            (
                a["id"].as_str().unwrap().to_string(),
                (a["citation"].as_str().unwrap().to_string(), teams),
            )
        })
        .collect()
}

/// The awards a reader of `api`'s (a contest's) whole feed holds, as
/// `auth` reads it, by id: (citation, team ids); each award event valid.
fn awards_in_feed(
    api: &str,
    auth: Option<&str>,
) -> std::collections::BTreeMap<String, (String, Vec<String>)> {
    let (status, text) = get(&format!("{api}/event-feed?stream=false"), auth);
    assert_eq!(status, 200, "{text}");
    let mut latest = std::collections::BTreeMap::new();
    for line in text.lines() {
        let e: Value = serde_json::from_str(line).expect("a JSON line");
        if e["type"] != "awards" {
            continue;
        }
        assert_valid("event-feed", &e);
        let id = e["id"].as_str().unwrap().to_string();
        if e["data"].is_null() {
            latest.remove(&id);
            continue;
        }
        assert_valid("award", &e["data"]);
        let teams = e["data"]["team_ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        let citation = e["data"]["citation"].as_str().unwrap().to_string();
        latest.insert(id, (citation, teams));
    }
    latest
}

/// Issue 43: the awards follow the standings in every feed as they
/// change, not at the finalize only. After each try judged, a team
/// hidden and the medal counts changed, every reader's feed holds the
/// awards its `/awards` gives, and those are the standings': the board's
/// leader wins, the first solve is named, a medal no longer given is
/// deleted.
#[test]
fn awards_follow_the_standings_in_every_feed() {
    use crate::freeze::judged;
    use grundy::verdict::Verdict;
    let ws = crate::helpers::workspace_with_server("submissions_per_minute = 0");
    let s = crate::helpers::Server::start(&ws, 0);
    s.account("ann", true);
    let bob = s.account("bob", false);
    let cid = s.account("cid", false);
    let now = grundy::site::contests::now_ms();
    let new = grundy::store::NewContest {
        medals: "1,0,0".parse().expect("medals"),
        ..icpc_on_nim("cup", "Cup", now - 5 * 60_000, &["bob", "cid"])
    };
    let id =
        s.rt.block_on(s.store.create_contest(&new, now))
            .expect("create");
    let api = format!("{}/api/contests/cup", s.url);
    let ann = basic("ann");
    let readers = [Some(ann.clone()), None, Some(basic("bob"))];
    // Every reader's feed against its `/awards`, and the winner and the
    // first solve against what they must be.
    let check = |winner: &[i64], first: &[i64], step: &str| {
        let ids = |t: &[i64]| t.iter().map(i64::to_string).collect::<Vec<_>>();
        for auth in &readers {
            let rest = awards_of(&format!("{api}/awards"), auth.as_deref());
            assert_eq!(
                awards_in_feed(&api, auth.as_deref()),
                rest,
                "{step}: {auth:?}"
            );
            assert_eq!(rest["winner"].1, ids(winner), "{step}: {auth:?}");
            assert_eq!(rest["first-to-solve-nim"].1, ids(first), "{step}: {auth:?}");
        }
        let board = json(&format!("{api}/scoreboard"), None);
        let leaders: Vec<String> = board["rows"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["rank"] == 1 && r["score"]["num_solved"] != 0)
            .map(|r| r["team_id"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(leaders, ids(winner), "{step}: the board's leader");
    };
    check(&[], &[], "made");
    judged(&s, bob, id, Verdict::WA);
    check(&[], &[], "a wrong try places nobody");
    judged(&s, cid, id, Verdict::AC);
    check(&[cid], &[cid], "cid solves");
    judged(&s, bob, id, Verdict::AC);
    check(&[cid], &[cid], "bob solves later, with a penalty");
    let out = ws.grundy(&["user", "hide", "cid"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    check(&[bob], &[bob], "cid hidden");
    let gold = awards_of(&format!("{api}/awards"), Some(&ann));
    assert_eq!(gold["gold-medal"].1, vec![bob.to_string()]);
    let out = ws.grundy(&["contest", "edit", "cup", "--medals", "0,1,0"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    check(&[bob], &[bob], "medals changed");
    for auth in &readers {
        let held = awards_in_feed(&api, auth.as_deref());
        assert!(!held.contains_key("gold-medal"), "{auth:?}: {held:?}");
        assert_eq!(held["silver-medal"].1, vec![bob.to_string()], "{auth:?}");
    }
    assert_rest_is_the_feed(&format!("{}/api/contests", s.url), "cup", Some(&ann));

    // Moved an hour back, the contest is over; finalized, its board and
    // awards are final: hiding bob now changes neither, on the API or
    // for the command line.
    let mut over = new.clone();
    over.start_ms -= 3_600_000;
    over.medals = "0,1,0".parse().expect("medals");
    s.rt.block_on(s.store.update_contest(id, &over))
        .expect("end it");
    let out = ws.grundy(&["contest", "finalize", "cup"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for auth in [Some(ann.as_str()), None] {
        assert_rest_is_the_feed(&format!("{}/api/contests", s.url), "cup", auth);
    }
    let shown = |what: &str| -> Value {
        let out = ws.grundy(&["contest", "show", "cup", "--json"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        serde_json::from_str::<Value>(&out.stdout).expect("JSON")[what].clone()
    };
    let (board, awards) = (shown("scoreboard"), shown("awards"));
    let rest = json(&format!("{api}/awards"), Some(&ann));
    assert_eq!(awards, rest, "the command line's awards are the record's");
    let out = ws.grundy(&["user", "hide", "bob"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(shown("scoreboard"), board);
    assert_eq!(shown("awards"), awards);
    assert_eq!(json(&format!("{api}/awards"), None), rest);
    check(&[bob], &[bob], "bob hidden after the finalize");
}

/// Issues 39 and 43: a frozen contest's awards (medals 1, 1, 1), finalized
/// and then thawed. They follow the board the public sees (a team reads
/// the public's), so the public's medals do not move while the freeze
/// hides results; every feed holds them as its reader's `/awards` does,
/// before and after the finalize; an admin's citation and own award
/// follow in API and feed; the thaw reveals them to everyone before
/// `end_of_updates`, after which nothing changes; the package carries
/// `awards.json` and the awards' events.
#[test]
fn a_frozen_contests_awards_reach_the_public_with_the_thaw() {
    use crate::freeze::judged;
    use grundy::verdict::Verdict;
    let ws = crate::helpers::workspace_with_server("submissions_per_minute = 0");
    let s = crate::helpers::Server::start(&ws, 0);
    s.account("ann", true);
    let bob = s.account("bob", false);
    let cid = s.account("cid", false);
    let dan = s.account("dan", false);
    let eve = s.account("eve", false);
    let ann = basic("ann");
    let now = grundy::site::contests::now_ms();
    let new = grundy::store::NewContest {
        medals: "1,1,1".parse().expect("medals"),
        ..icpc_on_nim(
            "cup",
            "Cup",
            now - 5 * 60_000,
            &["bob", "cid", "dan", "eve"],
        )
    };
    let id =
        s.rt.block_on(s.store.create_contest(&new, now))
            .expect("create");
    let url = format!("{}/api/contests/cup/awards", s.url);
    let team = |t: i64| vec![t.to_string()];
    let none: Vec<String> = Vec::new();

    // dan solves before the freeze; cid (one wrong try) and bob (two)
    // after it; eve solves nothing.
    judged(&s, dan, id, Verdict::AC);
    judged(&s, bob, id, Verdict::WA);
    s.rt.block_on(
        s.store
            .set_contest_frozen(id, Some(grundy::site::contests::now_ms())),
    )
    .expect("freeze");
    std::thread::sleep(Duration::from_millis(5));
    judged(&s, cid, id, Verdict::WA);
    judged(&s, cid, id, Verdict::AC);
    judged(&s, bob, id, Verdict::WA);
    judged(&s, bob, id, Verdict::AC);
    let shown = awards_of(&url, Some(&ann));
    assert_eq!(shown["winner"], ("Contest winner".into(), team(dan)));
    assert_eq!(shown["gold-medal"].1, team(dan));
    assert_eq!(
        shown["silver-medal"],
        ("Silver medal winner".into(), team(cid))
    );
    assert_eq!(shown["bronze-medal"].1, team(bob));
    assert_eq!(shown["rank-3"], ("Rank 3".into(), team(bob)));
    assert_eq!(shown["honorable-mention"].1, none);
    assert_eq!(
        shown["first-to-solve-nim"],
        ("First to solve problem A".into(), team(dan))
    );
    assert!(
        !shown.contains_key("rank-4"),
        "eve is not placed: {shown:?}"
    );
    // The public sees the frozen board: only dan placed. bob sees his own
    // results too, not cid's.
    let public = awards_of(&url, None);
    assert_eq!(public["gold-medal"].1, team(dan));
    assert_eq!(public["silver-medal"].1, none);
    assert_eq!(public["bronze-medal"].1, none);
    assert!(!public.contains_key("rank-2"), "{public:?}");
    // A team reads the public's awards: its own sealed results rank it
    // among others' results it cannot see.
    assert_eq!(awards_of(&url, Some(&basic("bob"))), public);
    // Filtered on a team it holds.
    let cids = json(&format!("{url}?team_ids={cid}"), Some(&ann));
    let ids: Vec<&str> = cids
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["silver-medal", "rank-2"], "{cids}");
    assert_valid("award", &json(&format!("{url}/winner"), Some(&ann)));
    assert_eq!(get(&format!("{url}/nope"), Some(&ann)).0, 404);

    // The admin's changes, and what the command line refuses, in one line.
    let award = |args: &[&str]| {
        let mut all = vec!["contest", "award", "cup"];
        all.extend_from_slice(args);
        ws.grundy(&all)
    };
    for (args, says) in [
        (
            &[
                "special-spirit",
                "--citation",
                "Team spirit",
                "--teams",
                "zed",
            ][..],
            "no team \"zed\"",
        ),
        (&["winner", "--citation", "  "][..], "citation"),
        (
            &["best-costume", "--citation", "Costumes"][..],
            "give its teams",
        ),
        (
            &["winner", "--citation", "Won", "--teams", "bob"][..],
            "generated",
        ),
    ] {
        let out = award(args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stdout);
        assert!(out.stderr.contains(says), "{args:?}: {}", out.stderr);
        assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    }
    for args in [
        &["winner", "--citation", "Champion of the cup"][..],
        &[
            "special-spirit",
            "--citation",
            "Team spirit",
            "--teams",
            "eve",
        ][..],
    ] {
        let out = award(args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    }
    let shown = awards_of(&url, Some(&ann));
    assert_eq!(shown["winner"].0, "Champion of the cup");
    assert_eq!(shown["special-spirit"], ("Team spirit".into(), team(eve)));
    let public = awards_of(&url, None);
    assert_eq!(public["winner"].0, "Champion of the cup");
    assert!(
        !public.contains_key("special-spirit"),
        "an own award is announced with the results: {public:?}"
    );
    let show = ws.grundy(&["contest", "show", "cup"]);
    assert!(
        show.stdout.contains("medals: 1 gold, 1 silver, 1 bronze"),
        "{}",
        show.stdout
    );
    assert!(show.stdout.contains("Team spirit (eve)"), "{}", show.stdout);

    // The end, and the finalize. Every feed held the awards all along,
    // as the reader's `/awards` has them.
    let mut over = new.clone();
    over.start_ms -= 3_600_000;
    s.rt.block_on(s.store.update_contest(id, &over))
        .expect("end it");
    let out = ws.grundy(&["contest", "finalize", "cup"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let feed = |auth: Option<&str>| -> Vec<Value> {
        let (status, text) = get(
            &format!("{}/api/contests/cup/event-feed?stream=false", s.url),
            auth,
        );
        assert_eq!(status, 200, "{text}");
        text.lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect()
    };
    let held = |auth: Option<&str>| awards_in_feed(&format!("{}/api/contests/cup", s.url), auth);
    let events = feed(Some(&ann));
    check_state_order(&events);
    for auth in [Some(ann.clone()), None, Some(basic("bob"))] {
        assert_eq!(
            held(auth.as_deref()),
            awards_of(&url, auth.as_deref()),
            "{auth:?}"
        );
    }
    assert_eq!(held(Some(&ann)), shown);
    // A citation changed after the finalize: in the feeds at once.
    let out = award(&["gold-medal", "--citation", "Gold of the cup"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let events = feed(Some(&ann));
    let last = events.last().unwrap();
    assert_eq!(last["type"], "awards", "{last}");
    assert_eq!(last["data"]["citation"], "Gold of the cup");
    assert_eq!(last["data"]["team_ids"], serde_json::json!(team(dan)));
    assert_eq!(held(None)["gold-medal"].0, "Gold of the cup");
    assert_eq!(
        held(None)["silver-medal"].1,
        none,
        "the freeze still hides cid"
    );

    // The thaw: the awards, latest of each, for everyone, before the
    // state that ends the updates; the public's awards are the admins'.
    s.rt.block_on(
        s.store
            .set_contest_thawed(id, Some(grundy::site::contests::now_ms())),
    )
    .expect("thaw");
    let admins = awards_of(&url, Some(&ann));
    assert_eq!(awards_of(&url, None), admins);
    assert_eq!(admins["gold-medal"].0, "Gold of the cup");
    for auth in [None, Some(basic("bob")), Some(ann.clone())] {
        let events = feed(auth.as_deref());
        check_state_order(&events);
        let mut latest = std::collections::BTreeMap::new();
        for e in events.iter().filter(|e| e["type"] == "awards") {
            latest.insert(e["id"].as_str().unwrap().to_string(), e["data"].clone());
        }
        assert_eq!(latest.len(), admins.len(), "{auth:?}: {latest:?}");
        for (id, (citation, teams)) in &admins {
            assert_eq!(latest[id]["citation"], citation.as_str(), "{auth:?} {id}");
            assert_eq!(
                latest[id]["team_ids"],
                serde_json::json!(teams),
                "{auth:?} {id}"
            );
        }
        let end = events.len() - 1;
        assert!(events[end]["data"]["end_of_updates"].is_string());
        if auth.is_none() {
            // The thaw's awards, then its state (and the state the clock
            // brings, where the database's millisecond trails the thaw's).
            let last = events.iter().rposition(|e| e["type"] == "awards").unwrap();
            assert!(
                events[last + 1..].iter().all(|e| e["type"] == "state"),
                "{:?}",
                &events[last..]
            );
        }
    }
    // Nothing changes after the end of updates.
    let out = award(&["winner", "--citation", "Too late"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("end of updates"), "{}", out.stderr);
    let out = ws.grundy(&["contest", "edit", "cup", "--medals", "2,2,2"]);
    assert_eq!(out.code, 2, "{}", out.stdout);

    // The package: awards.json as the admins read them, and the awards in
    // its feed before the final state.
    let dir = ws.dir.path().join("package");
    let out = ws.grundy(&["contest", "export", "cup", dir.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let file: Value =
        serde_json::from_slice(&std::fs::read(dir.join("awards.json")).expect("awards.json"))
            .expect("JSON");
    assert_valid("awards", &file);
    assert_eq!(file, json(&url, Some(&ann)));
    let text = std::fs::read_to_string(dir.join("event-feed.ndjson")).expect("feed");
    let events: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    check_state_order(&events);
    let gold = events
        .iter()
        .rposition(|e| e["type"] == "awards" && e["id"] == "gold-medal")
        .expect("gold in the package's feed");
    assert_eq!(events[gold]["data"]["citation"], "Gold of the cup");
}

/// Issue 39: medal counts are set when a contest is made, changed while
/// it runs and after its end until its results are final, and refused
/// with one line when they are not three counts.
#[test]
fn medal_counts_are_set_and_changed_until_the_results_are_final() {
    let ws = crate::helpers::workspace_with_server("submissions_per_minute = 0");
    let s = crate::helpers::Server::start(&ws, 0);
    let medals = |slug: &str| {
        s.rt.block_on(s.store.contest(slug))
            .expect("read")
            .expect("there")
            .medals
            .to_string()
    };
    let out = ws.grundy(&[
        "contest",
        "create",
        "cup",
        "--start",
        "now",
        "--duration",
        "1h",
        "--problems",
        "nim",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(medals("cup"), "4,4,4", "ICPC's default");
    let out = ws.grundy(&["contest", "edit", "cup", "--medals", "3,2"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("medals \"3,2\""), "{}", out.stderr);
    let out = ws.grundy(&["contest", "edit", "cup", "--medals", "1,2,3"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(medals("cup"), "1,2,3");
    let show = ws.grundy(&["contest", "show", "cup", "--json"]);
    let v: Value = serde_json::from_str(&show.stdout).expect("JSON");
    assert_eq!(
        v["medals"],
        serde_json::json!({"gold": 1, "silver": 2, "bronze": 3})
    );
    assert!(v["awards"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a["id"] == "bronze-medal"));
    // Ended: only the medals change, until the finalize.
    let c =
        s.rt.block_on(s.store.contest("cup"))
            .expect("read")
            .expect("there");
    let over = grundy::store::NewContest {
        slug: "cup".into(),
        name: c.name.clone(),
        start_ms: c.start_ms - 7_200_000,
        duration_s: c.duration_s,
        freeze_s: 0,
        penalty_min: c.penalty_min,
        scoring: c.scoring,
        medals: c.medals,
        participants: None,
        problems: vec![("A".into(), "nim".into())],
        colors: Vec::new(),
    };
    s.rt.block_on(s.store.update_contest(c.id, &over))
        .expect("end it");
    let out = ws.grundy(&[
        "contest",
        "edit",
        "cup",
        "--medals",
        "2,2,2",
        "--penalty",
        "5",
    ]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("has ended"), "{}", out.stderr);
    let out = ws.grundy(&["contest", "edit", "cup", "--medals", "2,2,2"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(medals("cup"), "2,2,2");
    let out = ws.grundy(&["contest", "finalize", "cup"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = ws.grundy(&["contest", "edit", "cup", "--medals", "1,1,1"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("final"), "{}", out.stderr);
    assert_eq!(medals("cup"), "2,2,2");
}

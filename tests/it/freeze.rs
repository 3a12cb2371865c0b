//! The freeze holds everywhere (issue 25): while a contest is frozen,
//! others' results of contest submissions made after the freeze reach
//! neither participants nor the public by any path — the API's submission
//! object and its long poll, the API's list and its verdict filter,
//! `/recent`, a submission's page and its live fragment, the Contest API —
//! while a team sees its own, an admin sees all, and after the unfreeze
//! everyone sees all. Also: a contest not yet started hides its problems
//! from the API, and contest submissions through the API and
//! `grundy submit --server --contest`.
//!
//! Results are written through the store (no compiler needed), as a
//! worker would write them.

use std::time::Duration;

use serde_json::{json, Value};

use crate::helpers::{c_judge, workspace_with_server, Server, NIM_C_AC};
use crate::web::{http, sign_in};
use grundy::judge::{Report, TestReport};
use grundy::store::{NewSubmission, Queue};
use grundy::verdict::Verdict;

fn now_ms() -> i64 {
    grundy::site::contests::now_ms()
}

/// An API token for account `name`.
pub(crate) fn token(s: &Server, name: &str) -> String {
    format!("Bearer {}", s.token(name))
}

/// An API call: status and JSON body.
pub(crate) fn api(method: &str, url: &str, auth: &str, body: Option<Value>) -> (u16, Value) {
    let agent = crate::http::agent(Duration::from_secs(60), true);
    let body = match body {
        Some(b) => crate::http::Body::Json(b),
        None => crate::http::Body::Empty,
    };
    let r = crate::http::send(&agent, method, url, &[("Authorization", auth)], body);
    (r.status, r.json())
}

/// A judged submission by `user` to contest `contest`, stored now, with
/// `verdict` on one sample test, as a worker writes it.
pub(crate) fn judged(s: &Server, user: i64, contest: i64, verdict: Verdict) -> i64 {
    let test = TestReport {
        name: "sample-1".into(),
        group: grundy::problem::Group::sample(),
        verdict,
        time_ms: 7,
        wall_ms: 9,
        memory_kib: 1234,
        exit_code: Some(0),
        signal: None,
        message: String::new(),
        score: None,
        transcript: None,
    };
    let report = Report {
        verdict,
        score: if verdict == Verdict::AC { 100 } else { 0 },
        time_ms: 7,
        memory_kib: 1234,
        compile_output: String::new(),
        tests: vec![test],
        groups: Vec::new(),
    };
    judged_as(s, user, Some(contest), &report)
}

/// A try by `user` at `nim` (in `contest`, else practice), stored now and
/// judged with `report`, as a worker writes it.
pub(crate) fn judged_as(s: &Server, user: i64, contest: Option<i64>, report: &Report) -> i64 {
    let new = NewSubmission {
        problem: "nim",
        language: "c",
        source: b"int main(void) { return 0; }\n",
        user_id: Some(user),
    };
    let open = grundy::store::SubmitLimits {
        per_minute: 0,
        max_waiting: 0,
    };
    let id =
        s.rt.block_on(s.store.insert_submission_within(new, open, contest))
            .expect("insert")
            .expect("taken");
    let lease =
        s.rt.block_on(crate::helpers::claim_own(
            &s.store,
            id,
            Duration::from_secs(60),
        ))
        .expect("claimed");
    assert!(s
        .rt
        .block_on(s.store.finish(lease, report, None))
        .expect("finish"));
    id
}

pub(crate) fn contest(s: &Server, slug: &str, start_ms: i64) -> i64 {
    let new = grundy::store::NewContest {
        slug: slug.into(),
        name: slug.into(),
        start_ms,
        duration_s: 3600,
        freeze_s: 0,
        penalty_min: 20,
        scoring: grundy::contest::Scoring::Icpc,
        medals: grundy::contest::Medals::default(),
        participants: Some(vec!["bob".into(), "cid".into()]),
        problems: vec![("A".into(), "nim".into())],
        colors: Vec::new(),
    };
    s.rt.block_on(s.store.create_contest(&new, now_ms()))
        .expect("create")
}

/// Ends contest `id` (bob and cid's, as [`contest`] makes it) now: its
/// duration cut to just past what has run, then waits for the end. The
/// results are revealed only after the end (issue 39).
pub(crate) fn end_now(s: &Server, id: i64) {
    let c =
        s.rt.block_on(s.store.contest_by_id(id))
            .expect("read")
            .expect("there");
    let ran = (now_ms() - c.start_ms) / 1000 + 1;
    let new = grundy::store::NewContest {
        slug: c.slug.clone(),
        name: c.name.clone(),
        start_ms: c.start_ms,
        duration_s: ran,
        freeze_s: c.freeze_s,
        penalty_min: c.penalty_min,
        scoring: c.scoring,
        medals: c.medals,
        participants: Some(vec!["bob".into(), "cid".into()]),
        problems: c
            .problems
            .iter()
            .map(|p| (p.label.clone(), p.slug.clone()))
            .collect(),
        colors: Vec::new(),
    };
    s.rt.block_on(s.store.update_contest(id, &new))
        .expect("end it");
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while now_ms() <= c.start_ms + ran * 1000 {
        assert!(std::time::Instant::now() < deadline, "the end never came");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The ids in an API list.
fn ids(list: &Value) -> Vec<i64> {
    list["submissions"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|r| r["id"].as_i64())
        .collect()
}

fn row_of(list: &Value, id: i64) -> Value {
    list["submissions"]
        .as_array()
        .expect("a list")
        .iter()
        .find(|r| r["id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("no row {id} in {list}"))
}

#[test]
fn the_freeze_holds_on_every_path_until_the_unfreeze() {
    let ws = workspace_with_server("submissions_per_minute = 0");
    let s = Server::start(&ws, 0);
    s.account("ann", true);
    let bob_id = s.account("bob", false);
    let cid_id = s.account("cid", false);
    let url = s.url.as_str();
    let (ann, bob, cid) = (token(&s, "ann"), token(&s, "bob"), token(&s, "cid"));
    let bob_web = sign_in(url, "bob");
    let cup = contest(&s, "cup", now_ms() - 60_000);

    // Before the freeze: bob's wrong try, seen by all. Then the admin
    // freezes, and cid's accepted try comes after it.
    let early = judged(&s, bob_id, cup, Verdict::WA);
    s.rt.block_on(s.store.set_contest_frozen(cup, Some(now_ms())))
        .expect("freeze");
    std::thread::sleep(Duration::from_millis(20));
    let late = judged(&s, cid_id, cup, Verdict::AC);
    let sub = |id: i64| format!("{url}/api/v1/submissions/{id}");

    // The API's object: to bob, cid's try is frozen with nothing of its
    // result; the long poll answers at once rather than when it changes.
    let (status, seen) = api("GET", &sub(late), &bob, None);
    assert_eq!(status, 200, "{seen}");
    assert_eq!(seen["status"], "frozen", "{seen}");
    for field in ["verdict", "score", "time_ms", "memory_kib"] {
        assert!(seen[field].is_null(), "{field} leaks: {seen}");
    }
    assert_eq!(seen["tests"], json!([]), "{seen}");
    assert_eq!(seen["user"], "cid", "who and what stay public");
    let (_, polled) = api("GET", &format!("{}?wait=20", sub(late)), &bob, None);
    assert_eq!(polled["status"], "frozen");
    let (_, before) = api("GET", &sub(early), &cid, None);
    assert_eq!(before["verdict"], "WA", "a try before the freeze shows");
    // cid sees its own; the admin sees all.
    assert_eq!(api("GET", &sub(late), &cid, None).1["verdict"], "AC");
    assert_eq!(api("GET", &sub(late), &ann, None).1["verdict"], "AC");

    // The API's list: masked, and a verdict filter cannot find it.
    let list = |auth: &str, query: &str| {
        api(
            "GET",
            &format!("{url}/api/v1/submissions?{query}"),
            auth,
            None,
        )
        .1
    };
    let all = list(&bob, "");
    let row = row_of(&all, late);
    assert_eq!(row["status"], "frozen", "{row}");
    assert!(row["verdict"].is_null() && row["score"].is_null() && row["time_ms"].is_null());
    assert_eq!(row_of(&all, early)["verdict"], "WA");
    assert!(!ids(&list(&bob, "verdict=AC")).contains(&late));
    assert!(!ids(&list(&bob, "verdict=AC&user=cid")).contains(&late));
    assert_eq!(ids(&list(&cid, "verdict=AC")), vec![late], "its own");
    assert_eq!(ids(&list(&ann, "verdict=AC")), vec![late], "an admin");
    // A page of one, filtered: the sealed one is skipped, not a short page.
    let one = list(&bob, "verdict=WA&limit=1");
    assert_eq!(ids(&one), vec![early], "{one}");

    // The pages: /recent (public and signed in), the submission's page
    // and its live fragment.
    for cookie in [None, Some(bob_web.as_str())] {
        let recent = http("GET", &format!("{url}/recent"), cookie, None);
        assert_eq!(recent.status, 200);
        assert!(!recent.body.contains("v-AC"), "{}", recent.body);
        assert!(recent.body.contains("frozen"), "{}", recent.body);
        assert!(recent.body.contains("v-WA"), "the early try shows");
    }
    let page = http(
        "GET",
        &format!("{url}/submissions/{late}"),
        Some(&bob_web),
        None,
    );
    assert_eq!(page.status, 200);
    assert!(!page.body.contains("v-AC") && !page.body.contains("1234"));
    assert!(
        page.body.contains("data-status=\"frozen\""),
        "{}",
        page.body
    );
    let live = http(
        "GET",
        &format!("{url}/submissions/{late}/live?status=queued&seen=0&wait=0"),
        Some(&bob_web),
        None,
    );
    assert!(
        live.body.contains("data-status=\"frozen\""),
        "{}",
        live.body
    );
    assert!(!live.body.contains("v-AC"), "{}", live.body);

    // The Contest API, as bob (a team) and as the public.
    let bob_basic = format!(
        "Basic {}",
        base64::Engine::encode(
            &base64::engine::general_purpose::STANDARD,
            format!("bob:{}", crate::web::PASSWORD)
        )
    );
    for auth in [None, Some(bob_basic.as_str())] {
        let get = |path: &str| {
            let headers: Vec<(&str, &str)> =
                auth.map(|a| ("Authorization", a)).into_iter().collect();
            let r = crate::http::get(&format!("{url}/api/contests/cup/{path}"), &headers);
            assert_eq!(r.status, 200, "{path}: {}", r.body);
            r.body
        };
        let judgements: Value = serde_json::from_str(&get("judgements")).expect("json");
        assert!(
            !judgements
                .as_array()
                .expect("list")
                .iter()
                .any(|j| j["id"].as_str() == Some(late.to_string().as_str())),
            "{judgements}"
        );
        let feed = get("event-feed?stream=false");
        assert!(
            !feed
                .lines()
                .filter(|l| l.contains("\"judgements\""))
                .any(|l| l.contains(&format!("\"id\":\"{late}\""))),
            "{feed}"
        );
    }

    // The unfreeze, after the end: everyone sees all.
    end_now(&s, cup);
    s.rt.block_on(s.store.set_contest_thawed(cup, Some(now_ms())))
        .expect("unfreeze");
    assert_eq!(api("GET", &sub(late), &bob, None).1["verdict"], "AC");
    assert_eq!(ids(&list(&bob, "verdict=AC")), vec![late]);
    let recent = http("GET", &format!("{url}/recent"), None, None);
    assert!(recent.body.contains("v-AC"));
}

#[test]
fn a_contest_not_started_hides_its_problems_from_the_api() {
    let ws = workspace_with_server("submissions_per_minute = 0");
    let s = Server::start(&ws, 0);
    s.account("ann", true);
    s.account("bob", false);
    s.account("cid", false);
    let url = s.url.as_str();
    let (ann, bob) = (token(&s, "ann"), token(&s, "bob"));
    contest(&s, "later", now_ms() + 3_600_000);
    let slugs = |auth: &str| -> Vec<String> {
        let (status, v) = api("GET", &format!("{url}/api/v1/problems"), auth, None);
        assert_eq!(status, 200, "{v}");
        v["problems"]
            .as_array()
            .expect("list")
            .iter()
            .filter_map(|p| p["slug"].as_str().map(String::from))
            .collect()
    };
    assert!(!slugs(&bob).contains(&"nim".to_string()));
    assert!(slugs(&bob).contains(&"anti-nim".to_string()), "others stay");
    assert!(slugs(&ann).contains(&"nim".to_string()), "admins see it");
    let (status, v) = api("GET", &format!("{url}/api/v1/problems/nim"), &bob, None);
    assert_eq!(status, 403, "no statement before the start: {v}");
    assert_eq!(v["error"]["code"], "problem_in_contest");
    assert!(v.get("statement").is_none());
    let (status, v) = api("GET", &format!("{url}/api/v1/problems/nim"), &ann, None);
    assert_eq!(status, 200);
    assert!(v["statement"].as_str().is_some_and(|t| !t.is_empty()));
    // Practice on it is refused, saying a contest holds it.
    let (status, v) = api(
        "POST",
        &format!("{url}/api/v1/submissions"),
        &bob,
        Some(json!({"problem": "nim", "language": "c", "source": "int main(){}"})),
    );
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (403, Some("problem_in_contest")),
        "{v}"
    );
}

#[test]
fn contest_submissions_through_the_api_and_the_command_line() {
    let Some((ws, s)) = c_judge() else {
        return;
    };
    s.account("bob", false);
    s.account("cid", false);
    s.account("dan", false);
    let url = s.url.as_str();
    let (bob, dan) = (token(&s, "bob"), token(&s, "dan"));
    let cup = contest(&s, "cup", now_ms() - 60_000);
    let later = contest(&s, "later", now_ms() + 3_600_000);
    let post = |auth: &str, body: Value| {
        api(
            "POST",
            &format!("{url}/api/v1/submissions"),
            auth,
            Some(body),
        )
    };
    let body = |contest: Value, problem: &str| json!({"problem": problem, "language": "c", "source": NIM_C_AC, "contest": contest});
    // By slug with a label, by id with a catalog slug.
    for (named, problem) in [(json!("cup"), "A"), (json!(cup), "nim")] {
        let (status, v) = post(&bob, body(named, problem));
        assert_eq!(status, 202, "{v}");
        let id = v["id"].as_i64().expect("id");
        assert_eq!(
            s.rt.block_on(s.store.contest_of_submission(id))
                .expect("read"),
            Some(cup)
        );
    }
    // The contest's rules, each with its own code.
    let refused = |auth: &str, b: Value| {
        let (status, v) = post(auth, b);
        (
            status,
            v["error"]["code"].as_str().unwrap_or("").to_string(),
            v,
        )
    };
    let (status, code, v) = refused(&bob, body(json!("cup"), "Z"));
    assert_eq!((status, code.as_str()), (400, "unknown_problem"), "{v}");
    let (status, code, _) = refused(&dan, body(json!("cup"), "A"));
    assert_eq!((status, code.as_str()), (403, "not_a_participant"));
    let (status, code, v) = refused(&bob, body(json!(later), "A"));
    assert_eq!((status, code.as_str()), (403, "contest_not_started"), "{v}");
    let (status, _, v) = refused(&bob, body(json!("nope"), "A"));
    assert_eq!(status, 404, "{v}");
    assert!(v["error"]["message"]
        .as_str()
        .unwrap_or("")
        .contains("nope"));
    let (status, code, _) = refused(&bob, body(json!(["cup"]), "A"));
    assert_eq!((status, code.as_str()), (400, "bad_request"));

    // The command line: --contest with a label, followed to its verdict
    // by the server's worker.
    ws.file("sol.c", NIM_C_AC);
    let token = bob.trim_start_matches("Bearer ");
    let out = ws.grundy_env(
        &[("GRUNDY_TOKEN", token)],
        &[
            "submit",
            "A",
            "sol.c",
            "--server",
            url,
            "--contest",
            "cup",
            "--json",
        ],
    );
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let result = out.json();
    assert_eq!(result["verdict"], "AC", "{result}");
    let id = result["id"].as_i64().expect("id");
    assert_eq!(
        s.rt.block_on(s.store.contest_of_submission(id))
            .expect("read"),
        Some(cup)
    );
    let bad = ws.grundy(&["submit", "A", "sol.c", "--contest", "cup"]);
    assert_eq!(bad.code, 2, "--contest needs --server: {}", bad.stderr);
}

/// The type and id of each event on the lines read so far.
pub(crate) fn event_of(line: &str) -> Option<(String, String, Value)> {
    let v: Value = serde_json::from_str(line).ok()?;
    Some((
        v["type"].as_str()?.to_string(),
        v["id"].as_str().unwrap_or("").to_string(),
        v["data"].clone(),
    ))
}

#[test]
fn an_open_event_feed_sends_each_change_once() {
    use std::io::BufRead;
    let ws = workspace_with_server("submissions_per_minute = 0");
    let s = Server::start(&ws, 0);
    s.account("ann", true);
    let bob_id = s.account("bob", false);
    let cid_id = s.account("cid", false);
    let ann = token(&s, "ann");
    let cup = contest(&s, "cup", now_ms() - 60_000);
    let early = judged(&s, bob_id, cup, Verdict::WA);
    let agent = crate::http::streaming(Duration::from_secs(30));
    let reply = crate::http::open(
        &agent,
        "GET",
        &format!("{}/api/contests/cup/event-feed", s.url),
        &[("Authorization", &ann)],
        crate::http::Body::Empty,
    );
    assert_eq!(reply.status(), 200, "the feed");
    let mut lines = std::io::BufReader::new(reply.into_body().into_reader()).lines();
    let mut seen: Vec<(String, String, Value)> = Vec::new();
    // Reads events until the run of submission `id` (the last of its
    // events: runs come after the judgement of the same moment); returns
    // its judgement's verdict.
    let mut until_judged = |id: i64, seen: &mut Vec<(String, String, Value)>| {
        let mut verdict = None;
        loop {
            let line = lines.next().expect("the feed ends early").expect("a line");
            let Some(e) = event_of(&line) else { continue };
            if e.0 == "judgements" && e.1 == id.to_string() {
                if let Some(v) = e.2["judgement_type_id"].as_str() {
                    verdict = Some(v.to_string());
                }
            }
            let done = e.0 == "runs" && e.1 == format!("{id}-1");
            seen.push(e);
            if done {
                return verdict;
            }
        }
    };
    assert_eq!(until_judged(early, &mut seen).as_deref(), Some("WA"));
    let before = seen.len();
    // A try stored and judged after the feed opened arrives on it (from
    // the database: no worker of this process tells the feed).
    let late = judged(&s, cid_id, cup, Verdict::AC);
    assert_eq!(until_judged(late, &mut seen).as_deref(), Some("AC"));
    let news: Vec<(&str, &str)> = seen[before..]
        .iter()
        .map(|(k, i, _)| (k.as_str(), i.as_str()))
        .collect();
    let late = late.to_string();
    assert!(news.contains(&("submissions", late.as_str())), "{news:?}");
    assert!(
        news.iter()
            .all(|(_, i)| *i == late || i.starts_with(&format!("{late}-"))),
        "only the new try's events, each once: {news:?}"
    );
}

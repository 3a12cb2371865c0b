//! A running contest, closed to everyone it should be closed to (issue
//! 33): one access policy (`site::policy::may`) asked by every path. A
//! secret test's time reaches admins only, on the Contest API's runs and
//! its feed; a closed board is closed on the Contest API, its feed and
//! the contest page's live part; a contest's problems are reached only
//! through it until it ends; a contest not yet started names no problem,
//! on its board or on `/recent`; a number names a contest by its id.
//!
//! Results are written through the store, as a worker would write them.

use std::time::Duration;

use serde_json::Value;

use crate::freeze::{api, contest, token};
use crate::helpers::{workspace_with_server, Server, Workspace};
use crate::web::{http, sign_in};
use grundy::judge::{Report, TestReport};
use grundy::store::{NewSubmission, Queue};
use grundy::verdict::Verdict;

fn now_ms() -> i64 {
    grundy::site::contests::now_ms()
}

/// A server (the workspace kept with it) with admin ann, bob and cid (the
/// participants of [`contest`]) and eve, who takes no part.
pub(crate) fn server() -> (Workspace, Server) {
    let ws = workspace_with_server("submissions_per_minute = 0");
    let s = Server::start(&ws, 0);
    s.account("ann", true);
    s.account("bob", false);
    s.account("cid", false);
    s.account("eve", false);
    (ws, s)
}

/// A try by `user` at `nim` (in `contest`, else practice), judged with one
/// sample test of 7 ms and one secret test of 613 ms.
fn judged(s: &Server, user: i64, contest: Option<i64>) -> i64 {
    let test = |name: &str, group: grundy::problem::Group, time_ms| TestReport {
        name: name.into(),
        group,
        verdict: Verdict::AC,
        time_ms,
        wall_ms: time_ms + 2,
        memory_kib: 1234,
        exit_code: Some(0),
        signal: None,
        message: String::new(),
        score: None,
        transcript: None,
    };
    let secret = grundy::problem::Group::parse("secret").expect("a group");
    let report = Report {
        verdict: Verdict::AC,
        score: 100,
        time_ms: 613,
        memory_kib: 1234,
        compile_output: String::new(),
        tests: vec![
            test("sample-1", grundy::problem::Group::sample(), 7),
            test("big", secret, 613),
        ],
        groups: Vec::new(),
    };
    crate::freeze::judged_as(s, user, contest, &report)
}

/// A GET with credentials `auth` (empty: none, the public): status and
/// JSON body (text where it is not JSON).
fn get(url: &str, auth: &str) -> (u16, Value) {
    if !auth.is_empty() {
        return api("GET", url, auth, None);
    }
    let reply = http("GET", url, None, None);
    let value = serde_json::from_str(&reply.body).unwrap_or(Value::String(reply.body));
    (reply.status, value)
}

/// The `run_time` of each run, by ordinal.
fn run_times(runs: &[Value]) -> Vec<(i64, Option<f64>)> {
    runs.iter()
        .map(|r| (r["ordinal"].as_i64().unwrap_or(0), r["run_time"].as_f64()))
        .collect()
}

/// The runs of a feed read whole (`stream=false`).
fn feed_runs(url: &str, auth: &str) -> Vec<Value> {
    let (status, body) = get(url, auth);
    assert_eq!(status, 200, "{body}");
    let text = body.as_str().expect("ndjson").to_string();
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| e["type"] == "runs")
        .map(|e| e["data"].clone())
        .collect()
}

#[test]
fn a_secret_tests_run_time_reaches_admins_only() {
    let (_ws, s) = server();
    let bob = s.rt.block_on(s.store.user("bob")).unwrap().unwrap().id;
    let cup = contest(&s, "cup", now_ms() - 60_000);
    judged(&s, bob, Some(cup));
    let url = &s.url;
    let (ann, bob_t, cid) = (token(&s, "ann"), token(&s, "bob"), token(&s, "cid"));
    let runs = |auth: &str| {
        let (status, v) = get(&format!("{url}/api/contests/cup/runs"), auth);
        assert_eq!(status, 200, "{v}");
        v.as_array().expect("a list").clone()
    };
    let feed = format!("{url}/api/contests/cup/event-feed?stream=false");
    for (who, auth) in [
        ("the team", &bob_t),
        ("another team", &cid),
        ("the public", &String::new()),
    ] {
        for (path, got) in [("runs", runs(auth)), ("feed", feed_runs(&feed, auth))] {
            assert_eq!(
                run_times(&got),
                [(1, Some(0.007)), (2, None)],
                "{who}, {path}: the sample's time only"
            );
            assert!(
                got.iter().all(|r| r.get("secret_test").is_none()),
                "{got:?}"
            );
        }
    }
    for got in [runs(&ann), feed_runs(&feed, &ann)] {
        assert_eq!(run_times(&got), [(1, Some(0.007)), (2, Some(0.613))]);
        assert!(
            got.iter().all(|r| r.get("secret_test").is_none()),
            "{got:?}"
        );
    }
}

#[test]
fn a_closed_board_is_closed_on_the_contest_api_its_feed_and_the_live_part() {
    let (_ws, s) = server();
    let cup = contest(&s, "cup", now_ms() - 60_000);
    s.rt.block_on(s.store.set_board_public(cup, false))
        .expect("close");
    let url = &s.url;
    let (ann, bob, eve) = (token(&s, "ann"), token(&s, "bob"), token(&s, "eve"));
    for path in [
        "scoreboard",
        "teams",
        "submissions",
        "judgements",
        "runs",
        "event-feed?stream=false",
    ] {
        let at = format!("{url}/api/contests/cup/{path}");
        assert_eq!(api("GET", &at, "", None).0, 401, "the public: {path}");
        assert_eq!(
            api("GET", &at, &eve, None).0,
            403,
            "a non-participant: {path}"
        );
        assert_eq!(api("GET", &at, &bob, None).0, 200, "a participant: {path}");
        assert_eq!(api("GET", &at, &ann, None).0, 200, "an admin: {path}");
    }
    let eve_web = sign_in(url, "eve");
    for page in ["contest", "board"] {
        let live = http(
            "GET",
            &format!("{url}/contests/cup/live?page={page}"),
            Some(&eve_web),
            None,
        );
        assert_eq!(live.status, 403, "{page}: {}", live.body);
    }
    let bob_web = sign_in(url, "bob");
    let live = http(
        "GET",
        &format!("{url}/contests/cup/live?page=contest"),
        Some(&bob_web),
        None,
    );
    assert_eq!(live.status, 200);
}

#[test]
fn a_running_contests_problems_are_reached_only_through_it_until_it_ends() {
    let (_ws, s) = server();
    let url = &s.url;
    contest(&s, "cup", now_ms() - 60_000);
    let (bob, eve, ann) = (token(&s, "bob"), token(&s, "eve"), token(&s, "ann"));
    let practice = |auth: &str| {
        api(
            "POST",
            &format!("{url}/api/v1/submissions"),
            auth,
            Some(serde_json::json!({"problem": "nim", "language": "c", "source": "int main(){}"})),
        )
    };
    // A participant cannot practise it, a visitor cannot read it.
    let (status, v) = practice(&bob);
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (403, Some("problem_in_contest")),
        "{v}"
    );
    assert_eq!(
        api("GET", &format!("{url}/api/v1/problems/nim"), &eve, None).0,
        403
    );
    assert_eq!(
        api("GET", &format!("{url}/api/v1/problems/nim"), &bob, None).0,
        403
    );
    let eve_web = sign_in(url, "eve");
    assert_eq!(
        http("GET", &format!("{url}/problems/nim"), Some(&eve_web), None).status,
        404
    );
    // The participant reads it through the contest; admins everywhere.
    let bob_web = sign_in(url, "bob");
    let page = http("GET", &format!("{url}/contests/cup"), Some(&bob_web), None);
    assert!(page.body.contains("problem-A"), "{}", page.body);
    assert_eq!(
        api("GET", &format!("{url}/api/v1/problems/nim"), &ann, None).0,
        200
    );
    // Once it ends, practice opens.
    let cup = s.rt.block_on(s.store.contest("cup")).unwrap().unwrap();
    let ended = grundy::store::NewContest {
        slug: "cup".into(),
        name: "cup".into(),
        start_ms: now_ms() - 7_200_000,
        duration_s: 3600,
        freeze_s: 0,
        penalty_min: 20,
        scoring: grundy::contest::Scoring::Icpc,
        medals: grundy::contest::Medals::default(),
        participants: Some(vec!["bob".into(), "cid".into()]),
        problems: vec![("A".into(), "nim".into())],
        colors: Vec::new(),
    };
    s.rt.block_on(s.store.update_contest(cup.id, &ended))
        .expect("end it");
    assert_eq!(
        api("GET", &format!("{url}/api/v1/problems/nim"), &eve, None).0,
        200
    );
    assert_ne!(practice(&bob).1["error"]["code"], "problem_in_contest");
}

#[test]
fn a_contest_not_started_names_no_problem_on_its_board_or_on_recent() {
    let (_ws, s) = server();
    let url = &s.url;
    contest(&s, "cup", now_ms() + 3_600_000);
    let ann_id = s.rt.block_on(s.store.user("ann")).unwrap().unwrap().id;
    let (bob, ann) = (token(&s, "bob"), token(&s, "ann"));
    let board = |auth: &str| {
        let (status, v) = api(
            "GET",
            &format!("{url}/api/contests/cup/scoreboard"),
            auth,
            None,
        );
        assert_eq!(status, 200, "{v}");
        v["rows"].as_array().expect("rows").clone()
    };
    let rows = board(&bob);
    assert!(!rows.is_empty());
    assert!(
        rows.iter().all(|r| r["problems"] == serde_json::json!([])),
        "{rows:?}"
    );
    assert!(board(&ann)
        .iter()
        .all(|r| r["problems"][0]["problem_id"] == "nim"));
    // An admin's practice try at it is not on the public /recent.
    let id = judged(&s, ann_id, None);
    let link = format!("href=\"/submissions/{id}\"");
    let bob_web = sign_in(url, "bob");
    assert!(!http("GET", &format!("{url}/recent"), Some(&bob_web), None)
        .body
        .contains(&link));
    assert!(!http("GET", &format!("{url}/recent"), None, None)
        .body
        .contains(&link));
    let ann_web = sign_in(url, "ann");
    assert!(http("GET", &format!("{url}/recent"), Some(&ann_web), None)
        .body
        .contains(&link));
}

/// A submission someone may not see is not found by them, on its own
/// page and through the API as on `/recent`: an admin's practice try at a
/// problem of a contest not yet started, and a try in a contest whose
/// board is closed, by anyone but its participants.
#[test]
fn a_submission_others_may_not_see_is_not_found_by_them() {
    let (_ws, s) = server();
    let url = &s.url;
    contest(&s, "soon", now_ms() + 3_600_000);
    let closed = contest(&s, "closed", now_ms() - 60_000);
    s.rt.block_on(s.store.set_board_public(closed, false))
        .expect("close");
    let id_of = |name: &str| s.rt.block_on(s.store.user(name)).unwrap().unwrap().id;
    let practice = judged(&s, id_of("ann"), None);
    let in_contest = judged(&s, id_of("bob"), Some(closed));
    let (ann, bob, cid, eve) = (
        token(&s, "ann"),
        token(&s, "bob"),
        token(&s, "cid"),
        token(&s, "eve"),
    );
    let api_status =
        |id: i64, auth: &str| api("GET", &format!("{url}/api/v1/submissions/{id}"), auth, None).0;
    let page_status = |id: i64, name: &str| {
        let web = sign_in(url, name);
        http("GET", &format!("{url}/submissions/{id}"), Some(&web), None).status
    };
    assert_eq!(api_status(practice, &eve), 404);
    assert_eq!(api_status(practice, &bob), 404);
    assert_eq!(page_status(practice, "eve"), 404);
    assert_eq!(api_status(practice, &ann), 200);
    assert_eq!(page_status(practice, "ann"), 200);
    assert_eq!(api_status(in_contest, &eve), 404);
    assert_eq!(page_status(in_contest, "eve"), 404);
    let eve_web = sign_in(url, "eve");
    let link = format!("href=\"/submissions/{in_contest}\"");
    assert!(!http("GET", &format!("{url}/recent"), Some(&eve_web), None)
        .body
        .contains(&link));
    assert!(!http("GET", &format!("{url}/recent"), None, None)
        .body
        .contains(&link));
    // Its author, the other participant and admins see it.
    assert_eq!(api_status(in_contest, &bob), 200);
    assert_eq!(api_status(in_contest, &cid), 200);
    assert_eq!(page_status(in_contest, "cid"), 200);
    assert_eq!(api_status(in_contest, &ann), 200);
}

/// The fingerprint (`data-seen`) of the live part at `url` as the holder
/// of session `cookie` sees it now.
fn live_seen(url: &str, cookie: &str) -> String {
    let first = http("GET", url, Some(cookie), None);
    assert_eq!(first.status, 200, "{}", first.body);
    first
        .body
        .split("data-seen=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("data-seen")
        .to_string()
}

/// Returns once `n` long polls of the server wait for a change (each has
/// answered its first look): what the test changes next reaches them held.
/// Bounded: a minute, in steps of 10 ms.
fn polls_waiting(s: &crate::helpers::Server, n: usize) {
    for _ in 0..6000 {
        if s.state.polls.waiting() >= n {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("{n} long polls were not held within a minute");
}

/// The board's live part, held open by a visitor, answers 403 once an
/// admin closes the board, instead of more of the board.
#[test]
fn a_held_live_poll_ends_when_the_board_is_closed() {
    let (_ws, s) = server();
    let url = s.url.clone();
    let cup = contest(&s, "cup", now_ms() - 60_000);
    let eve_web = sign_in(&url, "eve");
    let live = format!("{url}/contests/cup/live?page=board");
    let seen = live_seen(&live, &eve_web);
    let held = std::thread::spawn(move || {
        http(
            "GET",
            &format!("{live}&wait=30&seen={seen}"),
            Some(&eve_web),
            None,
        )
    });
    polls_waiting(&s, 1);
    s.rt.block_on(s.store.set_board_public(cup, false))
        .expect("close");
    let reply = held.join().expect("the held request");
    assert_eq!(reply.status, 403, "{}", reply.body);
}

/// The pages' live parts, held open by a signed-in account, end once the
/// account is disabled: the submission's results and the contest page.
#[test]
fn a_held_page_poll_ends_when_its_account_is_disabled() {
    let (_ws, s) = server();
    let url = s.url.clone();
    contest(&s, "cup", now_ms() - 60_000);
    let bob_id = s.rt.block_on(s.store.user("bob")).unwrap().unwrap().id;
    // Queued, never judged: its results part waits for a change.
    let new = NewSubmission {
        problem: "nim",
        language: "c",
        source: b"int main(){}",
        user_id: Some(bob_id),
    };
    let id =
        s.rt.block_on(s.store.insert_submission(new))
            .expect("queue");
    let bob_web = sign_in(&url, "bob");
    let contest_live = format!("{url}/contests/cup/live?page=contest");
    let seen = live_seen(&contest_live, &bob_web);
    let held = [
        format!("{url}/submissions/{id}/live?wait=30&status=queued&seen=0"),
        format!("{contest_live}&wait=30&seen={seen}"),
    ]
    .map(|at| {
        let web = bob_web.clone();
        std::thread::spawn(move || http("GET", &at, Some(&web), None))
    });
    polls_waiting(&s, 2);
    s.rt.block_on(s.store.set_disabled("bob", true))
        .expect("disable");
    for h in held {
        let reply = h.join().expect("the held request");
        assert_ne!(reply.status, 200, "{}", reply.body);
    }
}

#[test]
fn a_number_names_a_contest_by_its_id_never_by_a_slug() {
    let (_ws, s) = server();
    let first = contest(&s, "cup", now_ms() - 60_000);
    assert_eq!(first, 1);
    // A slug that is a number is refused where contests are made ...
    let settings = grundy::site::contests::Settings {
        slug: "1".into(),
        start: "now".into(),
        duration: "1h".into(),
        problems: "nim".into(),
        ..Default::default()
    };
    let err = grundy::site::contests::check_settings(&s.ctx, &settings, now_ms()).unwrap_err();
    assert!(err.contains("not all digits"), "{err}");
    // ... and one stored before cannot take the name of contest 1.
    contest(&s, "1", now_ms() - 60_000);
    let found =
        s.rt.block_on(grundy::site::contests::find(&s.store, "1"))
            .unwrap()
            .expect("found");
    assert_eq!(found.id, first);
}

/// An HTTP Basic credential.
fn basic(name: &str, password: &str) -> String {
    use base64::Engine;
    let text = format!("{name}:{password}");
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(text)
    )
}

/// A sign-in on the form with `password`: its status.
fn form_sign_in(url: &str, name: &str, password: &str) -> u16 {
    let form = http("GET", &format!("{url}/signin"), None, None);
    let pre = crate::helpers::cookie_pair(
        form.set_cookies
            .iter()
            .find(|c| c.starts_with("grundy_signin="))
            .expect("the form's cookie"),
    );
    let csrf = crate::helpers::csrf_of(&form.body);
    let fields = [
        ("csrf", csrf.as_str()),
        ("name", name),
        ("password", password),
        ("next", "/problems"),
    ];
    http("POST", &format!("{url}/signin"), Some(&pre), Some(&fields)).status
}

#[test]
fn http_basic_signs_in_through_the_forms_throttle_pool_and_timing() {
    let (_ws, s) = server();
    let url = &s.url;
    let state = format!("{url}/api/contests");
    let right = crate::web::PASSWORD;
    assert_eq!(api("GET", &state, &basic("bob", right), None).0, 200);
    // Wrong passwords through Basic lock the name (5 by default), for the
    // right password too, on Basic and on the form.
    let mut locked = false;
    for _ in 0..10 {
        let (status, _) = api("GET", &state, &basic("bob", "guess"), None);
        if status == 429 {
            locked = true;
            break;
        }
        assert_eq!(status, 401);
    }
    assert!(locked, "Basic guesses are throttled");
    assert_eq!(api("GET", &state, &basic("bob", right), None).0, 429);
    assert_eq!(form_sign_in(url, "bob", right), 429);
    // A name locked on the form is locked on Basic.
    for _ in 0..5 {
        form_sign_in(url, "cid", "guess");
    }
    assert_eq!(form_sign_in(url, "cid", right), 429);
    assert_eq!(api("GET", &state, &basic("cid", right), None).0, 429);
    // An unknown name costs an argon2 verification, as a known one does.
    let before = s.state.passwords.verified();
    assert_eq!(api("GET", &state, &basic("nobody", "guess"), None).0, 401);
    assert_eq!(s.state.passwords.verified(), before + 1);
}

#[test]
fn revoking_a_token_or_disabling_its_user_takes_effect_at_once_and_ends_a_long_poll() {
    let (_ws, s) = server();
    let url = &s.url;
    let list = format!("{url}/api/v1/submissions");
    // Revoked: the next read is refused, with no grace.
    let raw = s.token("bob");
    let bob = format!("Bearer {raw}");
    assert_eq!(api("GET", &list, &bob, None).0, 200);
    let hash = grundy::auth::token_hash(&raw);
    assert!(s.rt.block_on(s.store.revoke_token(&hash)).expect("revoke"));
    assert_eq!(api("GET", &list, &bob, None).0, 401);
    // Disabled: likewise, on /api/v1 and the Contest API.
    let cid = token(&s, "cid");
    let contests = format!("{url}/api/contests");
    assert_eq!(api("GET", &list, &cid, None).0, 200);
    assert_eq!(api("GET", &contests, &cid, None).0, 200);
    s.rt.block_on(s.store.set_disabled("cid", true))
        .expect("disable");
    assert_eq!(api("GET", &list, &cid, None).0, 401);
    assert_eq!(api("GET", &contests, &cid, None).0, 401);
    // A long poll of a submission no one judges ends when its token is
    // revoked, refused, rather than answering when its wait is over.
    let raw = s.token("eve");
    let eve = format!("Bearer {raw}");
    let eve_id = s.rt.block_on(s.store.user("eve")).unwrap().unwrap().id;
    let queued = NewSubmission {
        problem: "anti-nim",
        language: "c",
        source: b"int main(void) { return 0; }\n",
        user_id: Some(eve_id),
    };
    let id = s.rt.block_on(s.store.enqueue(queued)).expect("queued");
    let poll = format!("{list}/{id}?wait=20");
    let waiting = std::thread::spawn(move || api("GET", &poll, &eve, None));
    polls_waiting(&s, 1);
    assert!(s
        .rt
        .block_on(s.store.revoke_token(&grundy::auth::token_hash(&raw)))
        .expect("revoke"));
    let (status, v) = waiting.join().expect("the poll");
    assert_eq!(status, 401, "{v}");
}

/// Issue 46: a token's account is kept in memory between requests, yet a
/// change made through another server (its own store on the same
/// database, as on another machine) or by the command line (another
/// process) is taken by the very next request here: a revoked token, a
/// disabled account, an account enabled again, an admin made.
fn a_credential_changed_elsewhere_is_taken_by_the_next_request(postgres: bool) {
    let ws = workspace_with_server("submissions_per_minute = 0");
    if postgres {
        let Some(url) = crate::pg::database() else {
            return;
        };
        let text = std::fs::read_to_string(ws.config()).expect("config");
        let text: Vec<String> = text
            .lines()
            .map(|l| match l.starts_with("database_url") {
                true => format!("database_url = {url:?}"),
                false => l.to_string(),
            })
            .collect();
        std::fs::write(ws.config(), text.join("\n")).expect("config");
    }
    let here = Server::start(&ws, 0);
    let there = Server::start(&ws, 0);
    for name in ["bob", "cid", "dan"] {
        here.account(name, false);
    }
    let list = format!("{}/api/v1/submissions", here.url);
    let workers = format!("{}/api/v1/admin/workers", here.url);
    let read = |url: &str, auth: &str| {
        // Several reads: whatever is kept between requests is kept by now.
        let first = api("GET", url, auth, None).0;
        for _ in 0..3 {
            assert_eq!(api("GET", url, auth, None).0, first);
        }
        first
    };

    // Revoked through the other server's API: refused here at once.
    let raw = here.token("bob");
    let bob = format!("Bearer {raw}");
    assert_eq!(read(&list, &bob), 200);
    let prefix = &raw[..8];
    let revoke = format!("{}/api/v1/tokens/{prefix}", there.url);
    let (status, reply) = api("DELETE", &revoke, &bob, None);
    assert!(status == 200 || status == 204, "{status} {reply}");
    assert_eq!(api("GET", &list, &bob, None).0, 401);

    // Disabled elsewhere: refused at once; enabled again: taken at once.
    let cid = token(&here, "cid");
    assert_eq!(read(&list, &cid), 200);
    there
        .rt
        .block_on(there.store.set_disabled("cid", true))
        .expect("disable");
    let (status, reply) = api("GET", &list, &cid, None);
    assert_eq!(status, 401, "{reply}");
    there
        .rt
        .block_on(there.store.set_disabled("cid", false))
        .expect("enable");
    assert_eq!(api("GET", &list, &cid, None).0, 200);

    // Made an admin elsewhere: an admin's route opens at once.
    let dan = token(&here, "dan");
    assert_eq!(read(&workers, &dan), 403);
    there
        .rt
        .block_on(there.store.set_admin("dan", true))
        .expect("admin");
    assert_eq!(api("GET", &workers, &dan, None).0, 200);

    // Revoked by the command line, another process: refused at once.
    let raw = here.token("dan");
    let dan = format!("Bearer {raw}");
    assert_eq!(read(&list, &dan), 200);
    let out = match postgres {
        true => {
            let url = there.ctx.config.database_url();
            ws.grundy_env(&[("GRUNDY_DATABASE_URL", &url)], &["token", "revoke", &raw])
        }
        false => ws.grundy(&["token", "revoke", &raw]),
    };
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(api("GET", &list, &dan, None).0, 401);
}

#[test]
fn a_credential_changed_elsewhere_is_taken_by_the_next_request_sqlite() {
    a_credential_changed_elsewhere_is_taken_by_the_next_request(false);
}

#[test]
fn a_credential_changed_elsewhere_is_taken_by_the_next_request_postgres() {
    a_credential_changed_elsewhere_is_taken_by_the_next_request(true);
}

#[test]
fn questions_to_the_judges_are_limited_per_team_and_minute() {
    let (_ws, s) = server();
    let url = &s.url;
    let cup = contest(&s, "cup", now_ms() - 60_000);
    let bob = sign_in(url, "bob");
    let page = http("GET", &format!("{url}/contests/cup"), Some(&bob), None);
    let csrf = crate::helpers::csrf_of(&page.body);
    let ask = |question: &str| {
        let form = [
            ("csrf", csrf.as_str()),
            ("label", ""),
            ("question", question),
        ];
        http(
            "POST",
            &format!("{url}/contests/cup/ask"),
            Some(&bob),
            Some(&form),
        )
        .status
    };
    // Three a minute by default, then 429; an oversized one is refused.
    assert_eq!(ask(&"x".repeat(4001)), 400);
    let statuses: Vec<u16> = (0..5).map(|i| ask(&format!("question {i}"))).collect();
    assert_eq!(statuses, [303, 303, 303, 429, 429]);
    let asked =
        s.rt.block_on(s.store.clarifications(cup, None))
            .expect("read");
    assert_eq!(asked.len(), 3);
}

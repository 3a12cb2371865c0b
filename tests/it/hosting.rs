//! The organiser's everyday hosting (issue 38): contestants' own tokens
//! (a page, and a throttled sign-in on the API), the organiser's commands
//! on the command line and the admin pages alike (users enabled, passwords
//! reset, many users at once, contests edited and deleted), `/api/v1`'s
//! contest views and the words it answers with, and `grundy db copy` from
//! SQLite to PostgreSQL.

use std::io::Write as _;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use crate::freeze::{api, contest, judged, token};
use crate::helpers::{csrf_of, Output, Workspace};
use crate::web::{http, sign_in, PASSWORD};
use grundy::store::Queue as _;
use grundy::verdict::Verdict;

fn now_ms() -> i64 {
    grundy::site::contests::now_ms()
}

use crate::access::server;

/// An HTTP Basic credential.
fn basic(name: &str, password: &str) -> String {
    use base64::Engine;
    let text = format!("{name}:{password}");
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(text)
    )
}

#[test]
fn a_contestant_makes_lists_and_revokes_their_own_tokens_through_the_api() {
    let (_ws, s) = server();
    let url = &s.url;
    let tokens = format!("{url}/api/v1/tokens");
    // `curl -u name:password` on the API is pointed at the door that takes it.
    let (status, v) = api(
        "GET",
        &format!("{url}/api/v1/problems"),
        &basic("bob", PASSWORD),
        None,
    );
    assert_eq!(status, 401);
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.contains("POST /api/v1/tokens"), "{message}");
    // That door answers a token that works.
    let (status, v) = api("POST", &tokens, &basic("bob", PASSWORD), None);
    assert_eq!(status, 201, "{v}");
    let bob = format!("Bearer {}", v["token"].as_str().unwrap());
    let prefix = v["prefix"].as_str().unwrap().to_string();
    assert!(v["token"].as_str().unwrap().starts_with(&prefix));
    assert_eq!(
        api("GET", &format!("{url}/api/v1/problems"), &bob, None).0,
        200
    );
    // Listed by prefix, never whole.
    let (status, list) = api("GET", &tokens, &bob, None);
    assert_eq!(status, 200);
    assert_eq!(list["tokens"].as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list["tokens"][0]["prefix"], prefix.as_str());
    assert!(!list.to_string().contains(v["token"].as_str().unwrap()));
    // Someone else's token is out of reach, even by its prefix.
    let (_, cv) = api("POST", &tokens, &basic("cid", PASSWORD), None);
    let cid = format!("Bearer {}", cv["token"].as_str().unwrap());
    let cid_prefix = cv["prefix"].as_str().unwrap();
    let (status, _) = api("DELETE", &format!("{tokens}/{cid_prefix}"), &bob, None);
    assert_eq!(status, 404);
    assert_eq!(
        api("GET", &tokens, &cid, None).0,
        200,
        "cid's token still works"
    );
    // One's own goes at once.
    let (status, v) = api("DELETE", &format!("{tokens}/{prefix}"), &bob, None);
    assert_eq!((status, v["revoked"].as_i64()), (200, Some(1)), "{v}");
    assert_eq!(api("GET", &tokens, &bob, None).0, 401);
    // No password, no token.
    assert_eq!(api("POST", &tokens, "Bearer nothing", None).0, 401);
}

#[test]
fn the_apis_sign_in_is_the_forms_throttled_one() {
    let (_ws, s) = server();
    let tokens = format!("{}/api/v1/tokens", s.url);
    // Wrong passwords lock the name (5 by default), the right one too.
    let mut locked = false;
    for _ in 0..10 {
        let (status, v) = api("POST", &tokens, &basic("bob", "guess"), None);
        if status == 429 {
            assert_eq!(v["error"]["code"], "throttled");
            locked = true;
            break;
        }
        assert_eq!(status, 401, "{v}");
    }
    assert!(locked, "guesses at the API's sign-in are throttled");
    assert_eq!(api("POST", &tokens, &basic("bob", PASSWORD), None).0, 429);
    // The same lock holds on the form: one throttle.
    let form = http("GET", &format!("{}/signin", s.url), None, None);
    let pre = crate::helpers::cookie_pair(
        form.set_cookies
            .iter()
            .find(|c| c.starts_with("grundy_signin="))
            .expect("the form's cookie"),
    );
    let csrf = csrf_of(&form.body);
    let fields = [
        ("csrf", csrf.as_str()),
        ("name", "bob"),
        ("password", PASSWORD),
        ("next", "/problems"),
    ];
    let signed = http(
        "POST",
        &format!("{}/signin", s.url),
        Some(&pre),
        Some(&fields),
    );
    assert_eq!(signed.status, 429);
    // A disabled account gets no token.
    s.rt.block_on(s.store.set_disabled("cid", true)).unwrap();
    assert_eq!(api("POST", &tokens, &basic("cid", PASSWORD), None).0, 401);
}

#[test]
fn the_tokens_page_makes_a_token_shown_once_and_revokes_it() {
    let (_ws, s) = server();
    let url = &s.url;
    let bob = sign_in(url, "bob");
    let page = http("GET", &format!("{url}/account/tokens"), Some(&bob), None);
    assert_eq!(page.status, 200);
    assert!(page.body.contains("No live tokens"), "{}", page.body);
    let csrf = csrf_of(&page.body);
    let made = http(
        "POST",
        &format!("{url}/account/tokens"),
        Some(&bob),
        Some(&[("csrf", &csrf)]),
    );
    assert_eq!(made.status, 200);
    let at = made
        .body
        .find("id=\"token-value\">")
        .expect("the new token")
        + 17;
    let secret = made.body[at..].split('<').next().unwrap().to_string();
    assert!(secret.starts_with("g_"), "{secret}");
    let bearer = format!("Bearer {secret}");
    assert_eq!(
        api("GET", &format!("{url}/api/v1/problems"), &bearer, None).0,
        200
    );
    // Shown once: the page lists it by prefix only.
    let again = http("GET", &format!("{url}/account/tokens"), Some(&bob), None);
    assert!(!again.body.contains(&secret));
    let (_, list) = api("GET", &format!("{url}/api/v1/tokens"), &bearer, None);
    let prefix = list["tokens"][0]["prefix"].as_str().unwrap().to_string();
    assert!(again.body.contains(&prefix));
    // A form without the session's CSRF token is refused.
    let forged = http(
        "POST",
        &format!("{url}/account/tokens/{prefix}/revoke"),
        Some(&bob),
        Some(&[("csrf", "forged")]),
    );
    assert_eq!(forged.status, 403);
    let revoked = http(
        "POST",
        &format!("{url}/account/tokens/{prefix}/revoke"),
        Some(&bob),
        Some(&[("csrf", &csrf)]),
    );
    assert_eq!(revoked.status, 303);
    assert_eq!(
        api("GET", &format!("{url}/api/v1/problems"), &bearer, None).0,
        401
    );
    // Another user's token cannot be revoked from bob's page.
    let cid = s.token("cid");
    let cid_prefix = &cid[..8];
    let other = http(
        "POST",
        &format!("{url}/account/tokens/{cid_prefix}/revoke"),
        Some(&bob),
        Some(&[("csrf", &csrf)]),
    );
    assert_eq!(other.status, 404);
    let cid = format!("Bearer {cid}");
    assert_eq!(
        api("GET", &format!("{url}/api/v1/problems"), &cid, None).0,
        200
    );
}

#[test]
fn an_unknown_query_parameter_is_refused_naming_the_known_ones() {
    let (_ws, s) = server();
    let url = &s.url;
    let bob = token(&s, "bob");
    let (status, v) = api(
        "GET",
        &format!("{url}/api/v1/submissions?contest=cup"),
        &bob,
        None,
    );
    assert_eq!(status, 400, "{v}");
    assert_eq!(v["error"]["code"], "unknown_parameter");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.contains("\"contest\""), "{message}");
    assert!(
        message.contains("user, problem, verdict, limit, before"),
        "{message}"
    );
    let (status, v) = api("GET", &format!("{url}/api/v1/problems?page=2"), &bob, None);
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (400, Some("unknown_parameter"))
    );
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("takes no query parameters"));
    let (status, _) = api(
        "GET",
        &format!("{url}/api/v1/submissions/1?wiat=5"),
        &bob,
        None,
    );
    assert_eq!(status, 400);
    // The known ones still work.
    let (status, _) = api(
        "GET",
        &format!("{url}/api/v1/submissions?limit=5"),
        &bob,
        None,
    );
    assert_eq!(status, 200);
}

#[test]
fn the_api_shows_a_contest_its_board_and_its_submissions_as_the_policy_says() {
    let (_ws, s) = server();
    let url = &s.url;
    let cup = contest(&s, "cup", now_ms() - 60_000);
    contest(&s, "later", now_ms() + 3_600_000);
    let bob_id = s.rt.block_on(s.store.user("bob")).unwrap().unwrap().id;
    let id = judged(&s, bob_id, cup, Verdict::AC);
    let (ann, bob, eve) = (token(&s, "ann"), token(&s, "bob"), token(&s, "eve"));
    let (status, v) = api("GET", &format!("{url}/api/v1/contests"), &eve, None);
    assert_eq!(status, 200);
    let slugs: Vec<&str> = v["contests"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["slug"].as_str())
        .collect();
    assert!(slugs.contains(&"cup") && slugs.contains(&"later"), "{v}");
    // A running contest: its problems are public, its participants known.
    let (status, v) = api("GET", &format!("{url}/api/v1/contests/cup"), &bob, None);
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["phase"].as_str(), v["participant"].as_bool()),
        (Some("running"), Some(true))
    );
    assert_eq!(v["problems"][0]["label"], "A");
    assert_eq!(v["problems"][0]["slug"], "nim");
    let (_, v) = api("GET", &format!("{url}/api/v1/contests/{cup}"), &eve, None);
    assert_eq!(v["participant"], false, "by id too: {v}");
    // Its board and its submissions.
    let (status, board) = api(
        "GET",
        &format!("{url}/api/v1/contests/cup/board"),
        &eve,
        None,
    );
    assert_eq!(status, 200, "{board}");
    let row = &board["rows"][0];
    assert_eq!(
        (row["team"]["name"].as_str(), row["solved"].as_u64()),
        (Some("bob"), Some(1))
    );
    let (status, list) = api(
        "GET",
        &format!("{url}/api/v1/contests/cup/submissions"),
        &eve,
        None,
    );
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["submissions"][0]["id"], id);
    assert_eq!(list["submissions"][0]["contest"], "cup");
    // The list of all submissions says which contest each belongs to.
    let (_, all) = api("GET", &format!("{url}/api/v1/submissions"), &ann, None);
    let mine = all["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .expect("listed")
        .clone();
    assert_eq!(mine["contest"], "cup", "{mine}");
    // A closed board is its participants' (and admins') only.
    s.rt.block_on(s.store.set_board_public(cup, false)).unwrap();
    assert_eq!(
        api(
            "GET",
            &format!("{url}/api/v1/contests/cup/board"),
            &eve,
            None
        )
        .0,
        403
    );
    assert_eq!(
        api(
            "GET",
            &format!("{url}/api/v1/contests/cup/submissions"),
            &eve,
            None
        )
        .0,
        403
    );
    assert_eq!(
        api(
            "GET",
            &format!("{url}/api/v1/contests/cup/board"),
            &bob,
            None
        )
        .0,
        200
    );
    // Before the start no one but admins learns its problems.
    let (_, v) = api("GET", &format!("{url}/api/v1/contests/later"), &bob, None);
    assert_eq!(
        (v["phase"].as_str(), v["problems"].is_null()),
        (Some("upcoming"), true),
        "{v}"
    );
    assert_eq!(
        api(
            "GET",
            &format!("{url}/api/v1/contests/later/board"),
            &bob,
            None
        )
        .0,
        403
    );
    let (_, v) = api("GET", &format!("{url}/api/v1/contests/later"), &ann, None);
    assert_eq!(v["problems"][0]["slug"], "nim");
    assert_eq!(
        api("GET", &format!("{url}/api/v1/contests/nope"), &bob, None).0,
        404
    );
}

#[test]
fn a_problem_a_contest_holds_says_so_instead_of_being_unknown() {
    let (_ws, s) = server();
    let url = &s.url;
    let later = contest(&s, "later", now_ms() + 3_600_000);
    let bob = token(&s, "bob");
    let practice = || {
        api(
            "POST",
            &format!("{url}/api/v1/submissions"),
            &bob,
            Some(json!({"problem": "nim", "language": "c", "source": "int main(){}"})),
        )
    };
    let said = |(status, v): (u16, Value)| {
        assert_eq!(
            (status, v["error"]["code"].as_str()),
            (403, Some("problem_in_contest")),
            "{v}"
        );
        v["error"]["message"].as_str().unwrap().to_string()
    };
    // Upcoming: that it is held, not by which contest.
    let message = said(api(
        "GET",
        &format!("{url}/api/v1/problems/nim"),
        &bob,
        None,
    ));
    assert!(
        message.contains("a contest that has not started"),
        "{message}"
    );
    assert!(!message.contains("later"), "{message}");
    assert!(said(practice()).contains("has not started"));
    // Running: which contest, and where to go.
    let running = grundy::store::NewContest {
        slug: "later".into(),
        name: "The Later Cup".into(),
        start_ms: now_ms() - 60_000,
        duration_s: 3600,
        freeze_s: 0,
        penalty_min: 20,
        scoring: grundy::contest::Scoring::Icpc,
        medals: grundy::contest::Medals::default(),
        participants: Some(vec!["bob".into()]),
        problems: vec![("A".into(), "nim".into())],
        colors: Vec::new(),
    };
    s.rt.block_on(s.store.update_contest(later, &running))
        .unwrap();
    let message = said(practice());
    assert!(
        message.contains("The Later Cup (later)") && message.contains("running"),
        "{message}"
    );
    // A problem no contest holds is still just unknown.
    let (status, v) = api(
        "POST",
        &format!("{url}/api/v1/submissions"),
        &bob,
        Some(json!({"problem": "no-such", "language": "c", "source": "int main(){}"})),
    );
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (400, Some("unknown_problem"))
    );
}

/// Runs `grundy ARGS` in `ws` with `stdin` as its standard input.
fn grundy_with_input(ws: &Workspace, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("--config")
        .arg(ws.config())
        .args(args)
        .current_dir(ws.dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run grundy");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Whether account `name` signs in with `password`, as the store says.
fn signs_in(ws: &Workspace, name: &str, password: &str) -> bool {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let config = grundy::config::Config::load(&ws.config()).unwrap();
    let store = rt
        .block_on(grundy::store::Store::open(&config.database_url()))
        .unwrap();
    let found = rt.block_on(store.user_with_password(name)).unwrap();
    rt.block_on(store.close());
    found.is_some_and(|(u, hash)| !u.disabled && grundy::auth::verify_password(password, &hash))
}

#[test]
fn the_command_line_enables_resets_and_adds_many_users() {
    let ws = Workspace::new();
    let added = grundy_with_input(&ws, &["user", "add", "bob"], "first-password\n");
    assert_eq!(added.code, 0, "{}", added.stderr);
    // Disabled, then enabled again.
    assert_eq!(ws.grundy(&["user", "disable", "bob"]).code, 0);
    assert!(!signs_in(&ws, "bob", "first-password"));
    let enabled = ws.grundy(&["user", "enable", "bob"]);
    assert_eq!(enabled.code, 0, "{}", enabled.stderr);
    assert!(signs_in(&ws, "bob", "first-password"));
    // A new password replaces the old.
    let reset = grundy_with_input(&ws, &["user", "password", "bob"], "second-password\n");
    assert_eq!(reset.code, 0, "{}", reset.stderr);
    assert!(signs_in(&ws, "bob", "second-password"));
    assert!(!signs_in(&ws, "bob", "first-password"));
    ws.grundy(&["user", "password", "nobody"])
        .assert_usage_error("no user \"nobody\"");
    // Many at once: given passwords kept, the others generated and printed once.
    let roster = ws.file(
        "roster.csv",
        "name,password\nteam1,given-password\nteam2\nteam3\n",
    );
    let out = ws.grundy(&["user", "import", roster.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(signs_in(&ws, "team1", "given-password"));
    let printed: Vec<(&str, &str)> = out
        .stdout
        .lines()
        .map(|l| l.split_once(',').expect("name,password"))
        .collect();
    assert_eq!(
        printed.iter().map(|p| p.0).collect::<Vec<_>>(),
        ["team2", "team3"]
    );
    for (name, password) in &printed {
        assert!(signs_in(&ws, name, password), "{name}");
    }
    assert!(out.stderr.contains("added 3 users"), "{}", out.stderr);
    // All or nothing: a taken name adds no one.
    let clash = ws.file("clash.csv", "team4\nteam1\n");
    let out = ws.grundy(&["user", "import", clash.to_str().unwrap()]);
    out.assert_usage_error("team1");
    assert!(
        out.stderr.contains("no account was added"),
        "{}",
        out.stderr
    );
    assert!(!ws.grundy(&["user", "list"]).stdout.contains("team4"));
    // A wrong line is named with its file and number.
    let bad = ws.file("bad.csv", "team5,long-enough\nno spaces\n");
    let out = ws.grundy(&["user", "import", bad.to_str().unwrap()]);
    out.assert_usage_error("bad.csv: line 2: user name \"no spaces\"");
    assert!(!ws.grundy(&["user", "list"]).stdout.contains("team5"));
}

/// The contest `slug` as `grundy contest show --json` prints it.
fn shown(ws: &Workspace, slug: &str) -> Value {
    let out = ws.grundy(&["contest", "show", slug, "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.json()
}

#[test]
fn the_command_line_edits_and_deletes_contests_through_the_record() {
    let ws = Workspace::new();
    for name in ["bob", "cid"] {
        assert_eq!(
            grundy_with_input(&ws, &["user", "add", name], "a-password\n").code,
            0
        );
    }
    let create = |slug: &str, start: &str| {
        let out = ws.grundy(&[
            "contest",
            "create",
            slug,
            "--start",
            start,
            "--duration",
            "1h",
            "--problems",
            "nim",
            "--participants",
            "bob",
        ]);
        assert_eq!(out.code, 0, "{}", out.stderr);
    };
    create("soon", "+1h");
    create("now", "now");
    // Before the start anything changes; what is not given stays.
    let out = ws.grundy(&[
        "contest",
        "edit",
        "soon",
        "--problems",
        "nim,anti-nim",
        "--name",
        "Soon Cup",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v = shown(&ws, "soon");
    assert_eq!(
        (v["name"].as_str(), v["duration_s"].as_i64()),
        (Some("Soon Cup"), Some(3600))
    );
    assert_eq!(v["problems"][1]["problem"], "anti-nim");
    // Running: it may run longer and take another participant, and each
    // change is in its record (the feeds read it).
    let config = grundy::config::Config::load(&ws.config()).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let store = rt
        .block_on(grundy::store::Store::open(&config.database_url()))
        .unwrap();
    let version = |store: &grundy::store::Store| {
        let c = rt.block_on(store.contest("now")).unwrap().unwrap();
        rt.block_on(store.contest_version(&c)).unwrap().0
    };
    let before = version(&store);
    let out = ws.grundy(&[
        "contest",
        "edit",
        "now",
        "--duration",
        "2h",
        "--participants",
        "bob,cid",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(shown(&ws, "now")["duration_s"], 7200);
    assert!(version(&store) > before, "the edit is in the record");
    let c = rt.block_on(store.contest("now")).unwrap().unwrap();
    let teams = rt.block_on(store.contest_teams(&c)).unwrap();
    assert_eq!(teams.len(), 2);
    // ... but not change its problems or start.
    let out = ws.grundy(&["contest", "edit", "now", "--problems", "anti-nim"]);
    out.assert_usage_error("running: its problems no longer change");
    let out = ws.grundy(&["contest", "edit", "now", "--start", "+5m"]);
    out.assert_usage_error("its start no longer changes");
    // Issue 47: with a colour on a problem the edit drops, the answer is
    // still that the problems are fixed, not a colour error; before the
    // start, a problem that stays keeps its colour under its new label.
    for slug in ["soon", "now"] {
        let out = ws.grundy(&["contest", "edit", slug, "--colors", "nim=#00ff00"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
    }
    for colors in [&[][..], &["--colors", "A=#00ff00"]] {
        let mut args = vec!["contest", "edit", "now", "--problems", "B=anti-nim"];
        args.extend_from_slice(colors);
        let out = ws.grundy(&args);
        out.assert_usage_error("running: its problems no longer change");
        assert!(!out.stderr.contains("colour"), "{}", out.stderr);
    }
    let out = ws.grundy(&["contest", "edit", "soon", "--problems", "anti-nim,nim"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let soon = rt.block_on(store.contest("soon")).unwrap().unwrap();
    let colours: Vec<_> = soon
        .problems
        .iter()
        .map(|p| (p.label.as_str(), p.slug.as_str(), p.rgb.as_deref()))
        .collect();
    assert_eq!(
        colours,
        [("A", "anti-nim", None), ("B", "nim", Some("#00ff00"))]
    );
    // A contest with tries is not deleted; one without is, with its record.
    let bob = rt.block_on(store.user("bob")).unwrap().unwrap().id;
    let open = grundy::store::SubmitLimits {
        per_minute: 0,
        max_waiting: 0,
    };
    let new = grundy::store::NewSubmission {
        problem: "nim",
        language: "c",
        source: b"int main(void) { return 0; }\n",
        user_id: Some(bob),
    };
    rt.block_on(store.insert_submission_within(new, open, Some(c.id)))
        .unwrap()
        .expect("taken");
    ws.grundy(&["contest", "delete", "now"])
        .assert_usage_error("holds 1 submission,");
    assert!(rt.block_on(store.contest("now")).unwrap().is_some());
    let out = ws.grundy(&["contest", "delete", "soon"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(rt.block_on(store.contest("soon")).unwrap().is_none());
    ws.grundy(&["contest", "delete", "soon"])
        .assert_usage_error("no contest \"soon\"");
    rt.block_on(store.close());
}

#[test]
fn the_admin_pages_add_many_users_and_edit_and_delete_contests() {
    let (_ws, s) = server();
    let url = &s.url;
    let ann = sign_in(url, "ann");
    let page = http("GET", &format!("{url}/admin/users"), Some(&ann), None);
    let csrf = csrf_of(&page.body);
    let roster = "dan\nfay,fay-password\n";
    let done = http(
        "POST",
        &format!("{url}/admin/users/import"),
        Some(&ann),
        Some(&[("csrf", &csrf), ("roster", roster)]),
    );
    assert_eq!(done.status, 200, "{}", done.body);
    let at = done
        .body
        .find("id=\"generated-csv\">")
        .expect("generated passwords")
        + 19;
    let line = done.body[at..].lines().next().unwrap();
    let (name, password) = line.split_once(',').unwrap();
    assert_eq!(name, "dan");
    let tokens = format!("{url}/api/v1/tokens");
    assert_eq!(api("POST", &tokens, &basic("dan", password), None).0, 201);
    assert_eq!(
        api("POST", &tokens, &basic("fay", "fay-password"), None).0,
        201
    );
    // A wrong line adds no one and says where.
    let refused = http(
        "POST",
        &format!("{url}/admin/users/import"),
        Some(&ann),
        Some(&[("csrf", &csrf), ("roster", "gus\nbad name\n")]),
    );
    assert_eq!(refused.status, 400);
    assert!(refused.body.contains("line 2:"), "{}", refused.body);
    assert!(s.rt.block_on(s.store.user("gus")).unwrap().is_none());
    // A running contest runs longer; its problems stay.
    contest(&s, "cup", now_ms() - 60_000);
    let edit = |problems: &str, duration: &str| {
        let start = grundy::contest::time::format_time(
            s.rt.block_on(s.store.contest("cup"))
                .unwrap()
                .unwrap()
                .start_ms,
        )[..19]
            .to_string();
        http(
            "POST",
            &format!("{url}/admin/contests/cup"),
            Some(&ann),
            Some(&[
                ("csrf", &csrf),
                ("name", "cup"),
                ("start", &start),
                ("duration", duration),
                ("problems", problems),
                ("participants", "bob,cid"),
                ("scoring", "icpc"),
                ("penalty", "20"),
                ("freeze", ""),
            ]),
        )
    };
    assert_eq!(edit("A=nim", "3h").status, 303);
    let cup = s.rt.block_on(s.store.contest("cup")).unwrap().unwrap();
    assert_eq!(cup.duration_s, 3 * 3600);
    let refused = edit("A=anti-nim", "3h");
    assert_eq!(refused.status, 409);
    assert!(
        refused.body.contains("its problems no longer change"),
        "{}",
        refused.body
    );
    // Deleted from its page.
    let gone = http(
        "POST",
        &format!("{url}/admin/contests/cup/delete"),
        Some(&ann),
        Some(&[("csrf", &csrf)]),
    );
    assert_eq!(gone.status, 303);
    assert!(s.rt.block_on(s.store.contest("cup")).unwrap().is_none());
    // Not by a contestant.
    contest(&s, "cup2", now_ms() + 60_000);
    let bob = sign_in(url, "bob");
    let bob_page = http("GET", &format!("{url}/account/tokens"), Some(&bob), None);
    let bob_csrf = csrf_of(&bob_page.body);
    let denied = http(
        "POST",
        &format!("{url}/admin/contests/cup2/delete"),
        Some(&bob),
        Some(&[("csrf", &bob_csrf)]),
    );
    assert_eq!(denied.status, 403);
    assert!(s.rt.block_on(s.store.contest("cup2")).unwrap().is_some());
}

#[test]
fn db_copy_moves_everything_from_sqlite_to_an_empty_postgresql() {
    let Some(target) = crate::pg::database() else {
        return;
    };
    let (ws, s) = server();
    let cup = contest(&s, "cup", now_ms() - 60_000);
    let bob = s.rt.block_on(s.store.user("bob")).unwrap().unwrap().id;
    let judged_id = judged(&s, bob, cup, Verdict::WA);
    let bob_token = s.token("bob");
    s.rt.block_on(s.store.rejudge(judged_id)).unwrap();
    drop(s);
    let out = ws.grundy(&["db", "copy", "--to", &target]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("every count matches"), "{}", out.stdout);
    let counted: std::collections::BTreeMap<&str, u64> = out
        .stdout
        .lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            Some((words.next()?, words.next()?.parse().ok()?))
        })
        .collect();
    assert_eq!(counted["users"], 4);
    assert_eq!(counted["contests"], 1);
    assert_eq!(counted["submissions"], 1);
    // Made by the target's own triggers as the tries arrived.
    assert_eq!(counted["contest_tallies"], 1);
    assert!(
        counted["contest_events"] > 0 && counted["tokens"] == 1,
        "{counted:?}"
    );
    // The judge on PostgreSQL has it all: sign-ins, tokens, contests and
    // their records, submissions and their history; new rows get new ids.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let pg = rt.block_on(grundy::store::Store::open(&target)).unwrap();
    let user = rt
        .block_on(pg.user_for_token(&grundy::auth::token_hash(&bob_token)))
        .unwrap()
        .expect("bob's token works");
    assert_eq!(user.name, "bob");
    let (_, hash) = rt.block_on(pg.user_with_password("ann")).unwrap().unwrap();
    assert!(grundy::auth::verify_password(PASSWORD, &hash));
    let c = rt
        .block_on(pg.contest("cup"))
        .unwrap()
        .expect("the contest");
    assert_eq!(c.problems[0].slug, "nim");
    let sub = rt
        .block_on(pg.get(judged_id))
        .unwrap()
        .expect("the submission");
    assert_eq!(sub.contest_id, Some(cup));
    assert_eq!(rt.block_on(pg.history_verdicts(judged_id)).unwrap(), ["WA"]);
    assert!(rt.block_on(pg.contest_version(&c)).unwrap().0 > 0);
    let next = rt.block_on(pg.add_user("new", &hash, false)).unwrap();
    assert!(next > 4, "a new account gets a new id, not {next}");
    rt.block_on(pg.close());
    // A target that holds anything is refused, and left as it was.
    let again = ws.grundy(&["db", "copy", "--to", &target]);
    again.assert_usage_error("the target database is not empty");
    ws.grundy(&["db", "copy", "--to", "sqlite:///tmp/x.db"])
        .assert_usage_error("give a PostgreSQL URL");
}

#[test]
fn problems_line_up_on_wide_titles() {
    let ws = Workspace::new();
    let problems = tempfile::tempdir().unwrap();
    crate::cluster::nim_only(problems.path());
    let wide = problems.path().join("wide-nim");
    crate::helpers::copy_dir(&problems.path().join("nim"), &wide);
    let manifest = std::fs::read_to_string(wide.join("problem.toml")).unwrap();
    let name_line = manifest
        .lines()
        .find(|l| l.starts_with("name"))
        .expect("a name")
        .to_string();
    std::fs::write(
        wide.join("problem.toml"),
        manifest.replace(&name_line, "name = \"取石子游戏\""),
    )
    .unwrap();
    ws.use_problems(problems.path());
    let out = ws.grundy(&["problems"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // The time column starts at the same screen column on every row.
    let columns: Vec<usize> = out
        .stdout
        .lines()
        .skip(1)
        .map(|l| {
            let cut = l.find(" 1s").or_else(|| l.find("s ")).expect("a time");
            unicode_width::UnicodeWidthStr::width(&l[..cut])
        })
        .collect();
    assert_eq!(columns.len(), 2, "{}", out.stdout);
    assert_eq!(columns[0], columns[1], "{}", out.stdout);
}

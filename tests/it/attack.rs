//! The hosted judge attacked over HTTP, as a contestant on the network
//! would: a problem named by a path of the server, guessing passwords and
//! flooding the password hasher, redirects after sign-in, script in a
//! statement, secret test names, idle and slow connections, malformed
//! query strings, and queueing without end. Every test talks to a server
//! on 127.0.0.1:0; every wait is a bounded loop; no test asserts a time.

use std::io::{Read as _, Write as _};
use std::net::TcpStream;
use std::time::Duration;

use grundy::auth;
use grundy::store::ListFilter;
use serde_json::{json, Value};

use crate::helpers::{
    cookie_pair, copy_dir, csrf_of, repo, workspace_with_server, Server, Workspace, NIM_C_AC,
};
use crate::http::{self, Body};

const PASSWORD: &str = "correct horse battery";

/// Right on nim's sample, wrong on a secret test.
const C_WA: &str = "#include <stdio.h>\nint main(void) { puts(\"Yes\"); return 0; }\n";

impl Server {
    /// An account that signs in with [`PASSWORD`] and has an API token;
    /// returns the token.
    fn member(&self, name: &str, admin: bool) -> String {
        static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let hash = HASH.get_or_init(|| auth::hash_password(PASSWORD).expect("hash"));
        self.rt
            .block_on(self.store.add_user(name, hash, admin))
            .expect("add user");
        self.token(name)
    }

    fn submissions(&self) -> usize {
        self.rt
            .block_on(self.store.list(&ListFilter {
                limit: 100,
                ..ListFilter::default()
            }))
            .expect("list")
            .len()
    }
}

/// A reply, redirects not followed.
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn cookies(&self) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case("set-cookie"))
            .map(|(_, v)| v.as_str())
            .collect()
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|_| panic!("not JSON ({}): {}", self.status, self.body))
    }
}

fn send(method: &str, url: &str, headers: &[(&str, &str)], body: Body<'_>) -> Reply {
    let agent = http::agent(Duration::from_secs(120), false);
    let r = http::send(&agent, method, url, headers, body);
    Reply {
        status: r.status,
        headers: r.headers,
        body: r.body,
    }
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

fn api_submit(s: &Server, token: &str, problem: &str, source: &str) -> Reply {
    send(
        "POST",
        &format!("{}/api/v1/submissions", s.url),
        &[("Authorization", &bearer(token))],
        Body::Json(json!({"problem": problem, "language": "c", "source": source})),
    )
}

fn assert_api_error(r: &Reply, statuses: &[u16], code: &str) {
    assert!(statuses.contains(&r.status), "{}: {}", r.status, r.body);
    assert!(
        r.header("content-type")
            .is_some_and(|t| t.starts_with("application/json")),
        "{:?}",
        r.header("content-type")
    );
    let v = r.json();
    assert_eq!(v["error"]["code"], code, "{v}");
    assert!(v["error"]["message"].is_string(), "{v}");
}

/// One sign-in attempt from a fresh form.
fn sign_in_attempt(url: &str, name: &str, password: &str, next: &str) -> Reply {
    let form = send("GET", &format!("{url}/signin"), &[], Body::Empty);
    assert_eq!(form.status, 200, "{}", form.body);
    let pre = cookie_pair(
        form.cookies()
            .into_iter()
            .find(|c| c.starts_with("grundy_signin="))
            .expect("the sign-in form sets its cookie"),
    );
    let token = csrf_of(&form.body);
    send(
        "POST",
        &format!("{url}/signin"),
        &[("Cookie", &pre)],
        Body::Form(&[
            ("csrf", &token),
            ("name", name),
            ("password", password),
            ("next", next),
        ]),
    )
}

/// Signs in; returns the session cookie (`name=value`).
fn sign_in(url: &str, name: &str) -> String {
    let done = sign_in_attempt(url, name, PASSWORD, "/problems");
    assert_eq!(done.status, 303, "{}", done.body);
    cookie_pair(
        done.cookies()
            .into_iter()
            .find(|c| c.starts_with("grundy_session="))
            .expect("a session cookie"),
    )
}

fn page(url: &str, cookie: &str) -> Reply {
    send("GET", url, &[("Cookie", cookie)], Body::Empty)
}

// ---------------------------------------------------------------- 1. paths

#[test]
fn a_problem_from_the_network_is_a_catalog_slug_never_a_path() {
    let ws = workspace_with_server("submissions_per_minute = 0");
    let s = Server::start(&ws, 0);
    let eve = s.member("eve", false);
    // A package that loads where the server runs (its working directory is
    // the repository's), named every way a path can be.
    let fixture = repo().join("tests/fixtures/kattis/guess");
    let absolute = fixture.display().to_string();
    let attempts = [
        absolute.as_str(),
        "tests/fixtures/kattis/guess",
        "./tests/fixtures/kattis/guess",
        "problems/nim",
        "problems/../problems/nim",
        "../nim",
        "/etc",
        "nim/",
        "%2Fetc",
    ];
    for problem in attempts {
        let r = api_submit(&s, &eve, problem, NIM_C_AC);
        assert_api_error(&r, &[400, 404], "unknown_problem");
    }
    assert_eq!(s.submissions(), 0, "nothing was queued");

    // The form's path segment, with `/` sent as %2F.
    let cookie = sign_in(&s.url, "eve");
    let form = page(&format!("{}/problems/nim", s.url), &cookie);
    let csrf = csrf_of(&form.body);
    for problem in [absolute.as_str(), "tests/fixtures/kattis/guess"] {
        let encoded = problem.replace('/', "%2F");
        let r = send(
            "POST",
            &format!("{}/problems/{encoded}/submit", s.url),
            &[("Cookie", &cookie)],
            Body::Form(&[("csrf", &csrf), ("language", "c"), ("source", NIM_C_AC)]),
        );
        assert_eq!(r.status, 404, "{problem}: {}", r.body);
    }
    assert_eq!(s.submissions(), 0, "nothing was queued from the pages");
    // The slug itself still works.
    assert_eq!(api_submit(&s, &eve, "nim", NIM_C_AC).status, 202);
}

// ---------------------------------------------------------------- 2. sign-in

#[test]
fn wrong_passwords_for_one_name_lock_it_even_against_the_right_one_until_the_back_off_ends() {
    let ws = workspace_with_server(
        "submissions_per_minute = 0\nsignin_failures_per_name = 3\n\
         signin_failures_per_address = 1000\nsignin_backoff_seconds = 5",
    );
    let s = Server::start(&ws, 0);
    s.member("ann", false);
    s.member("bob", false);
    let mut statuses = Vec::new();
    for _ in 0..20 {
        let r = sign_in_attempt(&s.url, "ann", "guess", "/problems");
        statuses.push(r.status);
        if r.status == 429 {
            break;
        }
    }
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    assert!(
        statuses[..statuses.len() - 1].iter().all(|&c| c == 401),
        "{statuses:?}"
    );
    // Now the right password is refused too, with a clear page.
    let refused = sign_in_attempt(&s.url, "Ann", PASSWORD, "/problems");
    assert_eq!(refused.status, 429, "{}", refused.body);
    assert!(refused.body.contains("Try again in"), "{}", refused.body);
    assert!(refused.header("retry-after").is_some());
    assert!(refused
        .cookies()
        .iter()
        .all(|c| !c.starts_with("grundy_session=")));
    // Another account from the same address is not held back.
    assert_eq!(sign_in_attempt(&s.url, "bob", PASSWORD, "/").status, 303);
    // Once the back-off ends, the right password works.
    let mut last = 0;
    for _ in 0..120 {
        last = sign_in_attempt(&s.url, "ann", PASSWORD, "/problems").status;
        if last != 429 {
            break;
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    assert_eq!(last, 303);
}

#[test]
fn wrong_passwords_from_one_address_lock_it_whatever_names_it_tries() {
    let ws = workspace_with_server(
        "submissions_per_minute = 0\nsignin_failures_per_name = 1000\n\
         signin_failures_per_address = 4\nsignin_backoff_seconds = 600",
    );
    let s = Server::start(&ws, 0);
    s.member("ann", false);
    let mut statuses = Vec::new();
    for i in 0..20 {
        let r = sign_in_attempt(&s.url, &format!("user{i}"), "guess", "/problems");
        statuses.push(r.status);
        if r.status == 429 {
            break;
        }
    }
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    assert_eq!(
        sign_in_attempt(&s.url, "ann", PASSWORD, "/problems").status,
        429
    );
}

#[test]
fn concurrent_sign_ins_hash_no_more_passwords_at_once_than_the_pool_holds() {
    let ws = workspace_with_server(
        "submissions_per_minute = 0\npassword_hashers = 2\nsignin_failures_per_name = 1000\n\
         signin_failures_per_address = 1000",
    );
    let s = Server::start(&ws, 0);
    s.member("ann", false);
    let url = s.url.clone();
    let threads: Vec<_> = (0..16)
        .map(|i| {
            let url = url.clone();
            std::thread::spawn(move || {
                sign_in_attempt(&url, &format!("user{i}"), "guess", "/problems").status
            })
        })
        .collect();
    for t in threads {
        let status = t.join().expect("thread");
        assert!(status == 401 || status == 503, "{status}");
    }
    let peak = s.state.passwords.peak();
    assert!((1..=2).contains(&peak), "{peak} hashes ran at once");
}

// ---------------------------------------------------------------- 3. next

#[test]
fn next_after_sign_in_stays_on_this_site_and_never_fails() {
    let ws = workspace_with_server("submissions_per_minute = 0\nsignin_failures_per_name = 1000");
    let s = Server::start(&ws, 0);
    s.member("ann", false);
    for evil in [
        "/\t/evil.example",
        "/\n/evil.example",
        "//evil.example",
        "/\\evil.example",
        "\\\\evil.example",
        "https://evil.example/",
        "/\r\nSet-Cookie: a=b",
        "/a\rb",
        "/a\x0cb",
        "/a\x7fb",
        "javascript:alert(1)",
        "",
    ] {
        let r = sign_in_attempt(&s.url, "ann", PASSWORD, evil);
        assert_eq!(r.status, 303, "{evil:?}: {}", r.body);
        assert_eq!(r.header("location"), Some("/problems"), "{evil:?}");
    }
    let r = sign_in_attempt(&s.url, "ann", PASSWORD, "/submissions?before=5");
    assert_eq!(r.header("location"), Some("/submissions?before=5"));
    // Signed in, the form's own `next` redirect is checked the same way.
    let cookie = sign_in(&s.url, "ann");
    let r = page(&format!("{}/signin?next=%2F%0D%0Aevil", s.url), &cookie);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(r.header("location"), Some("/problems"));
}

// ---------------------------------------------------------------- 4. headers, statements

/// A workspace whose catalog is a copy of nim with `extra` added to its
/// statement.
fn workspace_with_statement(extra: &str) -> Workspace {
    let ws = workspace_with_server("submissions_per_minute = 0");
    let problems = ws.dir.path().join("problems");
    copy_dir(&repo().join("problems/nim"), &problems.join("nim"));
    copy_dir(&repo().join("problems/_common"), &problems.join("_common"));
    let statement = problems.join("nim/statement.md");
    let text = std::fs::read_to_string(&statement).expect("statement");
    std::fs::write(&statement, format!("{text}\n{extra}\n")).expect("write statement");
    ws.use_problems(&problems);
    ws
}

fn assert_browser_policy(r: &Reply, what: &str) {
    let csp = r
        .header("content-security-policy")
        .unwrap_or_else(|| panic!("{what}: no CSP"));
    assert!(csp.contains("default-src 'self'"), "{what}: {csp}");
    assert!(csp.contains("frame-ancestors 'none'"), "{what}: {csp}");
    assert!(!csp.contains("unsafe-inline"), "{what}: {csp}");
    assert!(!csp.contains("unsafe-eval"), "{what}: {csp}");
    assert_eq!(
        r.header("x-content-type-options"),
        Some("nosniff"),
        "{what}"
    );
    assert!(r.header("referrer-policy").is_some(), "{what}");
}

fn assert_private(r: &Reply, what: &str) {
    assert_eq!(r.header("cache-control"), Some("no-store"), "{what}");
}

#[test]
fn every_response_carries_the_browser_policy_and_statements_run_no_script() {
    let ws = workspace_with_statement(
        "See [the rules](javascript:alert(document.cookie)), [this](JAVASCRIPT:alert(1)), \
         [data](data:text/html;base64,PHNjcmlwdD4=) and [home](https://example.org/). \
         The sum $x^2 + y$ matters.",
    );
    let s = Server::start(&ws, 0);
    let token = s.member("ann", false);
    let cookie = sign_in(&s.url, "ann");

    let statement = page(&format!("{}/problems/nim", s.url), &cookie);
    assert_eq!(statement.status, 200);
    let lower = statement.body.to_lowercase();
    assert!(!lower.contains("javascript:"), "{}", statement.body);
    assert!(!lower.contains("data:text/html"), "{}", statement.body);
    assert!(statement.body.contains("https://example.org/"));
    assert!(statement.body.contains("<math"), "MathML survives");
    assert!(statement.body.contains("<msup>"), "MathML survives");

    let created = api_submit(&s, &token, "nim", NIM_C_AC).json();
    let id = created["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("{created}"));
    let pages = [
        ("/signin", ""),
        ("/problems", "signed"),
        ("/problems/nim", "signed"),
        ("/submissions", "signed"),
        ("/recent", "signed"),
        ("/no/such/page", "signed"),
    ];
    for (path, who) in pages {
        let r = if who.is_empty() {
            send("GET", &format!("{}{path}", s.url), &[], Body::Empty)
        } else {
            page(&format!("{}{path}", s.url), &cookie)
        };
        assert_browser_policy(&r, path);
        // The pages hold the policy themselves: no inline script or style.
        assert!(!r.body.contains("<script>"), "{path}: inline script");
        assert!(!r.body.contains(" style=\""), "{path}: inline style");
        assert!(!r.body.contains(" onclick="), "{path}: inline handler");
    }
    for path in [
        format!("/submissions/{id}"),
        format!("/submissions/{id}/source"),
        format!("/submissions/{id}/live"),
    ] {
        let r = page(&format!("{}{path}", s.url), &cookie);
        assert_eq!(r.status, 200, "{path}");
        assert_browser_policy(&r, &path);
        assert_private(&r, &path);
    }
    for path in [
        format!("/api/v1/submissions/{id}"),
        format!("/api/v1/submissions/{id}/source"),
        "/api/v1/problems".to_string(),
    ] {
        let r = send(
            "GET",
            &format!("{}{path}", s.url),
            &[("Authorization", &bearer(&token))],
            Body::Empty,
        );
        assert_eq!(r.status, 200, "{path}");
        assert_browser_policy(&r, &path);
        assert_private(&r, &path);
    }
    s.member("root", true);
    let admin = sign_in(&s.url, "root");
    for path in ["/admin/users", "/admin/queue"] {
        let r = page(&format!("{}{path}", s.url), &admin);
        assert_eq!(r.status, 200, "{path}");
        assert_browser_policy(&r, path);
        assert_private(&r, path);
    }
    let asset = send("GET", &format!("{}/static/app.js", s.url), &[], Body::Empty);
    assert_browser_policy(&asset, "app.js");
}

// ---------------------------------------------------------------- 5. secret tests

#[test]
fn contestants_see_secret_tests_by_number_and_admins_by_name() {
    let ws = workspace_with_server("submissions_per_minute = 0\nlease_seconds = 30");
    let s = Server::start(&ws, 1);
    let bob = s.member("bob", false);
    let cid = s.member("cid", false);
    let ann = s.member("ann", true);
    let nim = s.ctx.catalog.load("nim").expect("nim");
    let secret: Vec<String> = nim
        .manifest
        .tests
        .iter()
        .filter(|t| !t.group.is_sample())
        .map(|t| t.name.clone())
        .collect();
    assert!(!secret.is_empty());
    let created = api_submit(&s, &bob, "nim", C_WA).json();
    let id = created["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("{created}"));
    let url = format!("{}/api/v1/submissions/{id}", s.url);
    let mut done = Value::Null;
    for _ in 0..20 {
        let r = send(
            "GET",
            &format!("{url}?wait=60"),
            &[("Authorization", &bearer(&bob))],
            Body::Empty,
        );
        done = r.json();
        if done["status"] == "done" {
            break;
        }
    }
    assert_eq!(done["verdict"], "WA", "{done}");
    for (viewer, token) in [("owner", &bob), ("another contestant", &cid)] {
        let r = send(
            "GET",
            &url,
            &[("Authorization", &bearer(token))],
            Body::Empty,
        );
        for name in &secret {
            assert!(!r.body.contains(name.as_str()), "{viewer} sees {name}");
        }
        let v = r.json();
        for t in v["tests"].as_array().expect("tests") {
            if t["group"] != "sample" {
                assert_eq!(t["name"], format!("#{}", t["number"]), "{t}");
                assert_eq!(t["message"], "", "{t}");
                assert!(t["exit_code"].is_null() && t["signal"].is_null(), "{t}");
            }
        }
        assert!(r.body.contains("sample-1"), "samples keep their names");
    }
    let admin = send(
        "GET",
        &url,
        &[("Authorization", &bearer(&ann))],
        Body::Empty,
    );
    assert!(admin.body.contains(secret[0].as_str()), "admins see names");

    // The pages follow the same policy.
    for who in ["bob", "cid"] {
        let cookie = sign_in(&s.url, who);
        for path in [
            format!("/submissions/{id}"),
            format!("/submissions/{id}/live"),
        ] {
            let r = page(&format!("{}{path}", s.url), &cookie);
            assert_eq!(r.status, 200, "{path}");
            for name in &secret {
                assert!(
                    !r.body.contains(name.as_str()),
                    "{who} sees {name} on {path}"
                );
            }
        }
    }
    let cookie = sign_in(&s.url, "ann");
    let r = page(&format!("{}/submissions/{id}", s.url), &cookie);
    assert!(
        r.body.contains(secret[0].as_str()),
        "admins see names on pages"
    );
}

/// Right on every test of nim, and holding `(sum of the piles) % 16`
/// quarter-MiB blocks more on each: a test's memory, to the KiB, would
/// carry four bits of its hidden input to whoever reads it.
const C_LEAKS_INPUT_BY_MEMORY: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
    int n; long long x = 0, sum = 0, a;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) { scanf("%lld", &a); x ^= a; sum += a; }
    size_t bytes = (size_t)(sum % 16) * 256 * 1024 + 1;
    char *p = malloc(bytes);
    memset(p, 1, bytes);
    puts(x ? "Yes" : "No");
    return p[bytes / 2] == 1 ? 0 : 1;
}
"#;

#[test]
fn r21_a_secret_tests_time_and_memory_reach_no_contestant() {
    let ws = workspace_with_server("submissions_per_minute = 0\nlease_seconds = 30");
    let s = Server::start(&ws, 1);
    let bob = s.member("bob", false);
    let ann = s.member("ann", true);
    let created = api_submit(&s, &bob, "nim", C_LEAKS_INPUT_BY_MEMORY).json();
    let id = created["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("{created}"));
    let url = format!("{}/api/v1/submissions/{id}", s.url);
    let mut done = Value::Null;
    for _ in 0..20 {
        done = send(
            "GET",
            &format!("{url}?wait=60"),
            &[("Authorization", &bearer(&bob))],
            Body::Empty,
        )
        .json();
        if done["status"] == "done" {
            break;
        }
    }
    assert_eq!(done["verdict"], "AC", "{done}");
    // The channel is real: an admin sees the secret tests' memory differ.
    let admin = send(
        "GET",
        &url,
        &[("Authorization", &bearer(&ann))],
        Body::Empty,
    )
    .json();
    let secret_memory: std::collections::BTreeSet<u64> = admin["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .filter(|t| t["group"] != "sample")
        .map(|t| t["memory_kib"].as_u64().expect("an admin sees memory"))
        .collect();
    assert!(secret_memory.len() > 1, "{admin}");
    // The owner sees a verdict per secret test and the maxima only.
    let tests = done["tests"].as_array().expect("tests");
    let secret = tests.iter().filter(|t| t["group"] != "sample").count();
    assert!(secret > 0);
    for t in tests {
        let sample = t["group"] == "sample";
        for field in ["time_ms", "wall_ms", "memory_kib"] {
            assert_eq!(t.get(field).is_some(), sample, "{field} of {t}");
        }
    }
    assert!(done["memory_kib"].as_u64() >= secret_memory.last().copied());
    assert!(done["time_ms"].is_u64());
    // The page hides them the same way: one dash for each figure held back.
    let cookie = sign_in(&s.url, "bob");
    let r = page(&format!("{}/submissions/{id}", s.url), &cookie);
    assert_eq!(r.status, 200);
    assert_eq!(
        r.body.matches("not shown for a secret test").count(),
        2 * secret,
        "{}",
        r.body
    );
    let cookie = sign_in(&s.url, "ann");
    let r = page(&format!("{}/submissions/{id}", s.url), &cookie);
    assert!(!r.body.contains("not shown for a secret test"));
}

/// Right on every test of the scored fixture (`tests/fixtures/scores`).
const C_TAKE_ONE_OR_TWO: &str = "#include <stdio.h>\nint main(void) { long n; scanf(\"%ld\", &n); \
    puts(n % 3 ? \"First\" : \"Second\"); return 0; }\n";

// Issue 26: a group listed its tests by name, so the secret names that
// `tests` holds back ("#7") were in `groups[].tests` for anyone to read.
#[test]
fn r26_a_groups_secret_test_names_reach_no_contestant() {
    let ws = workspace_with_server("submissions_per_minute = 0\nlease_seconds = 30");
    crate::scores::package(&ws);
    let s = Server::start(&ws, 1);
    let bob = s.member("bob", false);
    let ann = s.member("ann", true);
    let created = api_submit(&s, &bob, "scores", C_TAKE_ONE_OR_TWO).json();
    let id = created["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("{created}"));
    let url = format!("{}/api/v1/submissions/{id}", s.url);
    let read = |token: &str, wait: bool| {
        let url = if wait {
            format!("{url}?wait=60")
        } else {
            url.clone()
        };
        send(
            "GET",
            &url,
            &[("Authorization", &bearer(token))],
            Body::Empty,
        )
        .json()
    };
    let mut done = Value::Null;
    for _ in 0..20 {
        done = read(&bob, true);
        if done["status"] == "done" {
            break;
        }
    }
    assert_eq!(done["verdict"], "AC", "{done}");
    // An admin sees the names, so there are names to hide.
    let admin = read(&ann, false);
    let names = |v: &Value, group: &str| -> Vec<String> {
        v["groups"]
            .as_array()
            .expect("groups")
            .iter()
            .find(|g| g["name"] == group)
            .unwrap_or_else(|| panic!("no group {group}: {v}"))["tests"]
            .as_array()
            .expect("tests")
            .iter()
            .map(|t| t.as_str().expect("a name").to_string())
            .collect()
    };
    assert_eq!(names(&admin, "medium"), ["medium-1", "medium-2"]);
    assert_eq!(
        names(&done, "sample"),
        ["sample-1"],
        "a sample keeps its name"
    );
    let shown: Vec<String> = done["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .map(|t| t["name"].as_str().expect("name").to_string())
        .collect();
    for group in ["small", "medium", "large"] {
        let listed = names(&done, group);
        assert!(!listed.is_empty(), "{done}");
        for name in listed {
            assert!(name.starts_with('#'), "{name} in {group}: {done}");
            assert!(shown.contains(&name), "{name} is not one of the tests");
        }
    }
    assert!(!done.to_string().contains("medium-1"), "{done}");
}

// ---------------------------------------------------------------- 6. connections, errors

/// Whether the server closed `stream` (read to its end) within a bounded
/// number of one-second reads.
fn closed_by_server(stream: &mut TcpStream) -> bool {
    stream
        .set_read_timeout(Some(Duration::from_secs(1)))
        .expect("timeout");
    let mut buf = [0u8; 4096];
    for _ in 0..60 {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return true,
        }
    }
    false
}

fn address(s: &Server) -> String {
    s.url.trim_start_matches("http://").to_string()
}

#[test]
fn silent_and_slow_connections_are_closed() {
    let ws = workspace_with_server("submissions_per_minute = 0\nheader_timeout_seconds = 1");
    let s = Server::start(&ws, 0);
    let addr = address(&s);
    let mut silent: Vec<TcpStream> = (0..3)
        .map(|_| TcpStream::connect(&addr).expect("connect"))
        .collect();
    let mut slow = TcpStream::connect(&addr).expect("connect");
    slow.write_all(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n")
        .expect("write");
    // Idle after a whole request, on a kept-alive connection.
    let mut idle = TcpStream::connect(&addr).expect("connect");
    idle.write_all(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
        .expect("write");
    for (i, stream) in silent.iter_mut().enumerate() {
        assert!(closed_by_server(stream), "silent connection {i} held open");
    }
    assert!(closed_by_server(&mut slow), "a slow request head held open");
    assert!(closed_by_server(&mut idle), "an idle connection held open");
    // The server still answers.
    let r = send("GET", &format!("{}/api/v1/health", s.url), &[], Body::Empty);
    assert_eq!(r.status, 200);
}

#[test]
fn connections_beyond_the_bound_wait_until_one_closes() {
    let ws = workspace_with_server(
        "submissions_per_minute = 0\nheader_timeout_seconds = 15\nmax_connections = 2",
    );
    let s = Server::start(&ws, 0);
    let addr = address(&s);
    let holders: Vec<TcpStream> = (0..2)
        .map(|_| TcpStream::connect(&addr).expect("connect"))
        .collect();
    let mut extra = TcpStream::connect(&addr).expect("connect");
    extra
        .write_all(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .expect("write");
    extra
        .set_read_timeout(Some(Duration::from_secs(1)))
        .expect("timeout");
    let mut buf = [0u8; 4096];
    match extra.read(&mut buf) {
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) => {}
        other => panic!("served past the bound: {other:?}"),
    }
    drop(holders);
    // The holders' ends are closed by the server at the header timeout at
    // the latest; then the extra connection is served.
    let mut reply = Vec::new();
    for _ in 0..60 {
        match extra.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => reply.extend_from_slice(&buf[..n]),
            Err(_) => {}
        }
    }
    let reply = String::from_utf8_lossy(&reply);
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
}

#[test]
fn query_and_path_errors_are_the_apis_json_error() {
    let ws = workspace_with_server("submissions_per_minute = 0");
    let s = Server::start(&ws, 0);
    let token = s.member("ann", false);
    let auth = bearer(&token);
    for path in [
        "/api/v1/submissions/1?wait=abc",
        "/api/v1/submissions?limit=-1",
        "/api/v1/submissions?before=x",
    ] {
        let r = send(
            "GET",
            &format!("{}{path}", s.url),
            &[("Authorization", &auth)],
            Body::Empty,
        );
        assert_api_error(&r, &[400], "bad_query");
    }
    let r = send(
        "GET",
        &format!("{}/api/v1/submissions/%FF", s.url),
        &[("Authorization", &auth)],
        Body::Empty,
    );
    assert_api_error(&r, &[400], "bad_path");
    // The pages answer the same mistakes with a page in their own style.
    let r = send(
        "GET",
        &format!("{}/recent?before=x", s.url),
        &[],
        Body::Empty,
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.header("content-type")
            .is_some_and(|t| t.starts_with("text/html")),
        "{:?}",
        r.header("content-type")
    );
}

// ---------------------------------------------------------------- 7. the queue

#[test]
fn one_user_cannot_queue_without_end() {
    let ws = workspace_with_server("submissions_per_minute = 0\nmax_waiting = 2");
    let s = Server::start(&ws, 0);
    let bob = s.member("bob", false);
    let cid = s.member("cid", false);
    assert_eq!(api_submit(&s, &bob, "nim", NIM_C_AC).status, 202);
    assert_eq!(api_submit(&s, &bob, "nim", NIM_C_AC).status, 202);
    let over = api_submit(&s, &bob, "nim", NIM_C_AC);
    assert_api_error(&over, &[429], "too_many_waiting");
    assert!(over.json()["error"]["message"]
        .as_str()
        .is_some_and(|m| m.contains("waiting")));
    // The pages refuse it the same way.
    let cookie = sign_in(&s.url, "bob");
    let form = page(&format!("{}/problems/nim", s.url), &cookie);
    let r = send(
        "POST",
        &format!("{}/problems/nim/submit", s.url),
        &[("Cookie", &cookie)],
        Body::Form(&[
            ("csrf", &csrf_of(&form.body)),
            ("language", "c"),
            ("source", NIM_C_AC),
        ]),
    );
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.body.contains("waiting"), "{}", r.body);
    // Someone else is not held back.
    assert_eq!(api_submit(&s, &cid, "nim", NIM_C_AC).status, 202);
    assert_eq!(s.submissions(), 3);
}

/// Issue 44: names a request gives are bounded. A problem, language or
/// contest named with ten thousand characters is one `400 too_long` in the
/// API's error shape, whose message does not echo the name, and nothing is
/// stored.
#[test]
fn an_oversized_name_in_a_submission_is_one_400_and_nothing_stored() {
    let ws = workspace_with_server("submissions_per_minute = 0");
    let s = Server::start(&ws, 0);
    let token = s.member("bob", false);
    let long = "n".repeat(10_000);
    let bodies = [
        json!({"problem": long, "language": "c", "source": NIM_C_AC}),
        json!({"problem": "nim", "language": long, "source": NIM_C_AC}),
        json!({"problem": "nim", "language": "c", "source": NIM_C_AC, "contest": long}),
    ];
    for body in bodies {
        let r = send(
            "POST",
            &format!("{}/api/v1/submissions", s.url),
            &[("Authorization", &bearer(&token))],
            Body::Json(body),
        );
        assert_api_error(&r, &[400], "too_long");
        let message = r.json()["error"]["message"].as_str().unwrap().to_string();
        assert!(message.contains("at most"), "{message}");
        assert!(message.len() < 200 && !message.contains('\n'), "{message}");
    }
    assert_eq!(s.submissions(), 0, "nothing stored");
}

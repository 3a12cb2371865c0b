//! The hosted judge: the API on port 0 with a temporary database and the
//! real sandbox, its access rules, a worker losing its lease, a server
//! killed with SIGKILL mid-run, a bounded load, and the CLI against it.
//! Every wait here is a bounded loop that ends by itself; no test asserts
//! a duration.

use std::io::BufRead;
use std::sync::Arc;
use std::time::{Duration, Instant};

use grundy::auth;
use grundy::config::Config;
use grundy::context::Context;
use grundy::store::{NewSubmission, Queue, Store};
use grundy::worker::{self, WorkOutcome, WorkerEnv};
use serde_json::{json, Value};

use crate::helpers::{workspace_with_server, Server, Workspace, NIM_C_AC, NIM_C_WA_FIRST};

/// Right on nim's sample, wrong on its fourth test (a secret one), where
/// the checker's message quotes the expected answer.
const C_WA: &str = "#include <stdio.h>\nint main(void) { puts(\"Yes\"); return 0; }\n";

impl Server {
    /// An account with an API token; returns the token.
    pub(crate) fn user(&self, name: &str, admin: bool) -> String {
        self.rt
            .block_on(self.store.add_user(name, "unused", admin))
            .expect("add user");
        self.token(name)
    }
}

/// A reply: status and JSON body.
pub(crate) fn call(
    method: &str,
    url: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let agent = crate::http::agent(Duration::from_secs(120), true);
    let auth = token.map(|t| format!("Bearer {t}"));
    let headers: Vec<(&str, &str)> = auth
        .as_deref()
        .map(|a| ("Authorization", a))
        .into_iter()
        .collect();
    let body = match body {
        Some(b) => crate::http::Body::Json(b),
        None => crate::http::Body::Empty,
    };
    let r = crate::http::send(&agent, method, url, &headers, body);
    let value = serde_json::from_str(&r.body).unwrap_or_else(|_| panic!("not JSON: {}", r.body));
    (r.status, value)
}

pub(crate) fn submit(
    s: &Server,
    token: &str,
    problem: &str,
    language: &str,
    source: &str,
) -> (u16, Value) {
    call(
        "POST",
        &format!("{}/api/v1/submissions", s.url),
        Some(token),
        Some(json!({"problem": problem, "language": language, "source": source})),
    )
}

/// Long-polls a submission until it is done (bounded).
pub(crate) fn wait_done(s: &Server, token: &str, id: i64) -> Value {
    for _ in 0..20 {
        let (code, v) = call(
            "GET",
            &format!("{}/api/v1/submissions/{id}?wait=60", s.url),
            Some(token),
            None,
        );
        assert_eq!(code, 200, "{v}");
        if v["status"] == "done" {
            return v;
        }
    }
    panic!("submission {id} was not judged");
}

fn assert_error(reply: &(u16, Value), status: u16, code: &str) {
    assert_eq!(reply.0, status, "{}", reply.1);
    assert_eq!(reply.1["error"]["code"], code, "{}", reply.1);
    assert!(reply.1["error"]["message"].is_string(), "{}", reply.1);
}

#[test]
fn the_api_judges_and_enforces_its_access_rules() {
    let ws = workspace_with_server("submissions_per_minute = 3\nlease_seconds = 30");
    let s = Server::start(&ws, 1);
    let ann = s.user("ann", true);
    let bob = s.user("bob", false);
    let cid = s.user("cid", false);
    let api = |path: &str| format!("{}/api/v1{path}", s.url);

    let (code, health) = call("GET", &api("/health"), None, None);
    assert_eq!((code, health["status"].as_str()), (200, Some("ok")));
    assert_error(
        &call("GET", &api("/problems"), None, None),
        401,
        "unauthorized",
    );
    assert_error(
        &call("GET", &api("/problems"), Some("g_nonsense"), None),
        401,
        "unauthorized",
    );

    let created = submit(&s, &bob, "nim", "c", C_WA);
    assert_eq!(created.0, 202, "{}", created.1);
    assert_eq!(created.1["status"], "queued");
    let id = created.1["id"].as_i64().expect("id");
    let seen_by_bob = wait_done(&s, &bob, id);
    assert_eq!(seen_by_bob["verdict"], "WA");
    assert_eq!(seen_by_bob["user"], "bob");
    // nim has no [[groups]]: the object still carries the (empty) list.
    assert_eq!(seen_by_bob["groups"], json!([]));
    let failed = seen_by_bob["tests"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(failed["group"], "secret");
    assert_eq!(failed["verdict"], "WA");
    assert_eq!(
        failed["message"], "",
        "a contestant never sees a secret test's checker message"
    );
    assert!(
        failed.get("time_ms").is_none() && failed.get("memory_kib").is_none(),
        "a contestant never sees a secret test's time or memory: {failed}"
    );
    let (_, seen_by_ann) = call("GET", &api(&format!("/submissions/{id}")), Some(&ann), None);
    let failed = seen_by_ann["tests"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert!(
        failed["message"].as_str().unwrap().contains("expected"),
        "admins see everything: {failed}"
    );
    assert!(failed["time_ms"].is_u64() && failed["memory_kib"].is_u64());
    let expected = failed["message"].as_str().unwrap().to_string();
    for token in [&bob, &cid] {
        let (_, v) = call(
            "GET",
            &api(&format!("/submissions/{id}")),
            Some(token),
            None,
        );
        assert!(!v.to_string().contains(&expected), "{v}");
        let (_, v) = call("GET", &api("/submissions?problem=nim"), Some(token), None);
        assert!(!v.to_string().contains(&expected), "{v}");
    }

    // Sources: the owner's and admins' only; anyone else gets 404.
    let (code, src) = call(
        "GET",
        &api(&format!("/submissions/{id}/source")),
        Some(&bob),
        None,
    );
    assert_eq!((code, src["source"].as_str()), (200, Some(C_WA)));
    assert_eq!(
        call(
            "GET",
            &api(&format!("/submissions/{id}/source")),
            Some(&ann),
            None
        )
        .0,
        200
    );
    assert_error(
        &call(
            "GET",
            &api(&format!("/submissions/{id}/source")),
            Some(&cid),
            None,
        ),
        404,
        "not_found",
    );
    assert_error(
        &call("GET", &api("/submissions/999999"), Some(&cid), None),
        404,
        "not_found",
    );

    // Bad input.
    assert_error(
        &submit(&s, &bob, "no-such", "c", NIM_C_AC),
        400,
        "unknown_problem",
    );
    assert_error(
        &submit(&s, &bob, "nim", "cobol", NIM_C_AC),
        400,
        "unknown_language",
    );
    assert_error(&submit(&s, &bob, "nim", "c", " \n"), 400, "empty_source");
    assert_error(
        &submit(&s, &bob, "nim", "c", &"x".repeat(300 * 1024)),
        413,
        "source_too_large",
    );
    // The server may answer and close before the client has written the
    // whole body; the client then sees a broken pipe instead. Bounded retries.
    let huge = json!({"problem": "nim", "language": "c", "source": "x".repeat(2 << 20)});
    let agent = crate::http::agent(Duration::from_secs(120), false);
    let reply = (0..10)
        .find_map(|_| {
            let r = agent
                .post(&api("/submissions"))
                .header("Authorization", &format!("Bearer {bob}"))
                .send_json(&huge);
            match r {
                Ok(mut resp) if !resp.status().is_success() => Some((
                    resp.status().as_u16(),
                    resp.body_mut().read_json::<Value>().expect("JSON"),
                )),
                Ok(resp) => panic!("accepted: {}", resp.status()),
                // The connection closed under the body: try again.
                Err(_) => None,
            }
        })
        .expect("a reply to an oversized body");
    assert_error(&reply, 413, "body_too_large");
    let (code, v) = call(
        "POST",
        &api("/submissions"),
        Some(&bob),
        Some(json!({"problem": "nim"})),
    );
    assert_error(&(code, v), 400, "bad_request");

    // Listing, problems, languages.
    let (_, list) = call(
        "GET",
        &api("/submissions?user=bob&limit=5"),
        Some(&cid),
        None,
    );
    assert_eq!(list["submissions"][0]["id"], id);
    assert_error(
        &call("GET", &api("/submissions?verdict=OK"), Some(&cid), None),
        400,
        "bad_verdict",
    );
    let (_, problems) = call("GET", &api("/problems"), Some(&cid), None);
    assert!(problems["problems"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["slug"] == "nim"));
    let (code, nim) = call("GET", &api("/problems/nim"), Some(&cid), None);
    assert_eq!(code, 200);
    assert!(nim["statement"].as_str().unwrap().len() > 100);
    assert_eq!(nim["samples"][0]["name"], "sample-1");
    assert_error(
        &call("GET", &api("/problems/no-such"), Some(&cid), None),
        404,
        "not_found",
    );
    let (_, langs) = call("GET", &api("/languages"), Some(&cid), None);
    assert!(langs["languages"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l["id"] == "cpp"));

    // Rejudge: admins only; the old result is kept in the history.
    assert_error(
        &call(
            "POST",
            &api(&format!("/submissions/{id}/rejudge")),
            Some(&bob),
            None,
        ),
        403,
        "forbidden",
    );
    let (code, _) = call(
        "POST",
        &api(&format!("/submissions/{id}/rejudge")),
        Some(&ann),
        None,
    );
    assert_eq!(code, 202);
    assert_eq!(wait_done(&s, &bob, id)["verdict"], "WA");
    let history = s.rt.block_on(s.store.history_verdicts(id)).unwrap();
    assert_eq!(history, ["WA"]);

    // The rate limit: bob made one submission this minute; two more pass.
    for _ in 0..2 {
        assert_eq!(submit(&s, &bob, "nim", "c", NIM_C_WA_FIRST).0, 202);
    }
    assert_error(
        &submit(&s, &bob, "nim", "c", NIM_C_WA_FIRST),
        429,
        "rate_limited",
    );

    // A revoked token and a disabled user stop working at once.
    s.rt.block_on(s.store.revoke_token(&auth::token_hash(&cid)))
        .unwrap();
    assert_error(&submit(&s, &cid, "nim", "c", NIM_C_AC), 401, "unauthorized");
    s.rt.block_on(s.store.set_disabled("bob", true)).unwrap();
    // Issue 47: the holder of a disabled account's token is told so; a
    // token no one holds is told nothing about any account.
    let disabled = submit(&s, &bob, "nim", "c", NIM_C_AC);
    assert_error(&disabled, 401, "account_disabled");
    assert!(
        disabled.1["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("account is disabled")),
        "{}",
        disabled.1
    );
    for token in [&cid, &"g_not_a_token".to_string()] {
        let refused = submit(&s, token, "nim", "c", NIM_C_AC);
        assert_error(&refused, 401, "unauthorized");
        assert!(!refused.1.to_string().contains("disabled"), "{}", refused.1);
    }

    // No reply named a path of the server.
    let root = ws.dir.path().display().to_string();
    for v in [&seen_by_bob, &seen_by_ann, &problems, &nim, &langs, &list] {
        assert!(!v.to_string().contains(&root), "{v}");
    }
    assert!(!nim.to_string().contains(&ws.config().display().to_string()));
}

/// A worker whose lease expires while it still judges: another claim takes
/// the submission over, and the first worker's late result is discarded.
#[test]
fn a_worker_whose_lease_expired_has_its_late_result_discarded() {
    late_result_of_an_expired_lease_is_discarded(&workspace_with_server("lease_seconds = 30"));
}

/// The lease test on `ws`'s database (see `tests/it/distributed.rs` for
/// PostgreSQL).
pub fn late_result_of_an_expired_lease_is_discarded(ws: &Workspace) {
    let config = Config::load(&ws.config()).expect("config");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let store = rt
        .block_on(Store::open(&config.database_url()))
        .expect("store");
    let ctx = Arc::new(Context::new(config));
    // A lease of 1 ms, renewed by 1 ms: it is expired whenever anyone looks.
    let env = WorkerEnv {
        lease: Duration::from_millis(1),
        ..WorkerEnv::new(ctx)
    };
    for _ in 0..5 {
        let id = rt
            .block_on(store.enqueue(NewSubmission {
                problem: "nim",
                language: "c",
                source: NIM_C_AC.as_bytes(),
                user_id: None,
            }))
            .unwrap();
        let (q, e) = (store.clone(), env.clone());
        let worker = rt.spawn(async move { worker::try_judge_next(&q, &e).await });
        // Wait (bounded) until the worker has claimed it, then take it over.
        let mut taken = None;
        for _ in 0..2000 {
            if worker.is_finished() {
                break;
            }
            let status = rt.block_on(store.get(id)).unwrap().unwrap().status;
            if status == grundy::store::Status::Judging {
                taken = rt.block_on(crate::helpers::claim_any(&store, Duration::from_secs(60)));
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let first = rt.block_on(worker).unwrap().unwrap();
        let Some(claim) = taken else {
            // The worker finished before it could be overtaken; try again.
            assert_eq!(first, WorkOutcome::Judged(id));
            continue;
        };
        assert_eq!((claim.lease.id, claim.lease.attempt), (id, 2));
        assert_eq!(
            first,
            WorkOutcome::Discarded(id),
            "the late result is discarded"
        );
        let sub = rt.block_on(store.get(id)).unwrap().unwrap();
        assert_eq!(
            sub.status,
            grundy::store::Status::Judging,
            "still the new attempt's"
        );
        assert!(sub.report.is_none());
        return;
    }
    panic!("no worker was ever overtaken while it judged");
}

#[test]
fn the_cli_submits_to_a_server_and_logs_in() {
    let ws = workspace_with_server("lease_seconds = 30");
    let s = Server::start(&ws, 1);
    let token = s.user("ann", false);
    let ok = ws.file("ok.c", NIM_C_AC);
    let wa = ws.file("wa.c", C_WA);
    let home = ws.dir.path().join("home");
    let env = [("XDG_CONFIG_HOME", home.to_str().unwrap())];
    let out = ws.grundy_env(
        &env,
        &[
            "submit",
            "nim",
            ok.to_str().unwrap(),
            "--server",
            &s.url,
            "--token",
            &token,
            "--json",
        ],
    );
    assert_eq!(out.code, 0, "{} {}", out.stdout, out.stderr);
    let v = out.json();
    assert_eq!(
        (v["verdict"].as_str(), v["status"].as_str()),
        (Some("AC"), Some("done"))
    );
    assert!(v["tests"].as_array().unwrap().len() > 20);
    let id = v["id"].as_i64().unwrap().to_string();

    // No token anywhere: one line naming the ways to give one.
    let out = ws.grundy_env(
        &env,
        &["submit", "nim", wa.to_str().unwrap(), "--server", &s.url],
    );
    out.assert_usage_error("grundy login");

    // `login` stores the token (mode 0600); then --token is not needed.
    let login = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["login", &s.url])
        .env("XDG_CONFIG_HOME", &home)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(format!("{token}\n").as_bytes())?;
            child.wait_with_output()
        })
        .expect("login");
    assert!(
        login.status.success(),
        "{}",
        String::from_utf8_lossy(&login.stderr)
    );
    let creds = home.join("grundy/credentials.toml");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&creds).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let out = ws.grundy_env(
        &env,
        &["submit", "nim", wa.to_str().unwrap(), "--server", &s.url],
    );
    assert_eq!(out.code, 1, "{} {}", out.stdout, out.stderr);
    // A row per sample; the secret tests, shown without names or figures
    // (their names tell answers), counted in one line.
    assert!(out.stdout.contains("sample-1"), "{}", out.stdout);
    assert!(
        out.stdout.contains("3 secret tests: 2 AC, 1 WA"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("- ms"), "{}", out.stdout);
    assert!(!out.stdout.contains("trap-equal-pair"), "{}", out.stdout);
    assert!(out.stdout.contains("WA (wrong answer)"), "{}", out.stdout);

    let out = ws.grundy_env(&env, &["status", &id, "--server", &s.url, "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json()["verdict"], "AC");
}

#[test]
fn serve_refuses_to_start_without_isolation_unless_insecure() {
    let ws = Workspace::new();
    let text = std::fs::read_to_string(ws.config()).unwrap();
    std::fs::write(
        ws.config(),
        text.replace("isolation = \"auto\"", "isolation = \"none\""),
    )
    .unwrap();
    let out = ws.grundy(&["serve", "--bind", "127.0.0.1:0"]);
    out.assert_usage_error("refusing to serve");
}

#[test]
fn the_configuration_is_found_from_anywhere() {
    let ws = Workspace::new();
    let elsewhere = tempfile::tempdir().unwrap();
    let run = |env: &[(&str, &str)]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
            .arg("problems")
            .env_remove("GRUNDY_CONFIG")
            .envs(env.iter().copied())
            .current_dir(elsewhere.path())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let config = ws.config();
    let (code, out) = run(&[("GRUNDY_CONFIG", config.to_str().unwrap())]);
    assert_eq!(code, Some(0));
    assert!(out.contains("nim"), "{out}");
    let xdg = ws.dir.path().join("xdg");
    std::fs::create_dir_all(xdg.join("grundy")).unwrap();
    std::fs::copy(&config, xdg.join("grundy/config.toml")).unwrap();
    let (code, out) = run(&[("XDG_CONFIG_HOME", xdg.to_str().unwrap())]);
    assert_eq!(code, Some(0));
    assert!(out.contains("nim"), "{out}");
}

/// Starts the built binary as a server; returns it and its URL.
fn spawn_server(ws: &Workspace) -> (std::process::Child, String) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([
            "--config",
            ws.config().to_str().unwrap(),
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--workers",
            "2",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("serve");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("the serving line");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .trim_end_matches("/api/v1")
        .to_string();
    (child, url)
}

/// The crash test: a server killed with SIGKILL while it judges
/// loses nothing; after a restart every submission ends done once, with
/// the right verdict and one set of tests.
#[test]
fn a_server_killed_mid_run_loses_nothing() {
    server_killed_mid_run_loses_nothing(&workspace_with_server(
        "lease_seconds = 1\nsubmissions_per_minute = 0\nmax_waiting = 0",
    ));
}

/// The crash test on `ws`'s database.
pub fn server_killed_mid_run_loses_nothing(ws: &Workspace) {
    let store_url = Config::load(&ws.config()).unwrap().database_url();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let store = rt.block_on(Store::open(&store_url)).unwrap();
    rt.block_on(store.add_user("ann", "unused", false)).unwrap();
    let t = auth::new_token();
    rt.block_on(store.add_token("ann", &t.hash, &t.prefix))
        .unwrap();
    let token = t.token;

    let (mut child, url) = spawn_server(ws);
    let n = 40;
    let mut expected = Vec::new();
    for i in 0..n {
        let (source, verdict) = if i % 2 == 0 {
            (NIM_C_AC, "AC")
        } else {
            (C_WA, "WA")
        };
        let (code, v) = call(
            "POST",
            &format!("{url}/api/v1/submissions"),
            Some(&token),
            Some(json!({"problem": "nim", "language": "c", "source": source})),
        );
        assert_eq!(code, 202, "{v}");
        expected.push((v["id"].as_i64().unwrap(), verdict));
    }
    // Kill it once some are done and others are being judged (bounded wait).
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let subs = rt
            .block_on(store.list(&grundy::store::ListFilter {
                limit: 100,
                ..Default::default()
            }))
            .unwrap();
        let done = subs.iter().filter(|s| s.status == "done").count();
        let judging = subs.iter().any(|s| s.status == "judging");
        if (done >= 2 && judging) || done == n || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("SIGKILL");
    child.wait().unwrap();

    let (mut child, url) = spawn_server(ws);
    for (id, verdict) in &expected {
        let v = loop {
            let (code, v) = call(
                "GET",
                &format!("{url}/api/v1/submissions/{id}?wait=60"),
                Some(&token),
                None,
            );
            assert_eq!(code, 200, "{v}");
            if v["status"] == "done" {
                break v;
            }
        };
        assert_eq!(v["verdict"], *verdict, "{v}");
        let tests = v["tests"].as_array().unwrap();
        let names: std::collections::HashSet<_> =
            tests.iter().map(|t| t["name"].as_str()).collect();
        assert_eq!(names.len(), tests.len(), "one set of tests: {v}");
        if *verdict == "AC" {
            assert!(
                tests.len() > 20 && tests.iter().all(|t| t["verdict"] == "AC"),
                "{v}"
            );
        }
        assert!(rt.block_on(store.history_verdicts(*id)).unwrap().is_empty());
    }
    // SIGTERM: a clean exit.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    assert!(child.wait().unwrap().success());
}

/// The load test, bounded: 500 submissions from 32 concurrent
/// clients over loopback are all accepted and all judged, none IE (a
/// "database is locked" would surface as a 500 or an IE). The source is
/// wrong on nim's first test, so judging it is one run.
#[test]
fn five_hundred_submissions_from_32_clients_are_all_judged() {
    // One account on purpose: no cap on its waiting submissions.
    let ws =
        workspace_with_server("submissions_per_minute = 0\nmax_waiting = 0\nlease_seconds = 30");
    let s = Arc::new(Server::start(&ws, 2));
    let token = Arc::new(s.user("load", true));
    let clients: Vec<_> = (0..32)
        .map(|c| {
            let (s, token) = (s.clone(), token.clone());
            std::thread::spawn(move || {
                let mut ids = Vec::new();
                for _ in (c..500).step_by(32) {
                    let (code, v) = submit(&s, &token, "nim", "c", NIM_C_WA_FIRST);
                    assert_eq!(code, 202, "{v}");
                    ids.push(v["id"].as_i64().unwrap());
                }
                ids
            })
        })
        .collect();
    let ids: Vec<i64> = clients
        .into_iter()
        .flat_map(|c| c.join().unwrap())
        .collect();
    assert_eq!(ids.len(), 500);
    for id in &ids {
        let v = wait_done(&s, &token, *id);
        assert_eq!(v["verdict"], "WA", "{v}");
    }
}

#[test]
fn a_separate_worker_process_judges_what_the_server_queues() {
    separate_worker_process_judges_what_the_server_queues(&workspace_with_server(
        "workers = 0\nlease_seconds = 30\nsubmissions_per_minute = 100\n",
    ));
}

/// The server takes submissions with no worker of its own; `grundy
/// worker`, another process on `ws`'s database, judges them.
pub fn separate_worker_process_judges_what_the_server_queues(ws: &Workspace) {
    let s = Server::start(ws, 0);
    let token = s.user("ada", false);
    let (code, queued) = submit(&s, &token, "nim", "c", NIM_C_WA_FIRST);
    assert_eq!(code, 202, "{queued}");
    let mut worker = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("--config")
        .arg(ws.config())
        .args(["worker", "--workers", "1"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("start grundy worker");
    let done = wait_done(&s, &token, queued["id"].as_i64().unwrap());
    // SAFETY: plain syscall on our own child.
    unsafe { libc::kill(worker.id() as i32, libc::SIGTERM) };
    let status = worker.wait().expect("wait for the worker");
    assert_eq!(done["verdict"], "WA", "{done}");
    assert_eq!(
        status.code(),
        Some(0),
        "a worker stopped by SIGTERM exits 0"
    );
}

//! The judge worker in a room of its own (issues 37 and 38): a worker
//! process that has only the database and a data directory judges from the
//! published package and tests, needs no toolchain but its submissions',
//! and claims nothing it cannot judge. Every wait is a bounded loop; no
//! test asserts a duration.

use std::path::Path;
use std::time::Duration;

use grundy::store::{NewSubmission, Queue, Status, Store};

use crate::helpers::{Workspace, NIM_C_AC};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// Stops a child on drop, so a failed assertion leaves no worker behind.
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        // SAFETY: a plain signal to our own child.
        unsafe { libc::kill(self.0.id() as i32, libc::SIGTERM) };
        let _ = self.0.wait();
    }
}

/// A worker configuration holding only the database's URL and a data
/// directory of its own (empty: no tests built there, no programs cached).
fn bare_worker_config(dir: &Path, url: &str) -> std::path::PathBuf {
    let path = dir.join("config.toml");
    std::fs::write(
        &path,
        format!(
            "database_url = \"{url}\"\ndata_dir = \"{}\"\n",
            dir.join("var").display()
        ),
    )
    .unwrap();
    path
}

/// Issue 38: a worker whose config has only `database_url` and
/// `data_dir`, on a machine with no rustc on its PATH (the package's
/// generator, validator and reference solver are Rust), judges a C
/// submission from the published tests, which it takes from the database
/// and checks, and never claims a Rust one; it announces the built-in
/// languages it has (the partial config kept them), without Rust.
#[test]
fn a_worker_without_rust_judges_c_from_the_published_tests() {
    if !crate::helpers::require_languages(&["c"]) {
        return;
    }
    let ws = Workspace::new();
    let problems = tempfile::tempdir().unwrap();
    crate::cluster::nim_only(problems.path());
    ws.use_problems(problems.path());
    let published = ws.grundy(&["publish", "nim"]);
    assert_eq!(published.code, 0, "{}", published.stderr);
    let url = grundy::config::Config::load(&ws.config())
        .unwrap()
        .database_url();
    let rt = runtime();
    let store = rt.block_on(Store::open(&url)).unwrap();
    let enqueue = |language: &str, source: &str| {
        rt.block_on(store.enqueue(NewSubmission {
            problem: "nim",
            language,
            source: source.as_bytes(),
            user_id: None,
        }))
        .unwrap()
    };
    let rust = enqueue(
        "rust",
        &std::fs::read_to_string(crate::helpers::repo().join("problems/nim/solution.rs")).unwrap(),
    );
    let c = enqueue("c", NIM_C_AC);

    let machine = tempfile::tempdir().unwrap();
    let config = bare_worker_config(machine.path(), &url);
    // A PATH with nothing on it: no rustc (and no rustup) to be found; the
    // C compiler is named by its absolute path in the built-in languages.
    let empty_path = tempfile::tempdir().unwrap();
    let worker = Child(
        std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
            .env("PATH", empty_path.path())
            .env_remove("GRUNDY_CONFIG")
            .env_remove("GRUNDY_DATABASE_URL")
            .arg("--config")
            .arg(&config)
            .args(["worker", "--workers", "1"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("start grundy worker"),
    );
    let mut judged = None;
    for _ in 0..1200 {
        let sub = rt.block_on(store.get(c)).unwrap().unwrap();
        if sub.status == Status::Done {
            judged = Some(sub);
            break;
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    let judged = judged.expect("the C submission judged within five minutes");
    let report = judged.report.as_ref().expect("a report");
    assert_eq!(report.verdict.to_string(), "AC", "{:?}", judged.error);
    // The worker announced what it judges: C, not Rust.
    let workers = rt.block_on(store.worker_processes()).unwrap();
    let announced: Vec<&str> = workers
        .iter()
        .flat_map(|w| w.languages.lines())
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(announced.contains(&"c"), "{workers:?}");
    assert!(!announced.contains(&"rust"), "{workers:?}");
    // The tests were taken, not built: the set is there, with no program
    // of the package compiled on this machine.
    let sets = machine.path().join("var/tests/nim");
    let set = std::fs::read_dir(&sets)
        .unwrap()
        .flatten()
        .find(|e| e.path().join("index.json").is_file())
        .expect("the published set in place");
    assert!(set.path().join("index.json").is_file());
    drop(worker);
    let rust = rt.block_on(store.get(rust)).unwrap().unwrap();
    assert_eq!(rust.status, Status::Queued, "never claimed");
    assert!(rust.error.is_none(), "never tried: {:?}", rust.error);
    let claims: i64 = rt.block_on(async {
        let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
        sqlx::query_scalar("SELECT COUNT(*) FROM claims WHERE submission_id = ?")
            .bind(rust.id)
            .fetch_one(&pool)
            .await
            .unwrap()
    });
    assert_eq!(claims, 0, "the Rust submission was never claimed");
}

/// Moves process `name`'s last heartbeat `ago` into the past (SQLite).
fn silent_for(url: &str, name: &str, ago: Duration) {
    runtime().block_on(async {
        let pool = sqlx::SqlitePool::connect(url).await.unwrap();
        sqlx::query("UPDATE workers SET seen_ms = seen_ms - ? WHERE name = ?")
            .bind(i64::try_from(ago.as_millis()).unwrap())
            .bind(name)
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
    });
}

/// Issue 38: a submission no live worker can take says why, and
/// `grundy submit --server` says so on stderr while it waits: first with
/// no worker at all, then with a live one that judges only C++ (a C
/// submission waits for a worker that judges C).
#[test]
fn submit_to_a_server_says_why_a_submission_waits() {
    let ws = crate::helpers::workspace_with_server("lease_seconds = 30");
    let s = crate::helpers::Server::start(&ws, 0);
    let token = s.user("ann", false);
    let (code, queued) = crate::server::submit(&s, &token, "nim", "c", NIM_C_AC);
    assert_eq!(code, 202, "{queued}");
    let id = queued["id"].as_i64().unwrap();
    let url = format!("{}/api/v1/submissions/{id}", s.url);
    let (_, seen) = crate::server::call("GET", &url, Some(&token), None);
    assert_eq!(seen["status"], "queued");
    // The author reads what kind of thing it waits for (issue 44); the
    // workers are the admins' business.
    assert_eq!(seen["waiting"], "no judge is running yet", "{seen}");
    // A live process that judges C++ only.
    s.rt.block_on(async {
        s.store.register_workers("cpp-only:1", 1, "test").await?;
        s.store
            .announce_workers("cpp-only:1", 1, "cpp g++ 12")
            .await
    })
    .unwrap();
    // A reason is told from the workers' reports as read at most a second
    // ago (issue 46): the new one shows within a bounded wait.
    let mut seen = serde_json::Value::Null;
    for _ in 0..50 {
        seen = crate::server::call("GET", &url, Some(&token), None).1;
        if seen["waiting"] != "no judge is running yet" {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(seen["waiting"], "no judge for c yet", "{seen}");
    // The submission's page says it too, to an admin in the admins' words.
    s.account("boss", true);
    let cookie = crate::web::sign_in(&s.url, "boss");
    let page = crate::web::http(
        "GET",
        &format!("{}/submissions/{id}", s.url),
        Some(&cookie),
        None,
    );
    assert!(
        page.body
            .contains("<span id=\"waiting\">no live worker judges c</span>"),
        "{}",
        page.body
    );

    // The command line, while it waits, says the same on stderr.
    let source = ws.file("ok.c", NIM_C_AC);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("--config")
        .arg(ws.config())
        .env("XDG_CONFIG_HOME", ws.dir.path().join("home"))
        .args([
            "submit",
            "nim",
            source.to_str().unwrap(),
            "--server",
            &s.url,
        ])
        .args(["--token", &token])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stderr), &mut line).unwrap();
    // SAFETY: a plain signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
    let _ = child.wait();
    assert_eq!(line.trim(), "grundy: waiting: no judge for c yet");
}

/// Issue 38: the admins' queue page lists the processes gone silent and
/// the configured languages no live worker judges.
#[test]
fn the_queue_page_lists_silent_workers_and_languages_no_one_judges() {
    let ws = crate::helpers::workspace_with_server("lease_seconds = 30");
    let s = crate::helpers::Server::start(&ws, 0);
    s.rt.block_on(async {
        s.store.register_workers("c-only:1", 1, "test").await?;
        s.store.announce_workers("c-only:1", 1, "c gcc 12").await?;
        s.store.register_workers("gone:2", 1, "test").await?;
        s.store.announce_workers("gone:2", 1, "python 3").await
    })
    .unwrap();
    let url = grundy::config::Config::load(&ws.config())
        .unwrap()
        .database_url();
    silent_for(&url, "gone:2", Duration::from_secs(120));
    s.account("boss", true);
    let cookie = crate::web::sign_in(&s.url, "boss");
    let page = crate::web::http(
        "GET",
        &format!("{}/admin/queue", s.url),
        Some(&cookie),
        None,
    );
    assert_eq!(page.status, 200);
    let unjudged = page
        .body
        .split("id=\"unjudged\">")
        .nth(1)
        .and_then(|rest| rest.split("</p>").next())
        .unwrap_or_else(|| panic!("no list of unjudged languages: {}", page.body));
    for language in ["cpp", "python", "rust"] {
        assert!(unjudged.contains(language), "{language}: {unjudged}");
    }
    assert!(!unjudged.contains("c,") && !unjudged.starts_with("No live worker judges c "));
    let silent = page
        .body
        .split("id=\"silent\">")
        .nth(1)
        .and_then(|rest| rest.split("</ul>").next())
        .unwrap_or_else(|| panic!("no silent workers: {}", page.body));
    assert!(silent.contains("gone:2: silent"), "{silent}");
    assert!(!silent.contains("c-only:1"), "{silent}");
}

/// Issue 38: a process silent for long drops off the list when a worker
/// process starts (and at each heartbeat), so restarts do not pile up
/// `host:pid` entries; what it judged stays in the history.
#[test]
fn dead_workers_drop_off_and_their_history_stays() {
    let ws = Workspace::new();
    let url = grundy::config::Config::load(&ws.config())
        .unwrap()
        .database_url();
    let rt = runtime();
    let store = rt.block_on(Store::open(&url)).unwrap();
    rt.block_on(async {
        store.register_workers("dead:1", 1, "test").await?;
        store.register_workers("recent:2", 1, "test").await
    })
    .unwrap();
    // `dead:1` claimed a submission before it died.
    rt.block_on(store.enqueue(NewSubmission {
        problem: "nim",
        language: "c",
        source: NIM_C_AC.as_bytes(),
        user_id: None,
    }))
    .unwrap();
    let by = grundy::store::ClaimAs {
        worker: "dead:1",
        ..Default::default()
    };
    let claim = rt
        .block_on(store.claim(Duration::from_secs(60), &by))
        .unwrap()
        .expect("a claim");
    silent_for(&url, "dead:1", Duration::from_secs(3600));
    silent_for(&url, "recent:2", Duration::from_secs(60));
    // A worker process starting forgets the dead one.
    let ctx = std::sync::Arc::new(grundy::context::Context::new(
        grundy::config::Config::load(&ws.config()).unwrap(),
    ));
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let pool = rt.spawn(grundy::worker::work(ctx, store.clone(), 1, async {
        let _ = rx.await;
    }));
    let mut names = Vec::new();
    for _ in 0..1200 {
        names = rt
            .block_on(store.worker_processes())
            .unwrap()
            .into_iter()
            .map(|w| w.name)
            .collect::<Vec<_>>();
        if !names.contains(&"dead:1".to_string()) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = tx.send(());
    rt.block_on(pool).unwrap().unwrap();
    assert!(!names.contains(&"dead:1".to_string()), "{names:?}");
    assert!(
        names.contains(&"recent:2".to_string()),
        "silent only a minute: {names:?}"
    );
    let claims: Vec<String> = rt.block_on(async {
        let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
        sqlx::query_scalar("SELECT worker FROM claims WHERE submission_id = ?")
            .bind(claim.lease.id)
            .fetch_all(&pool)
            .await
            .unwrap()
    });
    assert!(claims.contains(&"dead:1".to_string()), "{claims:?}");
}

/// Issue 38: a worker checks every published test file against its hash;
/// one altered in the database makes it refuse the problem (the
/// submission goes back untouched), and the submission's reason for
/// waiting names the worker, the package and the mismatch.
#[test]
fn an_altered_published_test_is_refused_and_the_reason_is_shown() {
    let ws = Workspace::new();
    let problems = tempfile::tempdir().unwrap();
    crate::cluster::nim_only(problems.path());
    ws.use_problems(problems.path());
    let published = ws.grundy(&["publish", "nim"]);
    assert_eq!(published.code, 0, "{}", published.stderr);
    let mut config = grundy::config::Config::load(&ws.config()).unwrap();
    let url = config.database_url();
    let rt = runtime();
    let store = rt.block_on(Store::open(&url)).unwrap();
    // The first test's input, altered where it is stored.
    rt.block_on(async {
        let index: serde_json::Value =
            serde_json::from_str(&store.published("nim").await.unwrap().unwrap().tests).unwrap();
        let sha = index["tests"][0]["input_sha256"]
            .as_str()
            .unwrap()
            .to_string();
        let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
        sqlx::query("UPDATE test_files SET bytes = ? WHERE sha256 = ?")
            .bind(b"1\n7\n".to_vec())
            .bind(&sha)
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
    });
    let id = rt
        .block_on(store.enqueue(NewSubmission {
            problem: "nim",
            language: "c",
            source: NIM_C_AC.as_bytes(),
            user_id: None,
        }))
        .unwrap();
    // A machine of its own: an empty data directory.
    let machine = tempfile::tempdir().unwrap();
    config.data_dir = machine.path().to_path_buf();
    let ctx = std::sync::Arc::new(grundy::context::Context::new(config));
    let env = grundy::worker::WorkerEnv {
        timing: std::sync::Arc::new(grundy::worker::WorkerTiming::named("judge2:4711")),
        ..grundy::worker::WorkerEnv::new(ctx)
    };
    rt.block_on(async {
        store.register_workers("judge2:4711", 1, "test").await?;
        store.announce_workers("judge2:4711", 1, "c gcc 12").await
    })
    .unwrap();
    let outcome = rt
        .block_on(grundy::worker::try_judge_next(&store, &env))
        .unwrap();
    assert_eq!(outcome, grundy::worker::WorkOutcome::Refused(id));
    let sub = rt.block_on(store.get(id)).unwrap().unwrap();
    assert_eq!(sub.status, Status::Queued, "given back untouched");
    // Never claimed again by this process.
    let again = rt
        .block_on(grundy::worker::try_judge_next(&store, &env))
        .unwrap();
    assert_eq!(again, grundy::worker::WorkOutcome::QueueEmpty);
    let judges = rt
        .block_on(grundy::site::waiting::Judges::read(&store))
        .unwrap();
    let reason = judges.reason("nim", "c", grundy::site::policy::Role::Admin);
    assert!(
        reason.starts_with("worker judge2:4711 refused package nim (")
            && reason.contains("hash mismatch"),
        "{reason}"
    );
}

//! Judges on many machines around one PostgreSQL (issue 24): the queue's
//! crash and lease tests on PostgreSQL, claims by many workers at once,
//! workers that wake on LISTEN/NOTIFY and claim only their languages.
//! Every wait is a bounded loop; no test asserts a duration.

use std::sync::Arc;
use std::time::Duration;

use grundy::store::{ClaimAs, NewSubmission, Queue, Store};

use crate::helpers::{claim_any, workspace_with_server};

const LEASE: Duration = Duration::from_secs(60);

fn new(language: &str) -> NewSubmission<'_> {
    NewSubmission {
        problem: "nim",
        language,
        source: b"int main() {}",
        user_id: None,
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// A fresh SQLite file (kept while the guard lives) or PostgreSQL database.
pub fn database(postgres: bool) -> Option<(String, Option<tempfile::TempDir>)> {
    if postgres {
        return crate::pg::database().map(|url| (url, None));
    }
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("grundy.db").display());
    Some((url, Some(dir)))
}

/// Eight claimers at once (each with a store of its own, as on eight
/// machines) take every one of 60 submissions exactly once.
fn concurrent_claims_take_each_submission_once(postgres: bool) {
    let Some((url, _guard)) = database(postgres) else {
        return;
    };
    let rt = runtime();
    rt.block_on(async {
        let store = Store::open(&url).await.unwrap();
        let mut ids = Vec::new();
        for _ in 0..60 {
            ids.push(store.enqueue(new("c")).await.unwrap());
        }
        let mut claimers = Vec::new();
        for _ in 0..8 {
            let store = Store::open(&url).await.unwrap();
            claimers.push(tokio::spawn(async move {
                let mut mine = Vec::new();
                while let Some(claim) = claim_any(&store, LEASE).await {
                    mine.push(claim.lease.id);
                }
                mine
            }));
        }
        let mut claimed = Vec::new();
        for c in claimers {
            claimed.extend(c.await.unwrap());
        }
        claimed.sort_unstable();
        assert_eq!(claimed, ids, "every submission claimed once");
    });
}

#[test]
fn concurrent_claims_take_each_submission_once_on_sqlite() {
    concurrent_claims_take_each_submission_once(false);
}

#[test]
fn concurrent_claims_take_each_submission_once_on_postgres() {
    concurrent_claims_take_each_submission_once(true);
}

fn as_with(languages: &[String]) -> ClaimAs<'_> {
    ClaimAs {
        worker: "test:1",
        languages: Some(languages),
        ..ClaimAs::default()
    }
}

/// A worker with only C never claims a C++ submission; one with C++ does.
fn a_worker_claims_only_its_languages(postgres: bool) {
    let Some((url, _guard)) = database(postgres) else {
        return;
    };
    runtime().block_on(async {
        let store = Store::open(&url).await.unwrap();
        let cpp = store.enqueue(new("cpp")).await.unwrap();
        let c = store.enqueue(new("c")).await.unwrap();
        let only_c = ["c".to_string()];
        let claim = store.claim(LEASE, &as_with(&only_c)).await.unwrap();
        assert_eq!(claim.map(|c| c.lease.id), Some(c));
        assert!(store
            .claim(LEASE, &as_with(&only_c))
            .await
            .unwrap()
            .is_none());
        let with_cpp = ["c".to_string(), "cpp".to_string()];
        let claim = store.claim(LEASE, &as_with(&with_cpp)).await.unwrap();
        assert_eq!(claim.map(|c| c.lease.id), Some(cpp));
        // Issue 49: a language is looked up by value: `_` and `%` in an id
        // are themselves, not a pattern's wildcards.
        let odd = store.enqueue(new("c_p")).await.unwrap();
        let any = store.enqueue(new("%")).await.unwrap();
        let near = ["cxp".to_string(), "c".to_string()];
        assert!(
            store.claim(LEASE, &as_with(&near)).await.unwrap().is_none(),
            "no language of the worker's is `c_p` or `%`"
        );
        let exact = ["%".to_string(), "c_p".to_string()];
        let mut got = Vec::new();
        while let Some(c) = store.claim(LEASE, &as_with(&exact)).await.unwrap() {
            got.push(c.lease.id);
        }
        got.sort_unstable();
        assert_eq!(got, [odd, any]);
    });
}

#[test]
fn a_worker_claims_only_its_languages_on_sqlite() {
    a_worker_claims_only_its_languages(false);
}

#[test]
fn a_worker_claims_only_its_languages_on_postgres() {
    a_worker_claims_only_its_languages(true);
}

/// On PostgreSQL a submission stored by one process wakes the workers of
/// another (LISTEN/NOTIFY), and so does one put back in the queue.
#[test]
fn new_work_wakes_the_workers_of_another_process_on_postgres() {
    let Some(url) = crate::pg::database() else {
        return;
    };
    runtime().block_on(async {
        let server = Store::open(&url).await.unwrap();
        let worker = Store::open(&url).await.unwrap();
        assert!(worker.notifies());
        let wake = Arc::new(tokio::sync::Notify::new());
        let listener = worker.wake_on_work(wake.clone()).await.unwrap().unwrap();
        let woken = wake.notified();
        tokio::pin!(woken);
        woken.as_mut().enable();
        server.enqueue(new("c")).await.unwrap();
        tokio::time::timeout(Duration::from_secs(30), woken)
            .await
            .expect("a NOTIFY for a stored submission");
        let lease = claim_any(&worker, LEASE).await.unwrap().lease;
        let woken = wake.notified();
        tokio::pin!(woken);
        woken.as_mut().enable();
        assert!(worker.release(lease).await.unwrap());
        tokio::time::timeout(Duration::from_secs(30), woken)
            .await
            .expect("a NOTIFY for a released submission");
        listener.abort();
    });
}

#[test]
fn sqlite_does_not_claim_to_notify() {
    let (url, _guard) = database(false).unwrap();
    runtime().block_on(async {
        let store = Store::open(&url).await.unwrap();
        assert!(!store.notifies());
        let wake = Arc::new(tokio::sync::Notify::new());
        assert!(store.wake_on_work(wake).await.unwrap().is_none());
    });
}

#[test]
fn on_postgres_a_worker_whose_lease_expired_has_its_late_result_discarded() {
    let ws = workspace_with_server("lease_seconds = 30");
    if crate::pg::use_postgres(&ws) {
        crate::server::late_result_of_an_expired_lease_is_discarded(&ws);
    }
}

#[test]
fn on_postgres_a_server_killed_mid_run_loses_nothing() {
    let ws =
        workspace_with_server("lease_seconds = 1\nsubmissions_per_minute = 0\nmax_waiting = 0");
    // The server publishes every problem at start: nim is enough here.
    let problems = tempfile::tempdir().unwrap();
    crate::cluster::nim_only(problems.path());
    ws.use_problems(problems.path());
    if crate::pg::use_postgres(&ws) {
        crate::server::server_killed_mid_run_loses_nothing(&ws);
    }
}

#[test]
fn on_postgres_a_separate_worker_process_judges_what_the_server_queues() {
    let ws =
        workspace_with_server("workers = 0\nlease_seconds = 30\nsubmissions_per_minute = 100\n");
    if crate::pg::use_postgres(&ws) {
        crate::server::separate_worker_process_judges_what_the_server_queues(&ws);
    }
}

/// `grundy publish` stores a package under the SHA-256 of its files with
/// its test set's index and every input and answer by its hash; publishing it again names the same version; an
/// unknown problem is one line on stderr and exit 2.
#[test]
fn publish_names_a_package_by_its_content() {
    let ws = crate::helpers::Workspace::new();
    let problems = tempfile::tempdir().unwrap();
    crate::cluster::nim_only(problems.path());
    ws.use_problems(problems.path());
    let out = ws.grundy(&["publish", "nim"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (slug, hash) = out.stdout.trim().split_once(' ').expect("`slug hash`");
    assert_eq!(slug, "nim");
    assert_eq!(hash.len(), 64, "{hash}");
    let again = ws.grundy(&["publish", "nim"]);
    assert_eq!(again.stdout, out.stdout, "the same files, the same name");
    let url = grundy::config::Config::load(&ws.config())
        .unwrap()
        .database_url();
    runtime().block_on(async {
        let store = Store::open(&url).await.unwrap();
        let published = store.published("nim").await.unwrap().unwrap();
        assert_eq!(published.hash, hash);
        let index: serde_json::Value = serde_json::from_str(&published.tests).unwrap();
        let tests = index["tests"].as_array().expect("the test set's index");
        assert!(tests.len() > 20, "{tests:?}");
        // Every input and answer is stored under its own hash, for workers
        // that do not build tests.
        for t in tests {
            for key in ["input_sha256", "answer_sha256"] {
                let sha = t[key].as_str().unwrap();
                let bytes = store.test_file(sha).await.unwrap().expect("stored");
                assert_eq!(grundy::digest::sha256(&bytes), sha);
            }
        }
        let blob = store.package_blob(hash).await.unwrap().unwrap();
        assert_eq!(grundy::digest::sha256(&blob), hash);
    });
    let bad = ws.grundy(&["publish", "no-such-problem"]);
    assert_eq!(bad.code, 2);
    assert_eq!(bad.stderr.trim().lines().count(), 1, "{}", bad.stderr);
    assert!(bad.stderr.contains("no-such-problem"), "{}", bad.stderr);
}

/// `grundy serve --workers 0` judges nothing, so it starts without
/// sandbox isolation (it runs no untrusted code).
#[test]
fn serve_without_workers_needs_no_isolation() {
    let ws = crate::helpers::Workspace::new();
    let text = std::fs::read_to_string(ws.config()).unwrap();
    std::fs::write(
        ws.config(),
        text.replace("isolation = \"auto\"", "isolation = \"none\""),
    )
    .unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("--config")
        .arg(ws.config())
        .args(["serve", "--bind", "127.0.0.1:0", "--workers", "0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    assert!(line.contains("with 0 workers"), "{line:?}");
    // Serving (so its signal handlers are in place) once it answers.
    let api = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap()
        .to_string();
    crate::http::get(&format!("{api}/problems"), &[]);
    // SAFETY: a plain signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let status = child.wait().unwrap();
    assert!(status.success());
}

/// The line that says what `grundy serve` does speaks English: one worker
/// is "1 worker", not "1 workers".
#[test]
fn serve_counts_one_worker_in_the_singular() {
    let ws = crate::helpers::Workspace::new();
    let text = std::fs::read_to_string(ws.config()).unwrap();
    std::fs::write(
        ws.config(),
        text.replace("isolation = \"auto\"", "isolation = \"none\""),
    )
    .unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("--config")
        .arg(ws.config())
        .args([
            "--insecure",
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--workers",
            "1",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    // SAFETY: a plain signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    child.wait().unwrap();
    assert!(line.trim_end().ends_with("with 1 worker"), "{line:?}");
}

/// `$GRUNDY_DATABASE_URL` names the database over config.toml's.
#[test]
fn the_database_url_from_the_environment_wins() {
    let ws = crate::helpers::Workspace::new();
    let problems = tempfile::tempdir().unwrap();
    crate::cluster::nim_only(problems.path());
    ws.use_problems(problems.path());
    let other = tempfile::tempdir().unwrap();
    let db = other.path().join("elsewhere.db");
    let url = format!("sqlite://{}", db.display());
    let out = ws.grundy_env(&[("GRUNDY_DATABASE_URL", &url)], &["publish", "nim"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    runtime().block_on(async {
        let elsewhere = Store::open(&url).await.unwrap();
        assert!(elsewhere.published("nim").await.unwrap().is_some());
        let configured = grundy::config::Config::load(&ws.config())
            .unwrap()
            .database_url();
        let configured = Store::open(&configured).await.unwrap();
        assert!(configured.published("nim").await.unwrap().is_none());
    });
}

/// Issue 32: `grundy submit` on the database a server's workers also use.
/// The database here takes each new submission the moment it is stored,
/// as another judge's worker may: `submit` waits for that judge's verdict
/// and tells it as its own (a WA: exit 1). Where that judge's lease has
/// expired (it died), `submit` judges the submission itself.
#[test]
fn submit_on_a_shared_database_waits_for_the_verdict_whoever_judges_it() {
    if !crate::helpers::require_languages(&["c"]) {
        return;
    }
    let ws = crate::helpers::Workspace::new();
    let source = ws.file("nim.c", crate::helpers::NIM_C_AC);
    let source = source.to_str().unwrap();
    let url = grundy::config::Config::load(&ws.config())
        .unwrap()
        .database_url();
    let rt = runtime();
    let store = rt.block_on(Store::open(&url)).unwrap();
    let taken_by_another = |lease_ms: i64| {
        rt.block_on(async {
            let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
            sqlx::query("DROP TRIGGER IF EXISTS taken")
                .execute(&pool)
                .await
                .unwrap();
            sqlx::query(&format!(
                "CREATE TRIGGER taken AFTER INSERT ON submissions BEGIN
                     UPDATE submissions SET status = 'judging', attempt = attempt + 1,
                         tries = tries + 1, lease_until = {lease_ms}
                     WHERE id = NEW.id;
                 END"
            ))
            .execute(&pool)
            .await
            .unwrap();
            pool.close().await;
        })
    };

    // Another judge holds it (its lease lasts for ages).
    taken_by_another(1 << 53);
    std::thread::scope(|scope| {
        let submit = scope.spawn(|| ws.grundy(&["submit", "nim", source]));
        let lease = grundy::store::Lease { id: 1, attempt: 1 };
        let mut finished = false;
        for _ in 0..3000 {
            if submit.is_finished() {
                break;
            }
            let sub = rt.block_on(store.get(1)).unwrap();
            if sub.is_some_and(|s| s.status == grundy::store::Status::Judging) {
                let wa = crate::store::report(grundy::verdict::Verdict::WA);
                finished = rt.block_on(store.finish(lease, &wa, None)).unwrap();
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let out = submit.join().unwrap();
        assert!(finished, "the other judge never held it: {}", out.stderr);
        assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
        let lines: Vec<&str> = out.stdout.lines().collect();
        assert!(
            lines[0].starts_with("submission 1: nim in C"),
            "{}",
            out.stdout
        );
        assert!(
            lines[2].contains("01") && lines[2].contains("WA"),
            "{}",
            out.stdout
        );
        assert!(
            lines[3].starts_with("submission 1: WA (wrong answer), score 0"),
            "{}",
            out.stdout
        );
    });

    // Another judge took it and died: its lease has expired.
    taken_by_another(0);
    let out = ws.grundy(&["submit", "nim", source]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("submission 2: AC"), "{}", out.stdout);
    let claims = rt.block_on(store.claims(Some(2))).unwrap();
    assert_eq!(
        claims.len(),
        1,
        "claimed here, at its second attempt: {claims:?}"
    );
    assert_eq!(claims[0].1, 2);
    rt.block_on(store.close());
}

/// Issue 46: a problem a server holds as being prepared is claimed by no
/// worker, and the reason its submissions wait says so, until that server
/// lets go of it (another's letting go does nothing), or its hold lapses
/// (a server that died).
fn a_problem_being_prepared_is_not_claimed(postgres: bool) {
    let Some((url, _guard)) = database(postgres) else {
        return;
    };
    runtime().block_on(async {
        let store = Store::open(&url).await.unwrap();
        let nim = ["nim".to_string()];
        store.hold_preparing("server:1", &nim, LEASE).await.unwrap();
        let id = store.enqueue(new("c")).await.unwrap();
        let claim_as = ClaimAs {
            worker: "test:1",
            ..ClaimAs::default()
        };
        assert!(store.claim(LEASE, &claim_as).await.unwrap().is_none());
        let judges = grundy::site::waiting::Judges::read(&store).await.unwrap();
        assert_eq!(
            judges.reason("nim", "c", grundy::site::policy::Role::Owner),
            "its problem is being prepared"
        );
        store.end_preparing("server:2", "nim").await.unwrap();
        assert_eq!(store.preparing().await.unwrap(), nim);
        assert!(store.claim(LEASE, &claim_as).await.unwrap().is_none());
        store.end_preparing("server:1", "nim").await.unwrap();
        assert!(store.preparing().await.unwrap().is_empty());
        let claim = store.claim(LEASE, &claim_as).await.unwrap();
        assert_eq!(claim.map(|c| c.lease.id), Some(id));

        // A hold nobody renews lapses by itself.
        let second = store.enqueue(new("c")).await.unwrap();
        store
            .hold_preparing("dead:1", &nim, Duration::from_millis(1))
            .await
            .unwrap();
        let mut claimed = None;
        for _ in 0..200 {
            claimed = store.claim(LEASE, &claim_as).await.unwrap();
            if claimed.is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(claimed.map(|c| c.lease.id), Some(second));
        assert!(store.preparing().await.unwrap().is_empty());
    });
}

#[test]
fn a_problem_being_prepared_is_not_claimed_on_sqlite() {
    a_problem_being_prepared_is_not_claimed(false);
}

#[test]
fn a_problem_being_prepared_is_not_claimed_on_postgres() {
    a_problem_being_prepared_is_not_claimed(true);
}

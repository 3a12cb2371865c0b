//! Issue 24's test of a judge spread over machines, on one machine: on
//! PostgreSQL, a server with no workers of its own and separate `grundy
//! worker` processes that know only the database: 300 submissions, one
//! worker killed with SIGKILL mid-run, every submission judged to the end
//! once with its right verdict, no submission judged by two live workers,
//! a worker with altered package data refusing the problem, a worker
//! without Python never claiming a Python submission. Every wait is a
//! bounded loop; no test asserts a duration.

use std::collections::BTreeMap;
use std::io::BufRead as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use grundy::store::Store;
use serde_json::{json, Value};

use crate::helpers::{repo, require_languages, workspace_with_server, NIM_C_AC, NIM_C_WA_FIRST};

const NIM_PY_AC: &str = "import sys\nd = sys.stdin.read().split()\nn = int(d[0])\nx = 0\n\
for a in d[1:1 + n]:\n    x ^= int(a)\nprint('Yes' if x else 'No')\n";

/// The `application_name` of the killed worker's database sessions.
const KILLED: &str = "grundy-killed-worker";

/// Children killed (and reaped) however the test ends.
struct Children(Vec<Child>);

impl Drop for Children {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            copy_dir(&path, &to.join(entry.file_name()));
        } else {
            std::fs::copy(&path, to.join(entry.file_name())).unwrap();
        }
    }
}

/// A problems directory with nim and the shared code only (a server on
/// PostgreSQL publishes every problem at start).
pub fn nim_only(dir: &Path) {
    for name in ["nim", "_common"] {
        copy_dir(&repo().join("problems").join(name), &dir.join(name));
    }
}

/// `config` with `edit` applied, written to `path`.
fn config_with(config: &Path, path: &Path, edit: impl Fn(String) -> String) -> PathBuf {
    let text = std::fs::read_to_string(config).unwrap();
    std::fs::write(path, edit(text)).unwrap();
    path.to_path_buf()
}

fn grundy(config: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_grundy"));
    c.arg("--config").arg(config).args(args);
    c
}

/// A worker process's name as it records it (`host:pid`).
fn worker_name(child: &Child) -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".into());
    format!("{host}:{}", child.id())
}

fn post(url: &str, token: &str, body: Value) -> Value {
    let agent = crate::http::agent(Duration::from_secs(60), false);
    let auth = format!("Bearer {token}");
    let r = crate::http::send(
        &agent,
        "POST",
        url,
        &[("Authorization", &auth)],
        crate::http::Body::Json(body),
    );
    assert!(r.status < 300, "{}: {}", r.status, r.body);
    r.json()
}

/// The database `config` names (its URL, a runtime, the store), with an
/// account `ann` and a token of hers.
fn database_with_ann(
    config: &Path,
) -> (
    String,
    tokio::runtime::Runtime,
    Store,
    grundy::auth::NewToken,
) {
    let db_url = grundy::config::Config::load(config).unwrap().database_url();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let store = rt.block_on(Store::open(&db_url)).unwrap();
    rt.block_on(store.add_user("ann", "unused", false)).unwrap();
    let t = grundy::auth::new_token();
    rt.block_on(store.add_token("ann", &t.hash, &t.prefix))
        .unwrap();
    (db_url, rt, store, t)
}

/// `slug`'s published version, once a starting server has published it
/// (a bounded wait).
fn published_within(
    rt: &tokio::runtime::Runtime,
    store: &Store,
    slug: &str,
    within: Duration,
) -> grundy::store::Published {
    let deadline = Instant::now() + within;
    loop {
        if let Some(p) = rt.block_on(store.published(slug)).unwrap() {
            return p;
        }
        assert!(Instant::now() < deadline, "{slug} never published");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn on_postgres_workers_elsewhere_judge_300_submissions_through_a_kill() {
    if !require_languages(&["c", "python"]) {
        return;
    }
    let ws = workspace_with_server(
        "workers = 0\nlease_seconds = 2\nsubmissions_per_minute = 0\nmax_waiting = 0",
    );
    let problems = tempfile::tempdir().unwrap();
    nim_only(problems.path());
    ws.use_problems(problems.path());
    if !crate::pg::use_postgres(&ws) {
        return;
    }
    let config = ws.config();
    let (db_url, rt, store, t) = database_with_ann(&config);

    let mut children = Children(Vec::new());
    // The server: no workers; it publishes nim at start.
    let mut server = grundy(
        &config,
        &["serve", "--bind", "127.0.0.1:0", "--workers", "0"],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    let out = server.stdout.take().unwrap();
    children.0.push(server);
    let mut line = String::new();
    std::io::BufReader::new(out).read_line(&mut line).unwrap();
    let api = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string();
    // It answers at once and publishes nim meanwhile (bounded).
    let published = published_within(&rt, &store, "nim", Duration::from_secs(300));

    // Worker D: its copy of the package was altered (a hand-made input),
    // in a data directory of its own (compiled programs shared).
    let d_data = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        crate::helpers::shared_data().join("programs"),
        d_data.path().join("programs"),
    )
    .unwrap();
    let d_package = d_data.path().join("packages").join(&published.hash);
    nim_only(&d_package);
    std::fs::write(d_package.join("nim/tests/trap-equal-pair.in"), "2\n8 8\n").unwrap();
    let d_config = config_with(&config, &d_data.path().join("config.toml"), |t| {
        t.lines()
            .map(|l| match l.starts_with("data_dir") {
                true => format!("data_dir = {:?}\n", d_data.path().display().to_string()),
                false => format!("{l}\n"),
            })
            .collect()
    });
    // Worker C: no Python here (its version command is missing).
    let c_config = config_with(&config, &d_data.path().join("no-python.toml"), |t| {
        t.replace(
            "version = [\"/usr/bin/python3\", \"--version\"]",
            "version = [\"/nonexistent/python3\", \"--version\"]",
        )
    });
    let spawn = |config: &Path| {
        grundy(config, &["worker", "--workers", "1"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    // 300 submissions: C right and wrong, and Python.
    let mut expected = BTreeMap::new();
    for i in 0..300 {
        let (language, source, verdict) = match i % 15 {
            0 => ("python", NIM_PY_AC, "AC"),
            1..=3 => ("c", NIM_C_AC, "AC"),
            _ => ("c", NIM_C_WA_FIRST, "WA"),
        };
        let v = post(
            &format!("{api}/submissions"),
            &t.token,
            json!({"problem": "nim", "language": language, "source": source}),
        );
        expected.insert(v["id"].as_i64().unwrap(), (language, verdict));
    }

    // Worker D first, alone: it must refuse nim before judging any.
    let d = spawn(&d_config);
    let d_name = worker_name(&d);
    children.0.push(d);
    let deadline = Instant::now() + Duration::from_secs(180);
    while rt.block_on(store.refusals()).unwrap().is_empty() {
        assert!(
            Instant::now() < deadline,
            "the altered worker never refused"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // Worker A (to be killed) names its database sessions, so that its end
    // can be seen in the database too.
    let sep = if db_url.contains('?') { '&' } else { '?' };
    let a = grundy(&config, &["worker", "--workers", "1"])
        .env(
            "GRUNDY_DATABASE_URL",
            format!("{db_url}{sep}application_name={KILLED}"),
        )
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (b, c) = (spawn(&config), spawn(&c_config));
    let names: Vec<String> = [&a, &b, &c].iter().map(|w| worker_name(w)).collect();
    let names = [names[0].clone(), names[1].clone(), names[2].clone(), d_name];
    let a_pid = a.id();
    children.0.extend([a, b, c]);

    // Kill worker A with SIGKILL while it holds a submission (bounded).
    let deadline = Instant::now() + Duration::from_secs(240);
    loop {
        let processes = rt.block_on(store.worker_processes()).unwrap();
        let holding = processes
            .iter()
            .any(|p| p.name == names[0] && !p.current.is_empty());
        let done = rt.block_on(store.queue_counts()).unwrap().done;
        if (holding && done >= 20) || Instant::now() > deadline {
            // SAFETY: a plain signal to our own child.
            unsafe { libc::kill(a_pid as i32, libc::SIGKILL) };
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    // What A held when it died, from the database rather than from its
    // last heartbeat (which may name a submission it had just finished):
    // a submission still judging whose latest claim is A's. Read once A's
    // last writes, if any were on their way, have landed: A is reaped (its
    // connections closed), then the database has ended every session of
    // A's (a COMMIT it had sent is applied before its session ends).
    children
        .0
        .iter_mut()
        .find(|child| child.id() == a_pid)
        .expect("worker A")
        .wait()
        .expect("reaping worker A");
    let sessions = rt
        .block_on(sqlx::postgres::PgPool::connect(&db_url))
        .expect("a session to watch A's");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let left: i64 = rt
            .block_on(
                sqlx::query_scalar(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1",
                )
                .bind(KILLED)
                .fetch_one(&sessions),
            )
            .expect("pg_stat_activity");
        if left == 0 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the killed worker's {left} sessions never ended"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    rt.block_on(sessions.close());
    let mut latest: BTreeMap<i64, String> = BTreeMap::new();
    for (id, _, worker) in rt.block_on(store.claims(None)).unwrap() {
        latest.insert(id, worker);
    }
    let killed_holding = latest.iter().any(|(id, worker)| {
        worker == &names[0]
            && rt
                .block_on(store.get_status(*id))
                .unwrap()
                .is_some_and(|s| s.status == grundy::store::Status::Judging)
    });

    // Every submission ends done (bounded).
    let deadline = Instant::now() + Duration::from_secs(400);
    loop {
        let counts = rt.block_on(store.queue_counts()).unwrap();
        if counts.done == 300 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "not all judged in time: {counts:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    let claims = rt.block_on(store.claims(None)).unwrap();
    let mut by_id: BTreeMap<i64, Vec<(i64, String)>> = BTreeMap::new();
    for (id, attempt, worker) in claims {
        by_id.entry(id).or_default().push((attempt, worker));
    }
    for (id, (language, verdict)) in &expected {
        let sub = rt.block_on(store.get(*id)).unwrap().unwrap();
        let report = sub
            .report
            .as_ref()
            .unwrap_or_else(|| panic!("{id}: no result"));
        assert_eq!(
            report.verdict.as_str(),
            *verdict,
            "submission {id} ({language})"
        );
        let tests: std::collections::HashSet<_> = report.tests.iter().map(|t| &t.name).collect();
        assert_eq!(tests.len(), report.tests.len(), "{id}: one set of tests");
        assert!(rt.block_on(store.history_verdicts(*id)).unwrap().is_empty());
        // Judged to the end by one worker: any claim before the last was
        // the killed worker's or the refusing one's (which gave it back
        // untouched), never a live worker's.
        let claims = &by_id[id];
        let (_, last) = claims.last().unwrap();
        assert!(last != &names[3], "{id}: judged by the refusing worker");
        for (_, earlier) in &claims[..claims.len() - 1] {
            assert!(
                earlier == &names[0] || earlier == &names[3],
                "{id}: claimed by {earlier} and then again: {claims:?}"
            );
        }
        if *language == "python" {
            assert!(
                claims.iter().all(|(_, w)| w != &names[2]),
                "{id}: the worker without Python claimed it"
            );
        }
    }
    let d_claims = by_id
        .values()
        .flatten()
        .filter(|(_, w)| w == &names[3])
        .count();
    assert_eq!(
        d_claims, 1,
        "the refusing worker claimed nim once, then never"
    );
    let refusals = rt.block_on(store.refusals()).unwrap();
    assert_eq!(refusals.len(), 1, "{refusals:?}");
    let r = &refusals[0];
    assert_eq!(
        (r.worker.as_str(), r.problem.as_str()),
        (names[3].as_str(), "nim")
    );
    // Its altered copy is not the package the tests were published for.
    assert!(r.reason.contains("not of nim"), "{r:?}");
    if killed_holding {
        assert!(
            by_id.values().any(|c| c.len() > 1 && c[0].1 == names[0]),
            "the killed worker's submission was claimed again"
        );
    }
    drop(children);
}

/// Issue 46: a first start on PostgreSQL answers at once. While the server
/// builds and publishes a problem's tests (here from nothing: a data
/// directory of its own, so its programs are compiled first), no worker
/// claims that problem's submissions, and the author reads why; once it
/// is published they are judged, and stderr said what was prepared.
#[test]
fn on_postgres_a_first_start_answers_at_once_and_holds_what_it_prepares() {
    if !require_languages(&["c"]) {
        return;
    }
    let ws = workspace_with_server("workers = 1\nsubmissions_per_minute = 0\nmax_waiting = 0");
    let problems = tempfile::tempdir().unwrap();
    nim_only(problems.path());
    ws.use_problems(problems.path());
    if !crate::pg::use_postgres(&ws) {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let config = config_with(&ws.config(), &data.path().join("config.toml"), |t| {
        t.lines()
            .map(|l| match l.starts_with("data_dir") {
                true => format!("data_dir = {:?}\n", data.path().display().to_string()),
                false => format!("{l}\n"),
            })
            .collect()
    });
    let (db_url, rt, store, t) = database_with_ann(&config);

    // Publishing cannot finish while this lock is held (reads go on): the
    // server is caught mid-way, however quick its build.
    let pool = rt
        .block_on(sqlx::postgres::PgPool::connect(&db_url))
        .unwrap();
    let mut lock = rt.block_on(pool.begin()).unwrap();
    rt.block_on(sqlx::query("LOCK TABLE published_problems IN EXCLUSIVE MODE").execute(&mut *lock))
        .unwrap();

    let stderr = data.path().join("serve.err");
    let mut server = grundy(&config, &["serve", "--bind", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&stderr).unwrap())
        .spawn()
        .unwrap();
    let out = server.stdout.take().unwrap();
    let mut children = Children(vec![server]);
    // Its serving line comes while nim cannot be published (bounded: a
    // server that published first would never say it).
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufReader::new(out).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(Duration::from_secs(120))
        .expect("serving while a problem is being prepared");
    let api = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string();
    // It answers, and nim is held, not yet published.
    let auth = format!("Bearer {}", t.token);
    let problems_list = crate::http::get(&format!("{api}/problems"), &[("Authorization", &auth)]);
    assert_eq!(problems_list.status, 200, "{}", problems_list.body);
    assert_eq!(rt.block_on(store.preparing()).unwrap(), ["nim"]);
    assert!(rt.block_on(store.published("nim")).unwrap().is_none());

    let v = post(
        &format!("{api}/submissions"),
        &t.token,
        json!({"problem": "nim", "language": "c", "source": NIM_C_AC}),
    );
    let id = v["id"].as_i64().unwrap();
    let url = format!("{api}/submissions/{id}");
    let read = |wait: u32| {
        let r = crate::http::get(&format!("{url}?wait={wait}"), &[("Authorization", &auth)]);
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()
    };
    // Its worker is idle, yet the try waits, and says why.
    let seen = read(1);
    assert_eq!(seen["status"], "queued", "{seen}");
    assert_eq!(seen["waiting"], "its problem is being prepared", "{seen}");
    rt.block_on(lock.rollback()).unwrap();
    // Once published, the server's worker judges it (bounded).
    let mut verdict = Value::Null;
    for _ in 0..20 {
        let v = read(30);
        if v["status"] == "done" {
            verdict = v["verdict"].clone();
            break;
        }
    }
    assert_eq!(verdict, "AC");
    assert!(rt.block_on(store.published("nim")).unwrap().is_some());
    assert!(rt.block_on(store.preparing()).unwrap().is_empty());
    let server = &mut children.0[0];
    // SAFETY: a plain signal to our own child.
    unsafe { libc::kill(server.id() as i32, libc::SIGTERM) };
    server.wait().unwrap();
    let said = std::fs::read_to_string(&stderr).unwrap();
    assert!(
        said.contains("publishing 1 problem") && said.contains("published nim (1/1)"),
        "{said}"
    );
}

//! The hosted judge's figures, each beside a baseline from the same run
//! (the machine is shared and noisy): `cargo bench --bench server`.
//! Nothing is asserted. Targets (issues 13 and 46): authenticated status
//! reads ≥ 15,000/s on a quiet 2-core machine and ≥ 0.8× the health check
//! of the same run (a token revoked elsewhere still refused by the next
//! request: `tests/it/access.rs`); submit-to-queued latency p50/p99;
//! draining a queue with 2 workers ≥ 1.6× faster than `grundy submit` one
//! by one.
//! Everything talks to a server on 127.0.0.1:0 and stops by itself.

mod common;

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use grundy::auth;
use grundy::config::Config;
use grundy::context::Context;
use grundy::server::AppState;
use grundy::store::Store;
use serde_json::json;

const ACCEPTED: &str = "#include <stdio.h>\nint main(void){int n,x=0,a;scanf(\"%d\",&n);\
while(n--){scanf(\"%d\",&a);x^=a;}puts(x?\"Yes\":\"No\");return 0;}\n";
const CLIENTS: usize = 8;
const READ_FOR: Duration = Duration::from_secs(3);
const LATENCY_SAMPLES: usize = 300;
const DRAIN: usize = 16;

struct Running {
    url: String,
    token: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The shipped configuration, data under `dir`, without the per-user
/// limits (every submission here is one user's).
fn config(dir: &Path) -> std::path::PathBuf {
    common::config(dir, &dir.join("var"), None, |l| {
        l.replace(
            "submissions_per_minute = 10 ",
            "submissions_per_minute = 0 ",
        )
        .replace("max_waiting = 5 ", "max_waiting = 0 ")
    })
}

fn start_server(config_path: &Path, workers: usize) -> Running {
    let config = Config::load(config_path).expect("config");
    let rt = Arc::new(
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime"),
    );
    std::fs::create_dir_all(&config.data_dir).expect("data dir");
    let store = rt
        .block_on(Store::open(&config.database_url()))
        .expect("store");
    let name = format!("bench{}", std::process::id());
    let _ = rt.block_on(store.add_user(&name, "unused", false));
    let t = auth::new_token();
    rt.block_on(store.add_token(&name, &t.hash, &t.prefix))
        .expect("token");
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let state = AppState::new(Arc::new(Context::new(config)), store);
    let handle = rt.spawn(grundy::hosted::serve(listener, state, workers, async {
        let _ = rx.await;
    }));
    let thread = std::thread::spawn(move || {
        let _ = rt.block_on(handle);
    });
    Running {
        url: format!("http://{addr}/api/v1"),
        token: t.token,
        stop: Some(tx),
        thread: Some(thread),
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

fn submit(s: &Running, agent: &ureq::Agent) -> i64 {
    let reply: serde_json::Value = agent
        .post(&format!("{}/submissions", s.url))
        .header("Authorization", &format!("Bearer {}", s.token))
        .send_json(json!({"problem": "nim", "language": "c", "source": ACCEPTED}))
        .expect("submit")
        .into_body()
        .read_json()
        .expect("json");
    reply["id"].as_i64().expect("id")
}

/// Waits until submission `id` is judged; its verdict.
fn wait_done(s: &Running, agent: &ureq::Agent, id: i64) -> String {
    for _ in 0..100 {
        let v: serde_json::Value = agent
            .get(&format!("{}/submissions/{id}?wait=30", s.url))
            .header("Authorization", &format!("Bearer {}", s.token))
            .call()
            .expect("status")
            .into_body()
            .read_json()
            .expect("json");
        if v["status"] == "done" {
            return v["verdict"].as_str().unwrap_or("?").to_string();
        }
    }
    panic!("submission {id} never finished");
}

/// Requests per second of `path` from CLIENTS threads for READ_FOR.
fn reads_per_second(s: &Running, path: &str) -> f64 {
    let count = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let url = format!("{}{path}", s.url);
    std::thread::scope(|scope| {
        for _ in 0..CLIENTS {
            scope.spawn(|| {
                let agent = agent();
                while !stop.load(Ordering::Relaxed) {
                    agent
                        .get(&url)
                        .header("Authorization", &format!("Bearer {}", s.token))
                        .call()
                        .expect("read")
                        .into_body()
                        .read_to_string()
                        .expect("body");
                    count.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        std::thread::sleep(READ_FOR);
        stop.store(true, Ordering::Relaxed);
    });
    count.load(Ordering::Relaxed) as f64 / READ_FOR.as_secs_f64()
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

fn main() {
    let a = agent();

    // Reads and latency with no worker judging (an idle judge), on a
    // database of their own: what they queue is never judged.
    let idle_dir = tempfile::tempdir().expect("tempdir");
    let idle = start_server(&config(idle_dir.path()), 0);
    let id = submit(&idle, &a);
    let health = reads_per_second(&idle, "/health");
    let status = reads_per_second(&idle, &format!("/submissions/{id}"));
    println!(
        "status reads of a queued submission: {status:.0}/s from {CLIENTS} clients \
         (health, no database: {health:.0}/s; {:.2}x; goal >= 0.8x, and >= 15,000/s on a quiet \
         2-core machine)",
        status / health
    );
    let mut latencies: Vec<Duration> = (0..LATENCY_SAMPLES)
        .map(|_| {
            let start = Instant::now();
            submit(&idle, &a);
            start.elapsed()
        })
        .collect();
    latencies.sort();
    println!(
        "submit to queued: p50 {:.2} ms, p99 {:.2} ms ({LATENCY_SAMPLES} submissions)",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99)
    );
    drop(idle);
    let dir = tempfile::tempdir().expect("tempdir");
    let config_path = config(dir.path());

    // The baseline: the same submissions judged one by one by `grundy submit`.
    let source = dir.path().join("ok.c");
    std::fs::write(&source, ACCEPTED).expect("source");
    let grundy = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/grundy");
    // One more first, untimed: it builds the package's test data.
    let mut start = Instant::now();
    for round in 0..=DRAIN {
        if round == 1 {
            start = Instant::now();
        }
        let out = std::process::Command::new(&grundy)
            .arg("--config")
            .arg(&config_path)
            .args(["submit", "nim"])
            .arg(&source)
            .arg("--json")
            .output()
            .expect("grundy submit (build it with cargo build --release)");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let one_by_one = start.elapsed().as_secs_f64();

    // The queue drained by 1, 2, 4, ... workers, up to twice the cores.
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    println!(
        "{DRAIN} accepted nim submissions judged one by one with grundy submit: {one_by_one:.1} s"
    );
    let mut workers = 1;
    while workers <= 2 * cores {
        let dir = tempfile::tempdir().expect("tempdir");
        let config_path = config(dir.path());
        let judge = start_server(&config_path, workers);
        // The package's test data built first, so that every count of
        // workers drains the same work.
        let warm = submit(&judge, &a);
        wait_done(&judge, &a, warm);
        let start = Instant::now();
        let ids: Vec<i64> = (0..DRAIN).map(|_| submit(&judge, &a)).collect();
        let verdicts: Vec<String> = ids
            .into_iter()
            .map(|id| wait_done(&judge, &a, id))
            .collect();
        let drained = start.elapsed().as_secs_f64();
        let ie = verdicts.iter().filter(|v| *v == "IE").count();
        let other = verdicts.iter().filter(|v| *v != "AC" && *v != "IE").count();
        println!(
            "  queued and drained by {workers} workers: {drained:.1} s, {:.2} submissions/s \
             ({:.2}x one by one), {ie} IE, {other} other than AC",
            DRAIN as f64 / drained,
            one_by_one / drained
        );
        if workers == 1 {
            // The judge idle again: reads of a judged submission (nim's
            // 61 tests), what contestants' clients poll.
            let done = reads_per_second(&judge, &format!("/submissions/{warm}"));
            let health = reads_per_second(&judge, "/health");
            println!(
                "  status reads of a judged submission: {done:.0}/s from {CLIENTS} clients \
                 (health: {health:.0}/s; {:.2}x)",
                done / health
            );
        }
        drop(judge);
        workers *= 2;
    }
}

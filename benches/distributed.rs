//! Issue 24's figures, each a ratio to a baseline from the same run (the
//! machine is shared and noisy): `cargo bench --bench distributed`.
//! Nothing is asserted.
//! - claim latency: one claim and one finish, one after another, on
//!   PostgreSQL against SQLite (the baseline), and with 4 claimers at once;
//! - drain rate: a queue of C submissions (each compiled, one test run)
//!   judged by 1, 2 and 3 `grundy worker` processes on PostgreSQL, against
//!   1 worker.
//!
//! PostgreSQL runs as a throwaway cluster of the bench's own (Unix socket
//! in a temporary directory); without it the bench says so and stops.

mod common;
#[path = "../tests/it/pg_cluster.rs"]
mod pg_cluster;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use grundy::judge::Report;
use grundy::store::{ClaimAs, NewSubmission, Queue, Store};
use grundy::verdict::Verdict;

const CLAIMS: usize = 400;
const DRAIN: usize = 48;

fn new(source: &[u8]) -> NewSubmission<'_> {
    NewSubmission {
        problem: "nim",
        language: "c",
        source,
        user_id: None,
    }
}

fn report() -> Report {
    Report {
        verdict: Verdict::WA,
        score: 0,
        time_ms: 1,
        memory_kib: 1000,
        compile_output: String::new(),
        tests: Vec::new(),
        groups: Vec::new(),
    }
}

/// Claims and finishes `CLAIMS` submissions with `claimers` at once;
/// returns (per-cycle latencies sorted, cycles per second).
async fn claim_cycles(url: &str, claimers: usize) -> (Vec<Duration>, f64) {
    let store = Store::open(url).await.expect("open");
    for _ in 0..CLAIMS {
        store.enqueue(new(b"int main(){}")).await.expect("enqueue");
    }
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..claimers {
        let store = Store::open(url).await.expect("open");
        tasks.push(tokio::spawn(async move {
            let mut lat = Vec::new();
            loop {
                let t = Instant::now();
                let Some(claim) = store
                    .claim(Duration::from_secs(60), &ClaimAs::default())
                    .await
                    .expect("claim")
                else {
                    break;
                };
                assert!(store
                    .finish(claim.lease, &report(), None)
                    .await
                    .expect("finish"));
                lat.push(t.elapsed());
            }
            lat
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.expect("claimer"));
    }
    let rate = all.len() as f64 / started.elapsed().as_secs_f64();
    all.sort_unstable();
    (all, rate)
}

fn pct(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

struct Workers(Vec<Child>);

impl Drop for Workers {
    fn drop(&mut self) {
        for c in &mut self.0 {
            // SAFETY: a plain signal to our own child.
            unsafe { libc::kill(c.id() as i32, libc::SIGTERM) };
            let _ = c.wait();
        }
    }
}

/// Seconds `workers` worker processes take to judge `DRAIN` queued
/// submissions (each a different source: each is compiled).
fn drain(cluster: &pg_cluster::Cluster, data: &Path, workers: usize, round: usize) -> f64 {
    let url = cluster.create_database();
    let dir = tempfile::tempdir().expect("tempdir");
    let config = common::config(dir.path(), data, Some(&url), str::to_owned);
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let store = rt.block_on(Store::open(&url)).expect("open");
    // Sources never seen before by the program cache (it outlives a run).
    let nonce = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let sources: Vec<String> = (0..DRAIN)
        .map(|i| format!("#include <stdio.h>\n/* {nonce} {round} {i} */\nint main(void) {{ puts(\"Maybe\"); return 0; }}\n"))
        .collect();
    let mut procs = Workers(Vec::new());
    for _ in 0..workers {
        procs.0.push(
            Command::new(env!("CARGO_BIN_EXE_grundy"))
                .arg("--config")
                .arg(&config)
                .args(["worker", "--workers", "1"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("grundy worker"),
        );
    }
    // Let the workers start (they announce themselves), then queue.
    let deadline = Instant::now() + Duration::from_secs(60);
    while rt
        .block_on(store.worker_processes())
        .expect("workers")
        .len()
        < workers
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    let started = Instant::now();
    for s in &sources {
        rt.block_on(store.enqueue(new(s.as_bytes())))
            .expect("enqueue");
    }
    let deadline = Instant::now() + Duration::from_secs(600);
    while rt.block_on(store.queue_counts()).expect("counts").done < DRAIN as i64 {
        assert!(Instant::now() < deadline, "the queue did not drain");
        std::thread::sleep(Duration::from_millis(20));
    }
    started.elapsed().as_secs_f64()
}

fn main() {
    let Some((initdb, postgres)) = pg_cluster::binaries() else {
        println!(
            "needs PostgreSQL ({}): nothing measured",
            pg_cluster::INSTALL
        );
        return;
    };
    // Durable, as in production (fsync on, like SQLite's WAL here).
    let cluster =
        pg_cluster::Cluster::start_with(&initdb, &postgres, true).expect("a PostgreSQL cluster");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .enable_all()
        .build()
        .expect("runtime");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("claim latency: one claim + one finish, {CLAIMS} cycles ({cores} cores)");
    // Warm both (files, caches), outside the figures.
    let warm = tempfile::tempdir().expect("tempdir");
    rt.block_on(claim_cycles(
        &format!("sqlite://{}", warm.path().join("grundy.db").display()),
        1,
    ));
    rt.block_on(claim_cycles(&cluster.create_database(), 1));
    for claimers in [1, 4] {
        let lite = tempfile::tempdir().expect("tempdir");
        let lite_url = format!("sqlite://{}", lite.path().join("grundy.db").display());
        let (s_lat, s_rate) = rt.block_on(claim_cycles(&lite_url, claimers));
        let (p_lat, p_rate) = rt.block_on(claim_cycles(&cluster.create_database(), claimers));
        println!(
            "  {claimers} claimer(s): SQLite p50 {:.2} ms p99 {:.2} ms ({s_rate:.0}/s) | \
             PostgreSQL p50 {:.2} ms p99 {:.2} ms ({p_rate:.0}/s) | PostgreSQL/SQLite p50 {:.2}x, rate {:.2}x",
            pct(&s_lat, 0.5),
            pct(&s_lat, 0.99),
            pct(&p_lat, 0.5),
            pct(&p_lat, 0.99),
            pct(&p_lat, 0.5) / pct(&s_lat, 0.5),
            p_rate / s_rate,
        );
    }
    drop(rt);
    // The compiled programs and generated tests persist between runs of
    // the bench (as on a worker that has run before).
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-distributed-data");
    std::fs::create_dir_all(&data).expect("data dir");
    // Warm: nim's tests built once, outside the figures.
    drain(&cluster, &data, 1, 0);
    println!("drain: {DRAIN} C submissions (each compiled, WA on the first test) on PostgreSQL");
    let base = drain(&cluster, &data, 1, 1);
    println!(
        "  1 worker:  {:.1} s, {:.2}/s (baseline)",
        base,
        DRAIN as f64 / base
    );
    for workers in [2, 3] {
        let t = drain(&cluster, &data, workers, workers);
        println!(
            "  {workers} workers: {:.1} s, {:.2}/s, {:.2}x the 1-worker rate",
            t,
            DRAIN as f64 / t,
            base / t
        );
    }
}

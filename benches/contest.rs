//! The contest load figure (issue 25): `cargo bench --bench contest`.
//!
//! A 3-hour ICPC contest with 200 teams, 8 problems and 3,000 submissions
//! is generated from a fixed seed, then replayed against a server on
//! 127.0.0.1:0 at 20× speed (9 minutes; `GRUNDY_BENCH_SPEEDUP=60` for a
//! shorter run): each submission is stored with its time in the contest
//! when the replay reaches it, and its result written through the store
//! as a worker writes it, with the notices the site and a worker give the
//! server's waiters (no program is run: judging 3,000 sources is not what
//! is measured). Meanwhile clients poll the scoreboard page and the
//! Contest API's scoreboard, and, as the baseline of the same run, the
//! API's health check. At the end the API's board must equal the one
//! computed from the generated history; the latencies are printed as
//! p50/p99, with each one's ratio to the baseline's. Target: p99 under
//! 100 ms. Nothing else is asserted; everything stops by itself.
//!
//! Issue 32: the replay runs twice, the second time with 100 public and
//! 20 admin event feeds open throughout (read by one client thread that
//! takes what each socket holds, [`follow`]). Each run reports the server's CPU
//! per change of the contest's record (the CPU of the server's runtime
//! threads and the database's threads, read from `/proc/self/task`, over
//! the record's events), and the two runs are compared side by side.
//! Target: feeds add under 10% CPU, and the API's p99 stays under 100 ms.
//! The two replays run at once, each in a process of its own (this bench
//! again): whatever else the machine does meanwhile, and the clients'
//! own work, weigh on both alike.
//!
//! Issue 46's goals, printed with the figures: at most 1 ms of server CPU
//! per change, and a p99 under 50 ms at 90× (`GRUNDY_BENCH_SPEEDUP=90`).
//! `GRUNDY_BENCH_PAIRS=n` runs n pairs of replays (quiet, then with
//! feeds) and prints the median of the pairs' shares as well; the
//! latencies are the last pair's.

mod common;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use grundy::config::Config;
use grundy::contest::scoreboard::scoreboard;
use grundy::contest::{Attempt, Judged, Scoring, Team, Viewer};
use grundy::context::Context;
use grundy::judge::Report;
use grundy::server::AppState;
use grundy::store::{ClaimAs, NewContest, NewSubmission, Queue, Store};
use grundy::verdict::Verdict;
use rand::{RngExt, SeedableRng};
use serde_json::Value;

const TEAMS: usize = 200;
const SUBMISSIONS: usize = 3000;
const LENGTH_MS: i64 = 3 * 3600 * 1000;
const PROBLEMS: &[&str] = &[
    "nim",
    "anti-nim",
    "staircase-nim",
    "lasker-nim",
    "split-nim",
    "set-nim",
    "euclid-game",
    "plate-game",
];
/// Clients polling each scoreboard.
const POLLERS: usize = 4;
/// Event feeds kept open in the second run: the public's and admins'.
const PUBLIC_FEEDS: usize = 100;
const ADMIN_FEEDS: usize = 20;

/// One submission of the generated history.
struct Planned {
    team: usize,
    problem: usize,
    /// From the start of the contest.
    offset_ms: i64,
    verdict: Verdict,
}

/// The history, the same on every run: teams of varied strength try
/// problems of varied difficulty; a team stops trying a problem once
/// accepted.
fn history() -> Vec<Planned> {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(25);
    let strength: Vec<f64> = (0..TEAMS).map(|_| rng.random_range(0.15..0.9)).collect();
    let ease: Vec<f64> = (0..PROBLEMS.len()).map(|i| 0.9 - 0.09 * i as f64).collect();
    let mut offsets: Vec<i64> = (0..SUBMISSIONS)
        .map(|_| rng.random_range(0..LENGTH_MS))
        .collect();
    offsets.sort_unstable();
    let mut solved = vec![vec![false; PROBLEMS.len()]; TEAMS];
    let mut out = Vec::with_capacity(SUBMISSIONS);
    for offset_ms in offsets {
        let team = rng.random_range(0..TEAMS);
        let open: Vec<usize> = (0..PROBLEMS.len()).filter(|&p| !solved[team][p]).collect();
        let problem = if open.is_empty() {
            rng.random_range(0..PROBLEMS.len())
        } else {
            open[rng.random_range(0..open.len())]
        };
        let roll: f64 = rng.random();
        let verdict = if roll < 0.05 {
            Verdict::CE
        } else if rng.random::<f64>() < strength[team] * ease[problem] {
            Verdict::AC
        } else {
            [Verdict::WA, Verdict::WA, Verdict::TLE, Verdict::RE][rng.random_range(0..4)]
        };
        if verdict == Verdict::AC {
            solved[team][problem] = true;
        }
        out.push(Planned {
            team,
            problem,
            offset_ms,
            verdict,
        });
    }
    out
}

fn config(dir: &Path) -> std::path::PathBuf {
    common::config(dir, &dir.join("var"), None, |line| {
        if line.starts_with("feeds_per_address") {
            format!("feeds_per_address = {}", PUBLIC_FEEDS + ADMIN_FEEDS)
        } else {
            line.to_owned()
        }
    })
}

/// CPU time so far of this process's threads whose names start with one
/// of `prefixes` (live ones: the runs keep their threads alive).
fn cpu_of(prefixes: &[&str]) -> Duration {
    let ticks = 100.0; // USER_HZ
    let mut total = 0.0;
    for task in std::fs::read_dir("/proc/self/task")
        .into_iter()
        .flatten()
        .flatten()
    {
        let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
            continue;
        };
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let name = &stat[open + 1..close];
        if !prefixes.iter().any(|p| name.starts_with(p)) {
            continue;
        }
        let fields: Vec<&str> = stat[close + 2..].split(' ').collect();
        // utime and stime: the 14th and 15th fields of the line.
        let used: f64 =
            fields[11].parse::<f64>().unwrap_or(0.0) + fields[12].parse::<f64>().unwrap_or(0.0);
        total += used / ticks;
    }
    Duration::from_secs_f64(total)
}

/// Reads all the open event feeds from one thread until the server closes
/// them; the events each read. `open` is told once the server has
/// answered every one (they are open).
///
/// These feeds stand in for clients on other machines. One thread at the
/// lowest priority reads what each socket holds every [`SWEEP`], without
/// waiting on any: a line the server sends is queued for it and wakes no
/// thread, as a line sent to another machine wakes none here. (A thread
/// blocked on each feed's socket charged every feed's wake-up to the
/// server thread that wrote to it, and put 120 more threads on the
/// server's two cores.) Loopback still charges the receiving side's TCP
/// work to the sender.
fn follow(
    addr: std::net::SocketAddr,
    admin: String,
    open: std::sync::mpsc::Sender<()>,
) -> Vec<usize> {
    use std::io::{ErrorKind, Read, Write};
    // SAFETY: setpriority on this thread alone (who 0 is the caller).
    unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, 19) };
    let mut feeds: Vec<(std::net::TcpStream, Chunked)> = (0..PUBLIC_FEEDS + ADMIN_FEEDS)
        .map(|i| {
            let auth = if i >= PUBLIC_FEEDS {
                format!("Authorization: {admin}\r\n")
            } else {
                String::new()
            };
            let mut stream = std::net::TcpStream::connect(addr).expect("connect");
            write!(
                stream,
                "GET /api/contests/load/event-feed HTTP/1.1\r\nHost: {addr}\r\n{auth}\r\n"
            )
            .expect("the feed's request");
            stream.set_nonblocking(true).expect("nonblocking");
            (stream, Chunked::default())
        })
        .collect();
    let mut told = false;
    let mut buf = vec![0; 1 << 16];
    let mut heard = Instant::now();
    while feeds.iter().any(|(_, c)| !c.ended) {
        for (stream, chunked) in feeds.iter_mut().filter(|(_, c)| !c.ended) {
            loop {
                match stream.read(&mut buf) {
                    Ok(0) => {
                        chunked.ended = true;
                        break;
                    }
                    Ok(n) => {
                        heard = Instant::now();
                        chunked.take(&buf[..n]);
                    }
                    Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                    Err(e) if e.kind() == ErrorKind::Interrupted => {}
                    Err(e) => panic!("reading a feed: {e}"),
                }
            }
        }
        if !told && feeds.iter().all(|(_, c)| c.answered) {
            told = true;
            let _ = open.send(());
        }
        // Each feed sends a newline after 10 s of silence at the most.
        assert!(
            heard.elapsed() < Duration::from_secs(60),
            "the feeds were silent for a minute"
        );
        std::thread::sleep(SWEEP);
    }
    feeds.into_iter().map(|(_, c)| c.events).collect()
}

/// How often [`follow`] reads the feeds' sockets.
const SWEEP: Duration = Duration::from_millis(50);

/// An HTTP/1.1 answer with a chunked body, read as it comes: the
/// non-empty lines of its body are counted (a feed's events; its
/// keep-alives are empty lines).
#[derive(Default)]
struct Chunked {
    /// Read and not yet understood.
    pending: Vec<u8>,
    /// The answer's head was read (a 200 with a chunked body).
    answered: bool,
    /// Bytes left of the chunk being read, once its size line was.
    left: Option<usize>,
    /// The last chunk came, or the connection closed.
    ended: bool,
    /// The body's line being read has a byte other than its newline.
    in_line: bool,
    events: usize,
}

impl Chunked {
    fn take(&mut self, bytes: &[u8]) {
        self.pending.extend_from_slice(bytes);
        let find = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).position(|w| w == needle);
        let mut at = 0;
        loop {
            let rest = &self.pending[at..];
            if !self.answered {
                let Some(end) = find(rest, b"\r\n\r\n") else {
                    break;
                };
                let head = String::from_utf8_lossy(&rest[..end]).to_ascii_lowercase();
                assert!(
                    head.starts_with("http/1.1 200"),
                    "the feed answered: {head}"
                );
                assert!(
                    head.contains("transfer-encoding: chunked"),
                    "not chunked: {head}"
                );
                self.answered = true;
                at += end + 4;
            } else if let Some(left) = self.left {
                if left == 0 {
                    // The CRLF after a chunk's data.
                    if rest.len() < 2 {
                        break;
                    }
                    self.left = None;
                    at += 2;
                    continue;
                }
                let n = left.min(rest.len());
                if n == 0 {
                    break;
                }
                for &b in &rest[..n] {
                    if b == b'\n' {
                        self.events += usize::from(self.in_line);
                        self.in_line = false;
                    } else {
                        self.in_line = true;
                    }
                }
                self.left = Some(left - n);
                at += n;
            } else {
                let Some(end) = find(rest, b"\r\n") else {
                    break;
                };
                let line = std::str::from_utf8(&rest[..end]).expect("a chunk's size");
                let size = line.split(';').next().unwrap_or_default().trim();
                let size = usize::from_str_radix(size, 16).expect("a chunk's size");
                at += end + 2;
                if size == 0 {
                    self.ended = true;
                    break;
                }
                self.left = Some(size);
            }
        }
        self.pending.drain(..at);
    }
}

/// What one replay measured.
struct Run {
    /// Each kind of request's p99, in ms.
    p99: Vec<(String, f64)>,
    /// The server's CPU over the replay, in s.
    cpu: f64,
    /// The events the contest's record holds at the end.
    changes: i64,
    /// Events read by each open feed.
    feeds: Vec<usize>,
}

impl Run {
    /// As the one line a replay's process ends with.
    fn line(&self) -> String {
        serde_json::json!({
            "p99": self.p99, "cpu": self.cpu, "changes": self.changes, "feeds": self.feeds,
        })
        .to_string()
    }

    fn from_line(line: &str) -> Run {
        let v: Value = serde_json::from_str(line).expect("a replay's figures");
        Run {
            p99: serde_json::from_value(v["p99"].clone()).expect("p99"),
            cpu: v["cpu"].as_f64().expect("cpu"),
            changes: v["changes"].as_i64().expect("changes"),
            feeds: serde_json::from_value(v["feeds"].clone()).expect("feeds"),
        }
    }

    /// The server's CPU per change of the record, in µs.
    fn per_change(&self) -> f64 {
        self.cpu * 1e6 / self.changes.max(1) as f64
    }
}

/// Latencies of one kind of request.
#[derive(Default)]
struct Samples(Vec<Duration>);

impl Samples {
    fn percentile(&mut self, p: f64) -> Duration {
        self.0.sort_unstable();
        if self.0.is_empty() {
            return Duration::ZERO;
        }
        let at = ((self.0.len() - 1) as f64 * p).round() as usize;
        self.0[at]
    }
}

/// Polls `url` until `done`, timing each answer (which must be a 200).
fn poll(url: String, auth: Option<String>, done: Arc<AtomicBool>) -> Samples {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into();
    let mut samples = Samples::default();
    while !done.load(Ordering::Relaxed) {
        let started = Instant::now();
        let mut req = agent.get(&url);
        if let Some(a) = &auth {
            req = req.header("Authorization", a);
        }
        let body = req
            .call()
            .unwrap_or_else(|e| panic!("GET {url}: {e}"))
            .into_body()
            .read_to_string()
            .expect("body");
        samples.0.push(started.elapsed());
        assert!(!body.is_empty());
        // A browser's poll rate, not a flood: one request every 100 ms
        // per client at most.
        std::thread::sleep(Duration::from_millis(100).saturating_sub(started.elapsed()));
    }
    samples
}

/// Set in a replay's own process: which replay it runs.
const REPLAY: &str = "GRUNDY_BENCH_REPLAY";
/// A replay's process says so when it is ready to start, and waits for a
/// line on its input.
const READY: &str = "replay-ready";
/// Its last line starts so, followed by its figures ([`Run::line`]).
const RESULT: &str = "replay-result ";

fn main() {
    let speedup: i64 = std::env::var("GRUNDY_BENCH_SPEEDUP")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&s| s >= 1)
        .unwrap_or(20);
    if let Ok(which) = std::env::var(REPLAY) {
        let feeds = which == "feeds";
        let name = if feeds { "srv-feeds" } else { "srv-quiet" };
        let run = replay(&history(), speedup, feeds, name);
        println!("{RESULT}{}", run.line());
        return;
    }
    // Pairs of replays (`GRUNDY_BENCH_PAIRS`, 1 by default), quiet and
    // with feeds, each pair's two at once: the machine drifts, so the two
    // replays of a pair share whatever the machine does meanwhile, and
    // each pair's share is its own; the median of the pairs' is the figure.
    let pairs: usize = std::env::var("GRUNDY_BENCH_PAIRS")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&n| n >= 1)
        .unwrap_or(1);
    let mut shares = Vec::new();
    let mut last = None;
    for _ in 0..pairs {
        let [q, b] = at_once();
        let share = (b.per_change() / q.per_change() - 1.0) * 100.0;
        println!(
            "server CPU per change: {:.0} us without feeds ({:.2} s over {} events), {:.0} us with {} public and {} admin feeds open ({:.2} s over {} events): {share:+.1}% (goals: at most 1,000 us per change, feeds under +10%)",
            q.per_change(),
            q.cpu,
            q.changes,
            b.per_change(),
            PUBLIC_FEEDS,
            ADMIN_FEEDS,
            b.cpu,
            b.changes,
        );
        shares.push(share);
        last = Some((q, b));
    }
    if pairs > 1 {
        let mut sorted = shares.clone();
        sorted.sort_by(f64::total_cmp);
        let each: Vec<String> = shares.iter().map(|s| format!("{s:+.1}%")).collect();
        println!(
            "feeds add, the median of {pairs} pairs: {:+.1}% (pairs: {}; goal under +10%)",
            sorted[sorted.len() / 2],
            each.join(", ")
        );
    }
    let (quiet, busy) = last.expect("a pair");
    let (least, most) = (
        busy.feeds.iter().min().copied().unwrap_or(0),
        busy.feeds.iter().max().copied().unwrap_or(0),
    );
    println!(
        "feeds: {} read between {least} and {most} events each",
        busy.feeds.len()
    );
    for (kind, q) in &quiet.p99 {
        if let Some((_, b)) = busy.p99.iter().find(|(k, _)| k == kind) {
            println!("{kind:>6}: p99 {q:.2} ms without feeds, {b:.2} ms with them");
        }
    }
}

/// The quiet replay and the one with feeds, each in a process of its own
/// (this bench again, with [`REPLAY`] set), started together once both
/// are ready; their lines are passed on, marked with whose they are.
fn at_once() -> [Run; 2] {
    use std::io::{BufRead, Write};
    use std::process::{Command, Stdio};
    let exe = std::env::current_exe().expect("this bench");
    let mut children = ["quiet", "feeds"].map(|which| {
        let mut child = Command::new(&exe)
            .args(std::env::args_os().skip(1))
            .env(REPLAY, which)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("a replay's process");
        let out = std::io::BufReader::new(child.stdout.take().expect("its output"));
        (which, child, out.lines())
    });
    for (which, _, lines) in &mut children {
        loop {
            let line = lines.next().expect("a replay ready").expect("its line");
            if line == READY {
                break;
            }
            println!("[{which}] {line}");
        }
    }
    for (_, child, _) in &mut children {
        writeln!(child.stdin.as_mut().expect("its input"), "go").expect("go");
    }
    let runs = children.map(|(which, child, lines)| {
        let forward = std::thread::spawn(move || {
            let mut run = None;
            for line in lines.map_while(Result::ok) {
                match line.strip_prefix(RESULT) {
                    Some(figures) => run = Some(Run::from_line(figures)),
                    None => println!("[{which}] {line}"),
                }
            }
            run
        });
        (which, child, forward)
    });
    runs.map(|(which, mut child, forward)| {
        let run = forward.join().expect("its lines");
        assert!(
            child.wait().expect("the replay").success(),
            "the {which} replay failed"
        );
        run.unwrap_or_else(|| panic!("the {which} replay gave no figures"))
    })
}

/// One replay of `plan` against a fresh server (with the feeds open where
/// `feeds`), whose runtime threads are named `name`.
fn replay(plan: &[Planned], speedup: i64, feeds: bool, name: &'static str) -> Run {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = Config::load(&config(dir.path())).expect("config");
    std::fs::create_dir_all(&config.data_dir).expect("data dir");
    let rt = Arc::new(
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name(name)
            // Threads that end take their CPU time with them.
            .thread_keep_alive(Duration::from_secs(3600))
            .enable_all()
            .build()
            .expect("runtime"),
    );
    let store = rt
        .block_on(Store::open(&config.database_url()))
        .expect("store");

    // The accounts: an admin (who reads the board whole) and the teams.
    rt.block_on(store.add_user("judge", "unused", true))
        .expect("admin");
    let token = grundy::auth::new_token();
    rt.block_on(store.add_token("judge", &token.hash, &token.prefix))
        .expect("token");
    let admin = format!("Bearer {}", token.token);
    let mut teams = Vec::with_capacity(TEAMS);
    for i in 0..TEAMS {
        let name = format!("team{i:03}");
        let id = rt
            .block_on(store.add_user(&name, "unused", false))
            .expect("team");
        teams.push(Team::new(id, name));
    }
    teams.sort_by(|a, b| a.name.cmp(&b.name));
    let start_ms = grundy::site::contests::now_ms();
    let new = NewContest {
        slug: "load".into(),
        name: "Load".into(),
        start_ms,
        duration_s: LENGTH_MS / 1000,
        freeze_s: 3600,
        penalty_min: 20,
        scoring: Scoring::Icpc,
        medals: grundy::contest::Medals::default(),
        participants: None,
        problems: grundy::contest::labels(PROBLEMS.len())
            .into_iter()
            .zip(PROBLEMS)
            .map(|(l, p)| (l, p.to_string()))
            .collect(),
        colors: Vec::new(),
    };
    let contest_id = rt
        .block_on(store.create_contest(&new, start_ms))
        .expect("contest");

    // The server: pages and APIs, no workers (results come from the replay).
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let state = AppState::new(Arc::new(Context::new(config)), store.clone());
    // What a submission and its judging tell the server's waiters (the
    // pages' live parts, the feeds), as the site and a worker tell them.
    let changes = state.worker.changes.clone();
    let handle = rt.spawn(grundy::hosted::serve(listener, state, 0, async {
        let _ = rx.await;
    }));
    let base = format!("http://{addr}");

    let done = Arc::new(AtomicBool::new(false));
    let mut pollers = Vec::new();
    for (kind, url, auth) in [
        ("page", format!("{base}/contests/load/scoreboard"), None),
        (
            "api",
            format!("{base}/api/contests/load/scoreboard"),
            Some(admin.clone()),
        ),
        ("health", format!("{base}/api/v1/health"), None::<String>),
    ] {
        for _ in 0..POLLERS {
            let (url, auth, done) = (url.clone(), auth.clone(), done.clone());
            pollers.push((kind, std::thread::spawn(move || poll(url, auth, done))));
        }
    }

    let followers = feeds.then(|| {
        let (open, opened) = std::sync::mpsc::channel();
        let admin = admin.clone();
        let follower = std::thread::spawn(move || follow(addr, admin, open));
        // Opening them is not what is measured: what they cost open is.
        opened.recv().expect("the feeds opened");
        follower
    });
    // Both replays start together (see `main`).
    println!("{READY}");
    let mut go = String::new();
    std::io::stdin().read_line(&mut go).expect("the go");
    let threads = [name, "sqlx-sqlite"];
    let cpu_before = cpu_of(&threads);

    // The replay: each submission when its time comes, at `speedup`.
    println!(
        "replaying {SUBMISSIONS} submissions by {TEAMS} teams over 3 h at {speedup}x ({} s)",
        LENGTH_MS / speedup / 1000
    );
    let began = Instant::now();
    let mut attempts = Vec::with_capacity(plan.len());
    let mut write = Samples::default();
    for p in plan {
        let due = Duration::from_millis((p.offset_ms / speedup) as u64);
        std::thread::sleep(due.saturating_sub(began.elapsed()));
        let team = &teams[p.team];
        let at_ms = start_ms + p.offset_ms;
        let started = Instant::now();
        let id = rt
            .block_on(store.insert_contest_submission(
                NewSubmission {
                    problem: PROBLEMS[p.problem],
                    language: "c",
                    source: b"int main(void) { return 0; }\n",
                    user_id: Some(team.id),
                },
                contest_id,
                at_ms,
            ))
            .expect("insert");
        changes.changed_any();
        let own = ClaimAs {
            only: Some(id),
            ..ClaimAs::default()
        };
        let lease = rt
            .block_on(store.claim(Duration::from_secs(60), &own))
            .expect("claim")
            .expect("claimed")
            .lease;
        changes.changed(id);
        let mut report = Report::failed(p.verdict, String::new());
        report.score = if p.verdict == Verdict::AC { 100 } else { 0 };
        assert!(rt
            .block_on(store.finish(lease, &report, None))
            .expect("finish"));
        changes.changed(id);
        write.0.push(started.elapsed());
        attempts.push(Attempt {
            id,
            team: team.id,
            problem: PROBLEMS[p.problem].to_string(),
            at_ms,
            result: Some(Judged {
                verdict: p.verdict,
                score: report.score,
                groups: Vec::new(),
            }),
        });
    }
    done.store(true, Ordering::Relaxed);
    let cpu = cpu_of(&threads).saturating_sub(cpu_before);
    let mut samples: Vec<(&str, Samples)> = Vec::new();
    for (kind, t) in pollers {
        let s = t.join().expect("poller");
        match samples.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, all)) => all.0.extend(s.0),
            None => samples.push((kind, s)),
        }
    }

    // The board the server shows must be the one the history gives.
    let contest = rt
        .block_on(store.contest("load"))
        .expect("read")
        .expect("there");
    let now = grundy::site::contests::now_ms();
    let expected = scoreboard(&contest, &teams, &attempts, Viewer::Admin, now);
    let shown: Value = ureq::get(&format!("{base}/api/contests/load/scoreboard"))
        .header("Authorization", &admin)
        .call()
        .expect("scoreboard")
        .into_body()
        .read_json()
        .expect("json");
    let rows = shown["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), expected.rows.len(), "rows on the board");
    for (got, want) in rows.iter().zip(&expected.rows) {
        let same = got["team_id"].as_str().and_then(|t| t.parse().ok()) == Some(want.team.id)
            && got["rank"] == want.rank
            && got["score"]["num_solved"] == want.solved
            && got["score"]["total_time"] == want.penalty;
        assert!(
            same,
            "the board differs from the history: {got} vs {want:?}"
        );
    }
    let solved: u32 = expected.rows.iter().map(|r| r.solved).sum();
    println!(
        "scoreboard: {} rows equal to the history's ({solved} problems solved; leader {} with {})",
        rows.len(),
        expected.rows[0].team.name,
        expected.rows[0].solved
    );

    let took = began.elapsed();
    let mut base_line = Duration::ZERO;
    for (kind, s) in &mut samples {
        let (n, p50, p99) = (s.0.len(), s.percentile(0.5), s.percentile(0.99));
        if *kind == "health" {
            base_line = p50.max(Duration::from_micros(1));
        }
        println!(
            "{kind:>6}: {n:>6} requests  p50 {:>8.2} ms  p99 {:>8.2} ms",
            p50.as_secs_f64() * 1e3,
            p99.as_secs_f64() * 1e3
        );
    }
    for (kind, s) in &mut samples {
        if *kind != "health" {
            println!(
                "{kind:>6}: p99 is {:.1}x the health check's p50 (the run's baseline); goal p99 < 50 ms (at 90x): {}",
                s.percentile(0.99).as_secs_f64() / base_line.as_secs_f64(),
                if s.percentile(0.99) < Duration::from_millis(50) { "met" } else { "NOT met" }
            );
        }
    }
    println!(
        " write: {} submissions stored and judged through the store, p50 {:.2} ms p99 {:.2} ms; replay took {:.1} s",
        write.0.len(),
        write.percentile(0.5).as_secs_f64() * 1e3,
        write.percentile(0.99).as_secs_f64() * 1e3,
        took.as_secs_f64()
    );
    let changes = rt
        .block_on(store.contest_version(&contest))
        .expect("version")
        .0;
    let _ = tx.send(());
    let _ = rt.block_on(handle);
    let feeds = followers
        .map(|f| f.join().expect("the feeds"))
        .unwrap_or_default();
    Run {
        p99: samples
            .iter_mut()
            .map(|(kind, s)| (kind.to_string(), s.percentile(0.99).as_secs_f64() * 1e3))
            .collect(),
        cpu: cpu.as_secs_f64(),
        changes,
        feeds,
    }
}

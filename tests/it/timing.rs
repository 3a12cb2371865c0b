//! Fair timing across workers (issue 24): a worker declared slow judges
//! under a proportionally larger limit, a verdict close to its limit is
//! judged once more on another worker and marked, and the calibration is
//! shown to admins. Speeds are injected (a calibration set by the test,
//! a margin that makes every accepted run a close call), never timed: no
//! test here asserts a duration.

use std::sync::Arc;
use std::time::Duration;

use grundy::config::Config;
use grundy::context::Context;
use grundy::judge::Calibration;
use grundy::judge::Report;
use grundy::store::{FairTiming, NewSubmission, Queue, Status, Store, Timed};
use grundy::verdict::Verdict;
use grundy::worker::{self, WorkOutcome, WorkerEnv, WorkerTiming};

use crate::helpers::{
    claim_any, claim_own, copy_dir, repo, require_languages, workspace_with_server, Server,
    Workspace, NIM_C_AC,
};

/// Sets `key = value` in the workspace's configuration (the first line
/// that sets `key`: keys here are unique in the shipped file).
fn set_key(ws: &Workspace, key: &str, value: &str) {
    let text = std::fs::read_to_string(ws.config()).expect("config");
    let mut found = false;
    let text: String = text
        .lines()
        .map(|l| {
            if l.starts_with(&format!("{key} ")) && !found {
                found = true;
                format!("{key} = {value}\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    assert!(found, "no {key} in the shipped config");
    std::fs::write(ws.config(), text).expect("write config");
}

/// A calibration of `ms` (as if measured).
fn calibrated(ms: u64) -> Calibration {
    Calibration {
        median_ms: ms,
        runs_ms: vec![ms; 3],
        language: "c".into(),
    }
}

struct Bench {
    ws: Workspace,
    rt: tokio::runtime::Runtime,
    store: Store,
    ctx: Arc<Context>,
}

impl Bench {
    fn new(ws: Workspace) -> Bench {
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
        ctx.tiers();
        Bench { ws, rt, store, ctx }
    }

    /// A worker process named `name`, alive, with calibration `ms`.
    fn worker(&self, name: &str, ms: u64) -> WorkerEnv {
        let c = calibrated(ms);
        self.rt
            .block_on(async {
                self.store.register_workers(name, 1, "test").await?;
                self.store.record_calibration(name, &c).await
            })
            .expect("register");
        let timing = WorkerTiming::named(name);
        timing.set_calibration(c);
        WorkerEnv {
            lease: Duration::from_secs(60),
            timing: Arc::new(timing),
            ..WorkerEnv::new(self.ctx.clone())
        }
    }

    /// [`Bench::worker`] on a machine that has only `languages`, and
    /// announces them.
    fn limited(&self, name: &str, languages: &[&str]) -> WorkerEnv {
        let env = self.worker(name, 100);
        let text: Vec<String> = languages.iter().map(|l| format!("{l} 1.0")).collect();
        self.rt
            .block_on(self.store.announce_workers(name, 1, &text.join("\n")))
            .expect("announce");
        let languages: Vec<String> = languages.iter().map(|l| l.to_string()).collect();
        env.languages.set(languages);
        env
    }

    fn enqueue(&self, problem: &str, source: &str) -> i64 {
        self.rt
            .block_on(self.store.enqueue(NewSubmission {
                problem,
                language: "c",
                source: source.as_bytes(),
                user_id: None,
            }))
            .expect("enqueue")
    }

    fn step(&self, env: &WorkerEnv) -> WorkOutcome {
        self.rt
            .block_on(worker::try_judge_next(&self.store, env))
            .expect("step")
    }

    fn timing(&self, id: i64) -> grundy::store::SubmissionTiming {
        self.rt
            .block_on(self.store.timing_of(id))
            .expect("read")
            .expect("stored")
    }

    fn verdict(&self, id: i64) -> Option<String> {
        let sub = self.rt.block_on(self.store.get(id)).unwrap().unwrap();
        sub.report.map(|r| r.verdict.to_string())
    }
}

/// Correct on the fixture's game, after spinning until its own CPU clock
/// reads `ms`: the same CPU time on any machine.
fn spinner(ms: u32) -> String {
    format!(
        r#"#include <stdio.h>
#include <time.h>
int main(void) {{
    unsigned long long n;
    volatile unsigned long spin = 0;
    if (scanf("%llu", &n) != 1) return 1;
    while (clock() < (clock_t)({ms} * (CLOCKS_PER_SEC / 1000))) spin++;
    puts(n % 3 ? "First" : "Second");
    return 0;
}}
"#
    )
}

/// The verify fixture's game with its sample alone, limit 0.25 s.
fn one_test_problem(ws: &Workspace) {
    let problems = ws.dir.path().join("problems");
    let dir = problems.join("take");
    copy_dir(&repo().join("tests/fixtures/verify/base"), &dir);
    std::fs::remove_dir_all(dir.join("submissions")).unwrap();
    let toml = std::fs::read_to_string(dir.join("problem.toml")).unwrap();
    let cut = toml
        .find("\n[[tests]]\nname = \"small\"")
        .expect("the fixture's tests");
    std::fs::write(dir.join("problem.toml"), &toml[..cut]).unwrap();
    ws.use_problems(&problems);
}

#[test]
fn a_worker_declared_slow_gets_a_proportionally_larger_limit() {
    if !require_languages(&["c"]) {
        return;
    }
    let ws = workspace_with_server("lease_seconds = 60");
    // No re-runs here: this test is about the limit alone.
    set_key(&ws, "rerun_margin", "0");
    one_test_problem(&ws);
    // What is measured is CPU time; a loaded machine must not turn a slow
    // wall clock into a TLE.
    set_key(&ws, "wall_factor", "20.0");
    let b = Bench::new(ws);
    // "slow" takes twice as long as "fast" on the calibration program.
    let fast = b.worker("fast", 100);
    let slow = b.worker("slow", 200);

    // 375 ms of CPU: 1.5 times the 0.25 s limit.
    let on_slow = b.enqueue("take", &spinner(375));
    assert_eq!(b.step(&slow), WorkOutcome::Judged(on_slow));
    let t = b.timing(on_slow);
    assert_eq!(t.judged_by.as_deref(), Some("slow"));
    assert_eq!(t.speed_factor, Some(2.0));
    assert_eq!(t.time_limit_ms, Some(500), "0.25 s times 2");
    assert_eq!(
        b.verdict(on_slow).as_deref(),
        Some("AC"),
        "375 ms under 500"
    );

    let on_fast = b.enqueue("take", &spinner(375));
    assert_eq!(b.step(&fast), WorkOutcome::Judged(on_fast));
    let t = b.timing(on_fast);
    assert_eq!((t.speed_factor, t.time_limit_ms), (Some(1.0), Some(250)));
    assert_eq!(
        b.verdict(on_fast).as_deref(),
        Some("TLE"),
        "375 ms over 250"
    );
    assert!(t.first.is_none() && !t.rerun_pending);
}

#[test]
fn a_tle_that_ended_inside_the_grace_is_re_run_and_one_stopped_at_its_end_is_not() {
    if !require_languages(&["c"]) {
        return;
    }
    let ws = workspace_with_server("lease_seconds = 60");
    one_test_problem(&ws);
    set_key(&ws, "wall_factor", "20.0");
    // A limit of 1 s: the grace (the default margin, 10%) is 100 ms wide.
    let toml = ws.dir.path().join("problems/take/problem.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("time_limit = 0.25", "time_limit = 1.0")).unwrap();
    let b = Bench::new(ws);
    let alone = b.worker("alone", 100);

    // 1040 ms of CPU: over the limit, inside the grace, so its time is
    // known and it is a close call; alone, the worker re-runs it itself.
    let close = b.enqueue("take", &spinner(1040));
    let stepped = b.step(&alone);
    assert_eq!(
        stepped,
        WorkOutcome::Deferred(close),
        "{:?}",
        b.rt.block_on(b.store.get(close)).unwrap().unwrap().report
    );
    let first = b.timing(close).first.expect("the first judging");
    assert_eq!(first.verdict.to_string(), "TLE");
    assert!(
        first.time_ms > 1000 && first.time_ms < 1100,
        "{}",
        first.time_ms
    );
    assert_eq!(b.step(&alone), WorkOutcome::Judged(close));
    assert_eq!(b.verdict(close).as_deref(), Some("TLE"));
    let sub = b.rt.block_on(b.store.get(close)).unwrap().unwrap();
    let message = &sub.report.unwrap().tests[0].message;
    assert!(message.contains("of 1000 ms"), "{message}");

    // 1500 ms: stopped at the end of the grace, a clear TLE, judged once.
    let clear = b.enqueue("take", &spinner(1500));
    assert_eq!(b.step(&alone), WorkOutcome::Judged(clear));
    assert_eq!(b.verdict(clear).as_deref(), Some("TLE"));
    assert_eq!(b.timing(clear).first, None);
    assert_eq!(b.step(&alone), WorkOutcome::QueueEmpty);
}

#[test]
fn with_fair_timing_off_a_slow_worker_judges_under_the_problems_own_limit() {
    if !require_languages(&["c"]) {
        return;
    }
    let ws = workspace_with_server("lease_seconds = 60");
    set_key(&ws, "fair", "false");
    let b = Bench::new(ws);
    b.worker("fast", 100);
    let slow = b.worker("slow", 300);
    let live =
        b.rt.block_on(b.store.live_speeds(Duration::from_secs(15)))
            .unwrap();
    let names: Vec<_> = live.iter().map(|s| s.worker.as_str()).collect();
    assert_eq!(names, ["fast", "slow"], "fastest first");
    // Fair timing off: the slow worker's limit is the problem's own.
    let id = b.enqueue("nim", NIM_C_AC);
    assert_eq!(b.step(&slow), WorkOutcome::Judged(id));
    assert_eq!(b.timing(id).speed_factor, Some(1.0));
}

#[test]
fn a_close_call_is_rerun_once_on_another_worker_and_marked() {
    if !require_languages(&["c"]) {
        return;
    }
    let ws = workspace_with_server("lease_seconds = 60");
    // A margin of 1: every accepted run is "within 100% of its limit", so
    // each first judging is a close call whatever the machine's speed.
    set_key(&ws, "rerun_margin", "1.0");
    let b = Bench::new(ws);
    let a = b.worker("a", 100);
    let other = b.worker("b", 100);

    let id = b.enqueue("nim", NIM_C_AC);
    assert_eq!(b.step(&a), WorkOutcome::Deferred(id));
    let sub = b.rt.block_on(b.store.get(id)).unwrap().unwrap();
    assert_eq!(
        sub.status,
        Status::Queued,
        "back in the queue for its re-run"
    );
    let t = b.timing(id);
    assert!(t.rerun_pending);
    let first = t.first.clone().expect("the first judging is kept");
    assert_eq!(first.verdict.to_string(), "AC");
    assert_eq!(first.judged_by.as_deref(), Some("a"));
    assert_eq!(first.time_limit_ms, Some(1000));

    // Not on the worker that judged it first while another is alive, and
    // never by a local `grundy submit` claiming its own submission.
    assert_eq!(b.step(&a), WorkOutcome::QueueEmpty);
    assert_eq!(
        b.rt.block_on(claim_own(&b.store, id, Duration::from_secs(60))),
        None
    );
    // The other worker re-runs it; its verdict stands, once.
    assert_eq!(b.step(&other), WorkOutcome::Judged(id));
    assert_eq!(b.verdict(id).as_deref(), Some("AC"));
    let t = b.timing(id);
    assert_eq!(t.judged_by.as_deref(), Some("b"));
    assert!(!t.rerun_pending);
    assert_eq!(t.first, Some(first), "the first judging is still told");
    assert_eq!(b.step(&other), WorkOutcome::QueueEmpty);
    assert_eq!(b.step(&a), WorkOutcome::QueueEmpty);

    // A rejudge is a new round: the old first judging goes.
    assert!(b.rt.block_on(b.store.rejudge(id)).unwrap());
    assert_eq!(b.timing(id).first, None);
    assert_eq!(b.step(&a), WorkOutcome::Deferred(id));

    // Alone, a worker re-runs its own close call.
    b.rt.block_on(b.store.unregister_workers("b")).unwrap();
    assert_eq!(b.step(&a), WorkOutcome::Judged(id));
    let t = b.timing(id);
    assert_eq!(t.judged_by.as_deref(), Some("a"));
    assert_eq!(t.first.map(|f| f.judged_by), Some(Some("a".to_string())));
    drop(b.ws);
}

/// Issue 32's findings: a live worker without the submission's language
/// took its re-run (and, where it lacked the toolchain, failed it into IE);
/// one that refused the problem's package took it and gave it back
/// forever. Neither takes it now; with no other worker that can run it,
/// the worker that judged it first re-runs it.
#[test]
fn a_rerun_goes_only_to_a_worker_that_can_run_it() {
    if !require_languages(&["c"]) {
        return;
    }
    let ws = workspace_with_server("lease_seconds = 60");
    set_key(&ws, "rerun_margin", "1.0");
    let b = Bench::new(ws);
    let a = b.worker("a", 100);
    let no_c = b.limited("no-c", &["python"]);
    let refuser = b.worker("refuser", 100);
    refuser.refused.lock().unwrap().insert("nim".into());
    b.rt.block_on(
        b.store
            .refuse_package("refuser", "nim", "", "its tests differ"),
    )
    .unwrap();

    let id = b.enqueue("nim", NIM_C_AC);
    assert_eq!(b.step(&a), WorkOutcome::Deferred(id));
    assert_eq!(b.step(&no_c), WorkOutcome::QueueEmpty, "it has no C");
    assert_eq!(
        b.step(&refuser),
        WorkOutcome::QueueEmpty,
        "it refused nim's package"
    );
    assert_eq!(b.step(&a), WorkOutcome::Judged(id));
    assert_eq!(b.verdict(id).as_deref(), Some("AC"));
    let t = b.timing(id);
    assert_eq!(t.judged_by.as_deref(), Some("a"));
    assert_eq!(t.first.map(|f| f.judged_by), Some(Some("a".to_string())));
    assert_eq!(t.first_stands, None, "the re-run's verdict stands");
}

/// A close call whose re-run no worker took in time: its first judging
/// stands, and admins are told why, in the API and on its page.
#[test]
fn admins_are_told_when_the_first_judging_stands() {
    let ws = workspace_with_server("lease_seconds = 60");
    let s = Server::start(&ws, 0);
    let lease = Duration::from_secs(60);
    let id = s.rt.block_on(async {
        let id = s
            .store
            .enqueue(NewSubmission {
                problem: "nim",
                language: "c",
                source: NIM_C_AC.as_bytes(),
                user_id: None,
            })
            .await
            .unwrap();
        let claim = claim_any(&s.store, lease).await.unwrap();
        let mut first = Report::failed(Verdict::AC, String::new());
        first.score = 100;
        let timed = Timed {
            worker: "judge-1:7",
            factor: 1.0,
            limit_ms: 1000,
        };
        assert!(s
            .store
            .defer_rerun(claim.lease, timed, &first, Duration::ZERO)
            .await
            .unwrap());
        assert!(claim_any(&s.store, lease).await.is_none(), "settled");
        id
    });
    let why = "no worker that could re-run it took it in time";
    let admin = s.user("root", true);
    let (code, seen) = crate::server::call(
        "GET",
        &format!("{}/api/v1/submissions/{id}", s.url),
        Some(&admin),
        None,
    );
    assert_eq!(code, 200, "{seen}");
    assert_eq!(seen["verdict"], "AC", "{seen}");
    assert_eq!(seen["timing"]["first_stands"], why, "{seen}");
    assert_eq!(seen["timing"]["judged_by"], "judge-1:7", "{seen}");
    s.account("boss", true);
    let cookie = crate::web::sign_in(&s.url, "boss");
    let page = crate::web::http(
        "GET",
        &format!("{}/submissions/{id}", s.url),
        Some(&cookie),
        None,
    );
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains(&format!(
            "the re-run did not happen ({why}); the first judging stands"
        )),
        "{}",
        page.body
    );
}

#[test]
fn calibration_is_measured_in_the_box_and_shown_to_admins() {
    if !require_languages(&["c"]) {
        return;
    }
    let ws = workspace_with_server("lease_seconds = 60");
    set_key(&ws, "calibration_runs", "3");
    let s = Server::start(&ws, 1);
    let name = s.state.worker.timing.name.clone();
    // The server calibrates before its workers start: wait (bounded) for
    // the record.
    let mut speeds = Vec::new();
    for _ in 0..600 {
        speeds = s.rt.block_on(s.store.worker_speeds()).unwrap();
        if !speeds.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let mine = speeds.iter().find(|w| w.worker == name).expect("recorded");
    assert!(mine.median_ms > 0);
    let runs: Vec<u64> = serde_json::from_str(&mine.runs_ms).unwrap();
    assert_eq!(runs.len(), 3);

    // The API's admin view: every worker with its speed and factor.
    let admin = s.user("root", true);
    let user = s.user("ann", false);
    let url = format!("{}/api/v1/admin/workers", s.url);
    let (code, v) = crate::server::call("GET", &url, Some(&admin), None);
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["reference"], "fastest");
    let w = &v["workers"][0];
    assert_eq!(w["worker"], name.as_str());
    assert_eq!(w["median_ms"].as_i64(), Some(mine.median_ms));
    assert_eq!(w["factor"].as_f64(), Some(1.0), "alone: the reference");
    assert_eq!(w["runs_ms"].as_array().map(Vec::len), Some(3));
    let (code, _) = crate::server::call("GET", &url, Some(&user), None);
    assert_eq!(code, 403, "admins only");

    // A judged submission tells admins who judged it and under what limit.
    let (code, v) = crate::server::submit(&s, &user, "nim", "c", NIM_C_AC);
    assert_eq!(code, 202, "{v}");
    let id = v["id"].as_i64().unwrap();
    let seen = crate::server::wait_done(&s, &user, id);
    assert!(seen.get("timing").is_none(), "not to its owner: {seen}");
    let (_, seen) = crate::server::call(
        "GET",
        &format!("{}/api/v1/submissions/{id}", s.url),
        Some(&admin),
        None,
    );
    assert_eq!(seen["timing"]["judged_by"], name.as_str(), "{seen}");
    assert_eq!(seen["timing"]["time_limit_ms"], 1000);

    // The queue page shows it beside the worker's tiers.
    s.account("boss", true);
    let cookie = crate::web::sign_in(&s.url, "boss");
    let page = crate::web::http(
        "GET",
        &format!("{}/admin/queue", s.url),
        Some(&cookie),
        None,
    );
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains(&format!(
            "Calibration: <span class=\"n\">{} ms</span>",
            mine.median_ms
        )),
        "{}",
        page.body
    );
    assert!(page.body.contains("fastest live worker"), "{}", page.body);
    // And the submission's page, to admins only.
    let sub_url = format!("{}/submissions/{id}", s.url);
    let page = crate::web::http("GET", &sub_url, Some(&cookie), None);
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains(&format!(
            "Judged by <b>{name}</b>, speed factor 1.0, CPU limit 1000 ms"
        )),
        "{}",
        page.body
    );
    s.account("cid", false);
    let cid = crate::web::sign_in(&s.url, "cid");
    let page = crate::web::http("GET", &sub_url, Some(&cid), None);
    assert_eq!(page.status, 200);
    assert!(!page.body.contains("Judged by"), "{}", page.body);
}

/// Passes runs on to the sandbox; a calibration's run first waits
/// (bounded) until `together` of them are in flight, and the most seen in
/// flight at once is kept.
struct Overlapping {
    inner: Arc<dyn grundy::sandbox::Runner>,
    together: usize,
    in_flight: std::sync::Mutex<(usize, usize)>,
    arrived: std::sync::Condvar,
}

impl grundy::sandbox::Runner for Overlapping {
    fn run(
        &self,
        spec: &grundy::sandbox::RunSpec,
    ) -> Result<grundy::sandbox::Outcome, grundy::sandbox::Error> {
        let calibration = spec.cwd.to_string_lossy().contains("grundy-calibrate-");
        if calibration {
            let mut n = self.in_flight.lock().unwrap();
            n.0 += 1;
            n.1 = n.1.max(n.0);
            self.arrived.notify_all();
            // Runs one after the other never get here together: the first
            // goes on alone once the wait ends.
            let _ = self
                .arrived
                .wait_timeout_while(n, Duration::from_secs(20), |n| n.0 < self.together)
                .unwrap();
        }
        let outcome = self.inner.run(spec);
        if calibration {
            self.in_flight.lock().unwrap().0 -= 1;
        }
        outcome
    }

    fn describe(&self) -> String {
        self.inner.describe()
    }
}

#[test]
fn a_calibration_runs_a_copy_in_every_slot_at_once() {
    if !require_languages(&["c"]) {
        return;
    }
    let b = Bench::new(Workspace::new());
    let overlapping = Arc::new(Overlapping {
        inner: b.ctx.runner().clone(),
        together: 2,
        in_flight: std::sync::Mutex::new((0, 0)),
        arrived: std::sync::Condvar::new(),
    });
    let judge = grundy::judge::Judge {
        runner: overlapping.clone(),
        ..b.ctx.judge()
    };
    let c = judge.calibrate(2, 2).expect("calibration");
    // Two rounds of two copies: every run counts, and the two of a round
    // ran at once.
    assert_eq!(c.runs_ms.len(), 4, "{c:?}");
    assert_eq!(overlapping.in_flight.lock().unwrap().1, 2);
}

#[test]
fn a_worker_calibrates_again_with_every_slot_busy_after_its_interval() {
    if !require_languages(&["c"]) {
        return;
    }
    let ws = workspace_with_server("lease_seconds = 60");
    set_key(&ws, "calibration_runs", "1");
    set_key(&ws, "recalibrate_seconds", "1");
    let s = Server::start(&ws, 2);
    let name = s.state.worker.timing.name.clone();
    let mine = || {
        let speeds = s.rt.block_on(s.store.worker_speeds()).unwrap();
        speeds.into_iter().find(|w| w.worker == name)
    };
    // The first calibration, before the workers start; then another once
    // the interval passed (bounded waits: no duration is asserted).
    let mut first = None;
    for _ in 0..1200 {
        first = mine();
        if first.is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let first = first.expect("a first calibration recorded");
    let mut again = None;
    for _ in 0..1200 {
        again = mine().filter(|w| w.measured_at > first.measured_at);
        if again.is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let again = again.expect("a second calibration recorded after the interval");
    // Each is one run of a copy per worker slot (no more than the sandbox
    // runs at once).
    let copies = 2.min(s.ctx.slots());
    for w in [&first, &again] {
        let runs: Vec<u64> = serde_json::from_str(&w.runs_ms).unwrap();
        assert_eq!(runs.len(), copies, "{w:?}");
    }
    // The workers judge with the latest.
    let kept = s.state.worker.timing.calibration().expect("calibrated");
    assert!(kept.runs_ms.len() == copies && kept.median_ms > 0);
}

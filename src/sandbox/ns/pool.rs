//! The box pool: boxes prepared ahead of the runs that take them. A
//! refill thread keeps [`POOL`] boxes ready; a run takes one (or waits
//! for the one being prepared, or prepares its own); a reaper thread
//! disposes of used boxes, off the runs' path.
//!
//! Boxes are also kept across runs, as isolate keeps a box across a
//! submission's tests: a run whose mounts repeat those of a recent run
//! (the same program on the next test) asks its box's init to stay, and
//! after a clean ending the box waits here, keyed by those mounts, while
//! init empties it and arms the next program's process. The next run with
//! that key takes it instead of a fresh one. Emptying a box takes longer
//! than a quick run, so runs that follow each other with no pause take
//! turns in [`TURNS`] boxes of their key: a run whose key's box is still
//! being emptied takes a fresh box instead of waiting (kept after it),
//! and from then on each box is emptied while the other is used. Kept
//! boxes are few (four a core: two for each worker's submission, with
//! room for its interactor) and short-lived ([`KEPT_FOR`]).
//!
//! A judge that has no more runs to give for a while (a command whose
//! judging is over) winds the pool down ([`Runner::wind_down`]): its kept
//! and prepared boxes go to the reaper at once, and none is prepared until
//! the next run. A box's end takes the kernel a while (a kept box's init
//! exits only once its inotify instance has waited for a grace period:
//! some 12 ms), and it goes on while the judge records and prints its
//! verdict, not after.
//!
//! The pool's own work waits for the runs in flight, up to [`HOLD_BACK`]:
//! preparing a box (cloning its namespaces, building its root) and
//! reaping one (the kernel tearing its namespaces down) take the same
//! kernel locks as a starting run's mounts and compete with it for the
//! machine's cores, so a box taken from the pool is replaced after its
//! run, not during it, unless the pool is empty.

use std::sync::{mpsc, Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::boxed::{Boxed, PREPARE_TIMEOUT};
use super::{Inner, NamespaceSandbox};
#[cfg(doc)]
use crate::sandbox::Runner;
use crate::sandbox::{Error, Limits};

/// How many boxes are kept prepared.
const POOL: usize = 2;
/// How many kept boxes the runs of one key take turns in.
const TURNS: usize = 2;
/// How long a used box is kept for a next run.
const KEPT_FOR: Duration = Duration::from_secs(2);
/// How much more memory than at its first run a cleaned box may hold and
/// still be kept: the kernel frees an ended run's network namespace a
/// little later.
const HELD_SLACK: u64 = 8 << 20;
/// How long a kept box may take to be cleaned before it is given up.
const CLEAN_TIMEOUT: Duration = Duration::from_secs(1);
/// How long the pool's threads wait for runs in flight before they
/// prepare or reap a box all the same.
const HOLD_BACK: Duration = Duration::from_millis(20);

/// Prepared boxes, and the limits the next ones are prepared with.
pub(super) struct Pool {
    state: Mutex<PoolState>,
    /// Wakes the refill thread (a box was taken, or shutdown).
    wake: Condvar,
    /// Wakes runs waiting for a box the refill thread is preparing.
    ready: Condvar,
    /// Wakes the pool's threads when no run is in flight (or shutdown).
    quiet: Condvar,
    /// How many used boxes are kept for a next run of the same mounts.
    kept_max: usize,
}

struct PoolState {
    ready: Vec<Boxed>,
    /// Used boxes kept for a next run of the same mounts, oldest first.
    kept: Vec<Kept>,
    /// The mounts of recent runs (their reuse keys), latest last.
    recent: Vec<String>,
    /// The cgroup limits (memory, processes) written for the latest run,
    /// and its memory limit: most runs repeat them, and what a box holds
    /// differs little from one box to the next, so a box prepared with
    /// them needs no cgroup write when taken.
    limits: ((u64, u64), Option<u64>),
    /// The refill thread is preparing a box.
    preparing: bool,
    /// A run is waiting for that box.
    awaited: bool,
    /// Runs in flight (see [`InFlight`]).
    running: usize,
    /// Wound down: nothing is prepared until the next run.
    idle: bool,
    shutdown: bool,
}

/// A run in flight, from before it takes its box until its outcome: the
/// pool's threads wait for it (see [`Pool::hold_back`]).
pub(super) struct InFlight<'a>(&'a Pool);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        let mut state = lock(&self.0.state);
        state.running -= 1;
        if state.running == 0 {
            self.0.quiet.notify_all();
        }
    }
}

/// A used box kept for a next run with the same key.
struct Kept {
    key: String,
    boxed: Boxed,
    since: Instant,
}

/// The pool's threads, started by the first run.
pub(super) struct Workers {
    refill: JoinHandle<()>,
    reaper: JoinHandle<()>,
    used: mpsc::Sender<Boxed>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Pool {
    pub(super) fn new() -> Pool {
        Pool {
            state: Mutex::new(PoolState {
                ready: Vec::new(),
                kept: Vec::new(),
                recent: Vec::new(),
                limits: ((256 << 20, 64), None),
                preparing: false,
                awaited: false,
                running: 0,
                idle: false,
                shutdown: false,
            }),
            wake: Condvar::new(),
            ready: Condvar::new(),
            quiet: Condvar::new(),
            kept_max: std::thread::available_parallelism()
                .map_or(8, |n| 4 * n.get())
                .clamp(8, 256),
        }
    }

    /// Waits, from `state` on, while runs are in flight and `wanted` holds,
    /// for [`HOLD_BACK`] at most.
    fn hold_back<'a>(
        &'a self,
        mut state: MutexGuard<'a, PoolState>,
        wanted: impl Fn(&PoolState) -> bool,
    ) -> MutexGuard<'a, PoolState> {
        let deadline = Instant::now() + HOLD_BACK;
        while state.running > 0 && !state.shutdown && wanted(&state) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            state = self
                .quiet
                .wait_timeout(state, left)
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .0;
        }
        state
    }
}

impl NamespaceSandbox {
    /// Counts a run in flight until the guard is dropped.
    pub(super) fn in_flight(&self) -> InFlight<'_> {
        let mut state = lock(&self.pool.state);
        state.running += 1;
        // A run ends a wind-down: boxes are prepared again.
        if state.idle {
            state.idle = false;
            self.pool.wake.notify_one();
        }
        drop(state);
        InFlight(&self.pool)
    }

    /// Whether a run with reuse key `key` should keep its box for the
    /// next: whether a recent run had the same mounts.
    pub(super) fn repeats(&self, key: &str) -> bool {
        let mut state = lock(&self.pool.state);
        let seen = match state.recent.iter().position(|k| k == key) {
            Some(at) => {
                let k = state.recent.remove(at);
                state.recent.push(k);
                true
            }
            None => {
                state.recent.push(key.to_string());
                false
            }
        };
        // Twice as many as are kept: a key is remembered before its box is.
        if state.recent.len() > 2 * self.pool.kept_max {
            state.recent.remove(0);
        }
        seen
    }

    /// Keeps used box `b`, which ended its run cleanly, for the next run
    /// with key `key`.
    pub(super) fn keep(&self, key: String, b: Boxed) {
        let old = {
            let mut state = lock(&self.pool.state);
            if state.shutdown {
                Some(b)
            } else {
                state.kept.push(Kept {
                    key,
                    boxed: b,
                    since: Instant::now(),
                });
                (state.kept.len() > self.pool.kept_max).then(|| state.kept.remove(0).boxed)
            }
        };
        if let Some(old) = old {
            self.discard(old);
        }
    }

    /// A kept box for key `key`, cleaned and armed for its next run: the
    /// oldest of the key's boxes that its init has finished cleaning.
    /// Where none has, none while the key has fewer than [`TURNS`] boxes
    /// (the run takes a fresh one, to be kept after it), else the oldest,
    /// once cleaned.
    fn take_kept(&self, key: &str) -> Option<Boxed> {
        let mut b = {
            let mut state = lock(&self.pool.state);
            let (mut oldest, mut cleaned, mut boxes) = (None, None, 0);
            for (at, k) in state.kept.iter_mut().enumerate() {
                if k.key != key {
                    continue;
                }
                boxes += 1;
                oldest.get_or_insert(at);
                if cleaned.is_none() && k.boxed.cleaned() {
                    cleaned = Some(at);
                }
            }
            let at = cleaned.or(oldest.filter(|_| boxes >= TURNS))?;
            state.kept.remove(at).boxed
        };
        b.report.next_run();
        match b.wait_prepared(CLEAN_TIMEOUT) {
            Ok(()) if grown(&b) => {
                tracing::debug!("a kept box held more memory after cleaning than before");
                self.discard(b);
                None
            }
            Ok(()) => Some(b),
            Err(e) => {
                tracing::warn!(error = %crate::errors::chain(&e), "a kept box failed to clean");
                self.discard(b);
                None
            }
        }
    }

    /// A prepared box for a run with `limits` (and reuse key `key`): a
    /// kept one, one from the pool, or a new one when none is ready.
    /// Starts the pool's threads on first use.
    pub(super) fn take(&self, limits: &Limits, key: Option<&str>) -> Result<Boxed, Error> {
        self.start_workers();
        if let Some(b) = key.and_then(|key| self.take_kept(key)) {
            return Ok(b);
        }
        let wanted = (limits.memory, limits.processes);
        let ready = {
            let mut state = lock(&self.pool.state);
            // A box on its way is sooner than one begun now, and two
            // boxes built at once slow each other (and the runs) down; one
            // run waits for it, others build their own.
            if state.ready.is_empty() && state.preparing && !state.awaited {
                state.awaited = true;
                let deadline = Instant::now() + PREPARE_TIMEOUT;
                while state.ready.is_empty() && state.preparing && !state.shutdown {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        break;
                    }
                    state = self
                        .pool
                        .ready
                        .wait_timeout(state, left)
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .0;
                }
                state.awaited = false;
            }
            let ready = state.ready.pop();
            self.pool.wake.notify_one();
            if state.ready.is_empty() {
                // The refill thread holds back no longer.
                self.pool.quiet.notify_all();
            }
            ready
        };
        match ready {
            Some(b) => Ok(b),
            None => self.inner.prepare(wanted),
        }
    }

    /// Notes the cgroup limits box `b` was given for its run: the next
    /// boxes are prepared with them.
    pub(super) fn note_limits(&self, b: &Boxed) {
        lock(&self.pool.state).limits = b.written();
    }

    fn start_workers(&self) {
        let mut workers = lock(&self.workers);
        if workers.is_some() {
            return;
        }
        let (used, done) = mpsc::channel::<Boxed>();
        let pool = Arc::clone(&self.pool);
        let reaper = std::thread::spawn(move || {
            in_background();
            reap(&pool, &done);
        });
        let (inner, pool) = (Arc::clone(&self.inner), Arc::clone(&self.pool));
        let expired = used.clone();
        // Boxes die with the thread that cloned them (PR_SET_PDEATHSIG):
        // this one lives as long as the sandbox.
        let refill = std::thread::spawn(move || {
            in_background();
            refill(&inner, &pool, &expired);
        });
        *workers = Some(Workers {
            refill,
            reaper,
            used,
        });
    }

    /// [`Runner::wind_down`]: every kept and prepared box is killed and
    /// handed to the reaper, and none is prepared until the next run.
    pub(super) fn let_boxes_go(&self) {
        let boxes: Vec<Boxed> = {
            let mut state = lock(&self.pool.state);
            state.idle = true;
            let kept = std::mem::take(&mut state.kept);
            std::mem::take(&mut state.ready)
                .into_iter()
                .chain(kept.into_iter().map(|k| k.boxed))
                .collect()
        };
        // Every init killed first: the kernel tears them down side by side.
        for b in &boxes {
            b.kill();
        }
        for b in boxes {
            self.discard(b);
        }
    }

    /// Hands a used box to the reaper thread (or reaps it here).
    pub(super) fn discard(&self, b: Boxed) {
        let workers = lock(&self.workers);
        match workers.as_ref() {
            Some(w) => {
                if let Err(mpsc::SendError(b)) = w.used.send(b) {
                    drop(b);
                }
            }
            None => drop(b),
        }
    }
}

/// Whether a cleaned box holds more memory than when its first run began
/// (beyond [`HELD_SLACK`]): something of an earlier run is still charged
/// to it, which the next run would pay for.
fn grown(b: &Boxed) -> bool {
    b.group
        .as_ref()
        .zip(b.first_held)
        .is_some_and(|(g, first)| g.held() > first + HELD_SLACK)
}

/// Makes the calling thread one that never preempts another on waking
/// (`SCHED_BATCH`, at the same weight: it is not starved). A run's end
/// wakes the pool's threads from the judge's thread, which would otherwise
/// often lose its core to them (preparing a box, tearing one down) before
/// it has read the run's outcome.
fn in_background() {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: a plain system call on the calling thread (0), with a
    // valid parameter. Refused, the thread stays as it was.
    unsafe { libc::sched_setscheduler(0, libc::SCHED_BATCH, &param) };
}

/// The reaper thread: disposes of used boxes until the sandbox is
/// dropped. Dropping a box kills and reaps its init and removes its
/// cgroup; the kernel tears its namespaces down.
fn reap(pool: &Pool, done: &mpsc::Receiver<Boxed>) {
    while let Ok(b) = done.recv() {
        drop(pool.hold_back(lock(&pool.state), |_| true));
        drop(b);
        done.try_iter().for_each(drop);
    }
}

/// The refill thread: keeps [`POOL`] boxes prepared until shutdown, and
/// hands kept boxes unused for [`KEPT_FOR`] to the reaper. A box is
/// prepared when no run is in flight, or when the pool is empty.
fn refill(inner: &Inner, pool: &Pool, expired: &mpsc::Sender<Boxed>) {
    loop {
        let limits = {
            let mut state = lock(&pool.state);
            loop {
                let now = Instant::now();
                while state
                    .kept
                    .first()
                    .is_some_and(|k| now.duration_since(k.since) > KEPT_FOR)
                {
                    let _ = expired.send(state.kept.remove(0).boxed);
                }
                if state.shutdown || (state.ready.len() < POOL && !state.idle) {
                    break;
                }
                state = pool
                    .wake
                    .wait_timeout(state, KEPT_FOR / 2)
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .0;
            }
            state = pool.hold_back(state, |s| !s.ready.is_empty());
            if state.shutdown {
                return;
            }
            state.preparing = true;
            state.limits
        };
        let prepared = inner.prepare(limits.0).map(|b| b.written_for(limits.1));
        let mut state = lock(&pool.state);
        state.preparing = false;
        pool.ready.notify_all();
        match prepared {
            Ok(b) => {
                if state.shutdown {
                    drop(state);
                    drop(b);
                    return;
                }
                if state.idle {
                    // Wound down while it was prepared.
                    let _ = expired.send(b);
                    continue;
                }
                state.ready.push(b);
                pool.ready.notify_one();
            }
            Err(e) => {
                // Runs prepare their own box meanwhile, and report the
                // failure if it persists.
                tracing::warn!("preparing a sandbox box ahead: {e}");
                if !state.shutdown {
                    let _ = pool.wake.wait_timeout(state, Duration::from_secs(1));
                }
            }
        }
    }
}

impl Drop for NamespaceSandbox {
    fn drop(&mut self) {
        lock(&self.pool.state).shutdown = true;
        self.pool.wake.notify_all();
        self.pool.ready.notify_all();
        self.pool.quiet.notify_all();
        let workers = lock(&self.workers).take();
        if let Some(w) = workers {
            let _ = w.refill.join();
            let (ready, kept) = {
                let mut state = lock(&self.pool.state);
                (
                    std::mem::take(&mut state.ready),
                    std::mem::take(&mut state.kept),
                )
            };
            // Every init killed first, then each waited for: the kernel
            // tears their namespaces down side by side.
            for b in ready.iter().chain(kept.iter().map(|k| &k.boxed)) {
                b.kill();
            }
            drop(ready);
            drop(kept);
            drop(w.used);
            let _ = w.reaper.join();
        }
        // Boxes prepared by hand (no workers) were used and reaped.
    }
}

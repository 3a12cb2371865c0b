//! One budget of concurrent runs for the whole judge. Every run of a
//! compiler, a package program or a submission takes a slot, so judge
//! workers that each generate data with several threads never run more
//! programs at once than the machine has slots for: oversubscribing the
//! CPU would stretch wall-clock times and turn them into false TLEs.
//!
//! Each run is pinned to one core, as contest judges pin a judge daemon
//! to a core: a multi-threaded program cannot take CPU from the runs
//! beside it, and timings are steadier. The core is the one the fewest
//! of this process's runs hold when the run starts (with as many slots
//! as cores, a core of its own), counted over every runner of the
//! process, so several judges in one process never crowd one core.

use std::sync::{Arc, Condvar, Mutex, PoisonError};

use super::{Error, Outcome, RunSpec, Runner};

/// A [`Runner`] that admits at most `slots` runs at once and queues the
/// rest in arrival order of wake-ups.
pub struct Throttled {
    inner: Arc<dyn Runner>,
    slots: usize,
    busy: Mutex<usize>,
    freed: Condvar,
}

impl Throttled {
    /// Wraps `inner`; `slots` is at least 1.
    pub fn new(inner: Arc<dyn Runner>, slots: usize) -> Throttled {
        Throttled {
            inner,
            slots: slots.max(1),
            busy: Mutex::new(0),
            freed: Condvar::new(),
        }
    }

    /// How many runs may go at once.
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// Takes `n` slots at once (at most all of them: programs that must
    /// run together never wait for each other's slot).
    fn acquire(&self, n: usize) -> Slots<'_> {
        let n = n.clamp(1, self.slots);
        // The counter is only ever incremented and decremented under the
        // lock, so a poisoned lock still holds a consistent count.
        let mut busy = self.busy.lock().unwrap_or_else(PoisonError::into_inner);
        while *busy + n > self.slots {
            busy = self
                .freed
                .wait(busy)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *busy += n;
        Slots(self, n)
    }
}

/// Held slots, given back on drop (also when the run panics).
struct Slots<'a>(&'a Throttled, usize);

impl Drop for Slots<'_> {
    fn drop(&mut self) {
        let mut busy = self.0.busy.lock().unwrap_or_else(PoisonError::into_inner);
        *busy -= self.1;
        self.0.freed.notify_all();
    }
}

/// The cores this process may run on, and how many of its runs each
/// holds now.
static CORES: Mutex<Vec<(usize, usize)>> = Mutex::new(Vec::new());

/// A core held by one run, given back on drop.
struct Core(Option<usize>);

impl Core {
    /// The core the fewest runs hold (the lowest of those).
    fn take() -> Core {
        let mut cores = CORES.lock().unwrap_or_else(PoisonError::into_inner);
        if cores.is_empty() {
            *cores = allowed_cores().into_iter().map(|c| (c, 0)).collect();
        }
        let least = cores.iter_mut().min_by_key(|(core, held)| (*held, *core));
        Core(least.map(|(core, held)| {
            *held += 1;
            *core
        }))
    }
}

impl Drop for Core {
    fn drop(&mut self) {
        let mut cores = CORES.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(entry) = cores.iter_mut().find(|(c, _)| Some(*c) == self.0) {
            entry.1 -= 1;
        }
    }
}

/// The cores this process may run on (its affinity), in order; empty
/// when the kernel does not say.
fn allowed_cores() -> Vec<usize> {
    // SAFETY: a zeroed cpu_set_t is a valid empty set; plain system call.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect()
    }
}

impl Runner for Throttled {
    fn run(&self, spec: &RunSpec) -> Result<Outcome, Error> {
        let _slots = self.acquire(1);
        let core = Core::take();
        let mut spec = spec.clone();
        spec.cpu = core.0;
        self.inner.run(&spec)
    }

    fn run_together(&self, mut specs: Vec<RunSpec>) -> Vec<Result<Outcome, Error>> {
        let _slots = self.acquire(specs.len());
        let cores: Vec<Core> = specs
            .iter_mut()
            .map(|spec| {
                let core = Core::take();
                spec.cpu = core.0;
                core
            })
            .collect();
        let outcomes = self.inner.run_together(specs);
        drop(cores);
        outcomes
    }

    fn describe(&self) -> String {
        // The sandbox imports no vocabulary from above it: the plural by hand.
        let runs = if self.slots == 1 { "run" } else { "runs" };
        format!("{} ({} {runs} at once)", self.inner.describe(), self.slots)
    }

    fn wind_down(&self) {
        self.inner.wind_down();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::{Measurement, Termination};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    /// Counts how many runs overlap.
    #[derive(Default)]
    struct Counting {
        now: AtomicUsize,
        most: AtomicUsize,
    }

    impl Runner for Counting {
        fn run(&self, _spec: &RunSpec) -> Result<Outcome, Error> {
            let n = self.now.fetch_add(1, Ordering::SeqCst) + 1;
            self.most.fetch_max(n, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(5));
            self.now.fetch_sub(1, Ordering::SeqCst);
            Ok(Outcome {
                termination: Termination::Exited(0),
                cpu_ms: 0,
                wall_ms: 5,
                memory_kib: 0,
                measured_by: Measurement::Rusage,
            })
        }

        fn describe(&self) -> String {
            "counting".into()
        }
    }

    #[test]
    fn never_more_runs_at_once_than_slots() {
        let counting = Arc::new(Counting::default());
        let throttled = Throttled::new(counting.clone(), 2);
        let spec = RunSpec::new(
            "/bin/true",
            "/",
            crate::sandbox::Limits::new(Duration::from_secs(1), 1 << 20),
        );
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    for _ in 0..4 {
                        throttled.run(&spec).unwrap();
                    }
                });
            }
        });
        assert_eq!(counting.most.load(Ordering::SeqCst), 2);
        assert_eq!(counting.now.load(Ordering::SeqCst), 0);
    }
}

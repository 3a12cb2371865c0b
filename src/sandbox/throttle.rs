//! One budget of concurrent runs for the whole judge. Every run of a
//! compiler, a package program or a submission takes a slot, so judge
//! workers that each generate data with several threads never run more
//! programs at once than the machine has slots for: oversubscribing the
//! CPU would stretch wall-clock times and turn them into false TLEs.

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

impl Runner for Throttled {
    fn run(&self, spec: &RunSpec) -> Result<Outcome, Error> {
        let _slots = self.acquire(1);
        self.inner.run(spec)
    }

    fn run_together(&self, specs: Vec<RunSpec>) -> Vec<Result<Outcome, Error>> {
        let _slots = self.acquire(specs.len());
        self.inner.run_together(specs)
    }

    fn describe(&self) -> String {
        format!("{} ({} runs at once)", self.inner.describe(), self.slots)
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

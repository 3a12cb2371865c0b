//! The test and group results of finished submissions, kept in memory.
//!
//! A status read is most of a hosted judge's traffic (every contestant's
//! client polls its submissions), and a finished submission's tests are
//! read again and again unchanged. They can only change through a new
//! claim, which bumps the submission's `attempt`; so results read while a
//! submission is `done` at attempt N stay right for as long as the row
//! says `done` at attempt N, whichever process (a `grundy worker`
//! elsewhere, a rejudge from the CLI) writes to the database. The row
//! itself, one line, is still read every time.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use crate::judge::{GroupReport, TestReport};

/// How many finished submissions' results are kept: about 6 KiB each for
/// a 60-test problem, so some 12 MiB at most.
const CAPACITY: usize = 2048;

/// One finished submission's results.
#[derive(Debug)]
pub(super) struct Results {
    pub tests: Vec<TestReport>,
    pub groups: Vec<GroupReport>,
}

/// Results by submission id, with the attempt they belong to; the oldest
/// insertion is dropped first.
#[derive(Debug, Default)]
pub(super) struct Finished {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    by_id: HashMap<i64, (i64, Arc<Results>)>,
    order: VecDeque<i64>,
}

impl Finished {
    /// The results of submission `id` at `attempt`, if kept.
    pub fn get(&self, id: i64, attempt: i64) -> Option<Arc<Results>> {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        match inner.by_id.get(&id) {
            Some((kept, results)) if *kept == attempt => Some(Arc::clone(results)),
            _ => None,
        }
    }

    /// Keeps the results of submission `id` at `attempt`, replacing those
    /// of an older attempt.
    pub fn put(&self, id: i64, attempt: i64, results: Arc<Results>) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if inner.by_id.insert(id, (attempt, results)).is_none() {
            inner.order.push_back(id);
            while inner.order.len() > CAPACITY {
                if let Some(old) = inner.order.pop_front() {
                    inner.by_id.remove(&old);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results() -> Arc<Results> {
        Arc::new(Results {
            tests: Vec::new(),
            groups: Vec::new(),
        })
    }

    #[test]
    fn results_are_kept_for_their_attempt_only() {
        let f = Finished::default();
        f.put(7, 2, results());
        assert!(f.get(7, 2).is_some());
        assert!(
            f.get(7, 3).is_none(),
            "a newer attempt's results are not these"
        );
        f.put(7, 3, results());
        assert!(f.get(7, 2).is_none());
        assert!(f.get(7, 3).is_some());
    }

    #[test]
    fn the_oldest_are_dropped_past_capacity() {
        let f = Finished::default();
        for id in 0..(CAPACITY as i64 + 10) {
            f.put(id, 1, results());
        }
        assert!(f.get(0, 1).is_none());
        assert!(f.get(9, 1).is_none());
        assert!(f.get(10, 1).is_some());
        assert!(f.get(CAPACITY as i64 + 9, 1).is_some());
        assert_eq!(f.inner.lock().unwrap().by_id.len(), CAPACITY);
    }
}

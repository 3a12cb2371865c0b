//! Why a submission waits, in words the user and the admin both read: no
//! live worker, none that judges its language, every one that does refused
//! its problem's package, or only that every worker is busy. And, for the
//! admins' queue page, the languages no live worker judges. Pure functions
//! over the workers' reports ([`Judges`]), read once per request.

use std::time::Duration;

use crate::store::{self, Refusal, Store, WorkerRow};
use crate::worker::LIVE;

/// What the judge's worker processes reported: the live ones, and the
/// refusals of current packages.
#[derive(Debug, Clone, Default)]
pub struct Judges {
    pub live: Vec<WorkerRow>,
    pub refusals: Vec<Refusal>,
}

impl Judges {
    /// The reports now.
    ///
    /// # Errors
    /// Database failures.
    pub async fn read(store: &Store) -> Result<Judges, store::Error> {
        let live = store
            .worker_processes()
            .await?
            .into_iter()
            .filter(|w| alive(w, LIVE))
            .collect();
        Ok(Judges {
            live,
            refusals: store.refusals().await?,
        })
    }

    /// Why a queued submission of `problem` in `language` is not being
    /// judged yet.
    pub fn reason(&self, problem: &str, language: &str) -> String {
        if self.live.is_empty() {
            return "no live worker: no judge worker has reported in lately".into();
        }
        let judging: Vec<&WorkerRow> = self.live.iter().filter(|w| judges(w, language)).collect();
        if judging.is_empty() {
            return format!("no live worker judges {language}");
        }
        let refused: Vec<&Refusal> = judging
            .iter()
            .filter_map(|w| {
                self.refusals
                    .iter()
                    .find(|r| r.worker == w.name && r.problem == problem)
            })
            .collect();
        if refused.len() == judging.len() {
            return refused
                .iter()
                .map(|r| {
                    format!(
                        "worker {} refused package {problem} ({})",
                        r.worker, r.reason
                    )
                })
                .collect::<Vec<_>>()
                .join("; ");
        }
        "waiting for a free worker".into()
    }

    /// The languages of `configured` that no live worker judges.
    pub fn unjudged<'a>(&self, configured: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        configured
            .into_iter()
            .filter(|l| !self.live.iter().any(|w| judges(w, l)))
            .map(str::to_string)
            .collect()
    }
}

/// A process heard from within `live`.
pub fn alive(w: &WorkerRow, live: Duration) -> bool {
    w.silent_ms <= i64::try_from(live.as_millis()).unwrap_or(i64::MAX)
}

/// Whether `w` judges `language`: it announced it (`id version` a line),
/// or has not announced its languages yet (its workers then claim any).
fn judges(w: &WorkerRow, language: &str) -> bool {
    w.languages.trim().is_empty()
        || w.languages
            .lines()
            .any(|l| l.split_whitespace().next() == Some(language))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn worker(name: &str, languages: &str) -> WorkerRow {
        WorkerRow {
            name: name.into(),
            workers: 1,
            tiers: String::new(),
            current: String::new(),
            started_at: String::new(),
            silent_ms: 0,
            cores: 1,
            languages: languages.into(),
        }
    }

    fn refusal(worker: &str, problem: &str, reason: &str) -> Refusal {
        Refusal {
            worker: worker.into(),
            problem: problem.into(),
            hash: String::new(),
            reason: reason.into(),
            at: String::new(),
        }
    }

    #[test]
    fn with_no_live_worker_the_reason_says_so() {
        let j = Judges::default();
        assert!(j.reason("nim", "c").starts_with("no live worker"));
    }

    #[test]
    fn a_language_no_live_worker_judges_is_named() {
        let j = Judges {
            live: vec![worker("a:1", "c gcc 12\ncpp g++ 12")],
            refusals: vec![],
        };
        assert_eq!(j.reason("nim", "python"), "no live worker judges python");
        assert_eq!(j.reason("nim", "c"), "waiting for a free worker");
        assert_eq!(
            j.unjudged(["c", "cpp", "python", "rust"]),
            ["python", "rust"]
        );
    }

    #[test]
    fn a_worker_that_has_not_announced_judges_anything() {
        let j = Judges {
            live: vec![worker("a:1", "")],
            refusals: vec![],
        };
        assert_eq!(j.reason("nim", "java"), "waiting for a free worker");
        assert!(j.unjudged(["java"]).is_empty());
    }

    #[test]
    fn a_package_every_able_worker_refused_names_them_and_why() {
        let j = Judges {
            live: vec![worker("a:1", "c 1"), worker("b:2", "python 3")],
            refusals: vec![refusal("a:1", "nim", "hash mismatch")],
        };
        assert_eq!(
            j.reason("nim", "c"),
            "worker a:1 refused package nim (hash mismatch)"
        );
        // Another problem, or a worker that did not refuse: only busy.
        assert_eq!(j.reason("dag", "c"), "waiting for a free worker");
        let j = Judges {
            live: vec![worker("a:1", "c 1"), worker("c:3", "c 1")],
            ..j
        };
        assert_eq!(j.reason("nim", "c"), "waiting for a free worker");
    }

    #[test]
    fn a_silent_process_is_not_alive() {
        let mut w = worker("a:1", "c 1");
        w.silent_ms = 16_000;
        assert!(!alive(&w, Duration::from_secs(15)));
        w.silent_ms = 1_000;
        assert!(alive(&w, Duration::from_secs(15)));
    }
}

//! Why a submission waits: its problem is still being prepared (a starting
//! server builds and publishes its tests), no live worker, none that
//! judges its language, every one that does refused its problem's
//! package, or only that every worker is busy. And, for the admins' queue page, the languages no live
//! worker judges. Pure functions over the workers' reports ([`Judges`]),
//! read once per request; the status reads of queued submissions, most
//! of a busy judge's traffic, take them as read at most [`FRESH`] ago
//! ([`Recent`]), as a worker's liveness is itself judged by a heartbeat.
//!
//! The reason is told by audience, through the one policy
//! ([`policy::shows`] of [`Part::Workers`]): admins read which worker
//! (host and process id) refused which package and why, and a refusal's
//! reason can name a secret test and the hash of its answer (for a yes/no
//! problem the hash is the answer). Everyone else, the author included,
//! reads only what kind of thing it waits for.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::policy::{self, Part, Role};
use crate::store::{self, Refusal, Store, WorkerRow};
use crate::worker::LIVE;

/// What the judge's worker processes reported: the live ones, and the
/// refusals of current packages; and the problems a server is preparing.
#[derive(Debug, Clone, Default)]
pub struct Judges {
    pub live: Vec<WorkerRow>,
    pub refusals: Vec<Refusal>,
    pub preparing: Vec<String>,
}

/// How old the reports a status read tells its reason from may be.
pub const FRESH: Duration = Duration::from_secs(1);

/// The reports as read at most [`FRESH`] ago, shared by the requests of a
/// server: a reason is a hint of what a try waits for, not a result, and
/// three reads of the database per status read of a queued try cost more
/// than the read itself.
#[derive(Debug, Default)]
pub struct Recent {
    kept: Mutex<Option<(Instant, Arc<Judges>)>>,
}

impl Recent {
    /// The reports, read again when those kept are older than [`FRESH`].
    ///
    /// # Errors
    /// Database failures.
    pub async fn read(&self, store: &Store) -> Result<Arc<Judges>, store::Error> {
        if let Some((at, judges)) = &*self.kept.lock().unwrap_or_else(|e| e.into_inner()) {
            if at.elapsed() < FRESH {
                return Ok(Arc::clone(judges));
            }
        }
        let at = Instant::now();
        let judges = Arc::new(Judges::read(store).await?);
        *self.kept.lock().unwrap_or_else(|e| e.into_inner()) = Some((at, Arc::clone(&judges)));
        Ok(judges)
    }
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
            preparing: store.preparing().await?,
        })
    }

    /// Why a queued submission of `problem` in `language` is not being
    /// judged yet, in the words `role` may read (module docs).
    pub fn reason(&self, problem: &str, language: &str, role: Role) -> String {
        let why = self.why(problem, language);
        if policy::shows(role, Part::Workers) {
            return why.for_admins(problem);
        }
        match why {
            Wait::Preparing => "its problem is being prepared".into(),
            Wait::NoWorker => "no judge is running yet".into(),
            Wait::NoJudge(language) => format!("no judge for {language} yet"),
            Wait::Refused(_) => "no judge can take this problem yet".into(),
            Wait::Busy => "waiting for a free judge".into(),
        }
    }

    fn why<'a>(&'a self, problem: &str, language: &'a str) -> Wait<'a> {
        // No worker claims it meanwhile, whatever the workers.
        if self.preparing.iter().any(|p| p == problem) {
            return Wait::Preparing;
        }
        if self.live.is_empty() {
            return Wait::NoWorker;
        }
        let judging: Vec<&WorkerRow> = self.live.iter().filter(|w| judges(w, language)).collect();
        if judging.is_empty() {
            return Wait::NoJudge(language);
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
            return Wait::Refused(refused);
        }
        Wait::Busy
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

/// What a queued submission waits for.
enum Wait<'a> {
    /// A server is still building and publishing the problem's tests.
    Preparing,
    /// No worker process reported in lately.
    NoWorker,
    /// None of the live ones judges this language.
    NoJudge(&'a str),
    /// Every live one that judges the language refused the package.
    Refused(Vec<&'a Refusal>),
    /// Only for one to be free.
    Busy,
}

impl Wait<'_> {
    /// The whole reason, workers and refusals named: for admins only.
    fn for_admins(&self, problem: &str) -> String {
        match self {
            Wait::Preparing => format!(
                "problem {problem} is being prepared: a starting server is building and \
                 publishing its tests"
            ),
            Wait::NoWorker => "no live worker: no judge worker has reported in lately".into(),
            Wait::NoJudge(language) => format!("no live worker judges {language}"),
            Wait::Refused(refused) => refused
                .iter()
                .map(|r| {
                    format!(
                        "worker {} refused package {problem} ({})",
                        r.worker, r.reason
                    )
                })
                .collect::<Vec<_>>()
                .join("; "),
            Wait::Busy => "waiting for a free worker".into(),
        }
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

    const ADMIN: Role = Role::Admin;

    #[test]
    fn with_no_live_worker_the_reason_says_so() {
        let j = Judges::default();
        assert!(j.reason("nim", "c", ADMIN).starts_with("no live worker"));
        assert_eq!(j.reason("nim", "c", Role::Owner), "no judge is running yet");
    }

    #[test]
    fn a_language_no_live_worker_judges_is_named() {
        let j = Judges {
            live: vec![worker("a:1", "c gcc 12\ncpp g++ 12")],
            ..Judges::default()
        };
        assert_eq!(
            j.reason("nim", "python", ADMIN),
            "no live worker judges python"
        );
        assert_eq!(j.reason("nim", "c", ADMIN), "waiting for a free worker");
        assert_eq!(
            j.reason("nim", "python", Role::Owner),
            "no judge for python yet"
        );
        assert_eq!(
            j.reason("nim", "c", Role::Contestant),
            "waiting for a free judge"
        );
        assert_eq!(
            j.unjudged(["c", "cpp", "python", "rust"]),
            ["python", "rust"]
        );
    }

    #[test]
    fn a_worker_that_has_not_announced_judges_anything() {
        let j = Judges {
            live: vec![worker("a:1", "")],
            ..Judges::default()
        };
        assert_eq!(j.reason("nim", "java", ADMIN), "waiting for a free worker");
        assert!(j.unjudged(["java"]).is_empty());
    }

    #[test]
    fn a_package_every_able_worker_refused_names_them_and_why_to_admins_only() {
        let why = "test secret-07 answer sha256 5891b5b5 is not 9f86d081";
        let j = Judges {
            live: vec![worker("host-a:4711", "c 1"), worker("b:2", "python 3")],
            refusals: vec![refusal("host-a:4711", "nim", why)],
            ..Judges::default()
        };
        assert_eq!(
            j.reason("nim", "c", ADMIN),
            format!("worker host-a:4711 refused package nim ({why})")
        );
        // The author and anyone else: what kind of thing, nothing of it.
        for role in [Role::Owner, Role::Contestant] {
            let told = j.reason("nim", "c", role);
            assert_eq!(told, "no judge can take this problem yet");
            for secret in ["host-a", "4711", "secret-07", "5891b5b5", "9f86d081"] {
                assert!(!told.contains(secret), "{role:?}: {told}");
            }
        }
        // Another problem, or a worker that did not refuse: only busy.
        assert_eq!(j.reason("dag", "c", ADMIN), "waiting for a free worker");
        let j = Judges {
            live: vec![worker("host-a:4711", "c 1"), worker("c:3", "c 1")],
            ..j
        };
        assert_eq!(j.reason("nim", "c", ADMIN), "waiting for a free worker");
    }

    #[test]
    fn a_problem_being_prepared_says_so_whatever_the_workers() {
        let j = Judges {
            live: vec![worker("a:1", "c 1")],
            refusals: vec![refusal("a:1", "nim", "old package")],
            preparing: vec!["nim".into()],
        };
        assert_eq!(
            j.reason("nim", "c", ADMIN),
            "problem nim is being prepared: a starting server is building and publishing its tests"
        );
        assert_eq!(
            j.reason("nim", "python", Role::Contestant),
            "its problem is being prepared"
        );
        // Other problems wait as before.
        assert_eq!(j.reason("dag", "c", ADMIN), "waiting for a free worker");
        let j = Judges { live: vec![], ..j };
        assert_eq!(
            j.reason("nim", "c", Role::Owner),
            "its problem is being prepared"
        );
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

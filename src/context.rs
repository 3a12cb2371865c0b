//! The judge's long-lived parts, built once from the configuration and
//! shared by every command and worker: the languages, the program cache,
//! the problem catalog and, on first use only, the sandbox (a command that
//! will run programs may have it selected ahead, on a thread of its own,
//! while it prepares the rest). Everything a judge or a test-data builder
//! needs is behind an `Arc`, so either can be moved into a `'static` task.

use std::sync::{Arc, OnceLock};

use crate::config::Config;
use crate::data::TestData;
use crate::judge::Judge;
use crate::lang::{Languages, ProgramCache};
use crate::problem::Catalog;
use crate::sandbox::{self, Outcome, RunSpec, Runner, Throttled, Tiers};

/// Everything a command needs; cheap to share behind an `Arc`.
pub struct Context {
    pub config: Arc<Config>,
    pub languages: Arc<Languages>,
    pub cache: Arc<ProgramCache>,
    pub catalog: Catalog,
    sandbox: Arc<OnceLock<Sandbox>>,
    /// The sandbox's runner, which selects the sandbox on its first run.
    runner: Arc<dyn Runner>,
}

/// The sandbox in force: a runner behind the judge's one budget of
/// concurrent runs, and the tiers it was chosen from.
struct Sandbox {
    runner: Arc<dyn Runner>,
    tiers: Tiers,
}

impl Context {
    /// Builds the context for a loaded configuration. Nothing is probed or
    /// started here: the sandbox is selected on first use, so commands
    /// that run nothing (`problems`, `show`, `status`) create no box.
    pub fn new(config: Config) -> Context {
        let languages = Arc::new(Languages::remembering(
            &config.languages,
            config.data_dir.join("toolchains"),
        ));
        let cache = Arc::new(ProgramCache::new(config.data_dir.join("programs")));
        let catalog = Catalog::new(config.problems_dir.clone());
        let config = Arc::new(config);
        let sandbox = Arc::new(OnceLock::new());
        let runner = Arc::new(Deferred {
            sandbox: Arc::clone(&sandbox),
            config: Arc::clone(&config),
        });
        Context {
            config,
            languages,
            cache,
            catalog,
            sandbox,
            runner,
        }
    }

    fn sandbox(&self) -> &Sandbox {
        selected(&self.sandbox, &self.config)
    }

    /// Starts selecting the sandbox (its probe run included) on a thread
    /// of its own, for a command that is about to run programs: it
    /// prepares the rest meanwhile (its plan, the database), and its first
    /// run waits for the selection to end. Selecting the sandbox mostly
    /// waits for the kernel (the probe box's cgroup and namespaces).
    pub fn select_sandbox_ahead(&self) {
        let (cell, config) = (Arc::clone(&self.sandbox), Arc::clone(&self.config));
        // Where no thread can be started, the first run selects it.
        let _ = std::thread::Builder::new()
            .name("sandbox-select".into())
            .spawn(move || {
                selected(&cell, &config);
            });
    }

    /// The runner every untrusted program goes through (the sandbox is
    /// selected, with a probe run, on the first run, if it was not
    /// before).
    pub fn runner(&self) -> &Arc<dyn Runner> {
        &self.runner
    }

    /// How many runs the sandbox runs at once (each on a core of its own
    /// where there are as many cores).
    pub fn slots(&self) -> usize {
        slots(&self.config)
    }

    /// The isolation and measurement tiers in force, and what is missing.
    pub fn tiers(&self) -> &Tiers {
        &self.sandbox().tiers
    }

    /// The sandbox facts of this machine in the words of `grundy doctor`
    /// (which prints them, and each worker process reports them): the
    /// tiers, the runner, a refusal and what is missing for better ones.
    pub fn tiers_text(&self) -> String {
        use std::fmt::Write as _;
        let tiers = self.tiers();
        let mut out = String::new();
        let _ = writeln!(out, "isolation:   {}", tiers.isolation);
        let _ = writeln!(out, "measurement: {}", tiers.measurement);
        let _ = writeln!(out, "sandbox:     {}", self.runner().describe());
        if let Some(why) = &tiers.refused {
            let _ = writeln!(out, "REFUSING:    {why}");
        }
        for line in &tiers.missing {
            let _ = writeln!(out, "missing:     {line}");
        }
        for line in &tiers.unbounded {
            let _ = writeln!(out, "unbounded:   {line}");
        }
        out.trim_end().to_string()
    }

    /// The test data manager; it generates with as many threads as the
    /// judge has run slots.
    pub fn test_data(&self) -> TestData {
        TestData {
            root: self.config.data_dir.join("tests"),
            runner: self.runner().clone(),
            languages: self.languages.clone(),
            cache: self.cache.clone(),
            compile: self.config.compile.clone(),
            jobs: self.slots(),
        }
    }

    /// A judge, stopping at a submission's first failure.
    pub fn judge(&self) -> Judge {
        Judge {
            runner: self.runner().clone(),
            languages: self.languages.clone(),
            cache: self.cache.clone(),
            limits: self.config.limits.clone(),
            compile: self.config.compile.clone(),
            run_all: false,
            scaling: Default::default(),
        }
    }
}

/// The sandbox in `cell`, selected now if it was not before (by another
/// thread, it is waited for).
fn selected<'a>(cell: &'a OnceLock<Sandbox>, config: &Config) -> &'a Sandbox {
    cell.get_or_init(|| {
        let (runner, tiers) = sandbox::select(&config.sandbox);
        tracing::debug!(isolation = %tiers.isolation, measurement = %tiers.measurement, "sandbox selected");
        Sandbox {
            runner: Arc::new(Throttled::new(runner, slots(config))),
            tiers,
        }
    })
}

/// The run budget: the configured number of slots, or one a core.
fn slots(config: &Config) -> usize {
    match config.sandbox.slots {
        0 => cores(),
        n => n,
    }
}

/// The context's runner: the sandbox's, selected on the first run.
struct Deferred {
    sandbox: Arc<OnceLock<Sandbox>>,
    config: Arc<Config>,
}

impl Deferred {
    fn runner(&self) -> &Arc<dyn Runner> {
        &selected(&self.sandbox, &self.config).runner
    }
}

impl Runner for Deferred {
    fn run(&self, spec: &RunSpec) -> Result<Outcome, sandbox::Error> {
        self.runner().run(spec)
    }

    fn run_together(&self, specs: Vec<RunSpec>) -> Vec<Result<Outcome, sandbox::Error>> {
        self.runner().run_together(specs)
    }

    fn describe(&self) -> String {
        self.runner().describe()
    }

    fn wind_down(&self) {
        // A sandbox never selected has nothing to let go.
        if let Some(sandbox) = self.sandbox.get() {
            sandbox.runner.wind_down();
        }
    }
}

/// The number of cores, the default size of the run budget.
fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::config::Isolation;
    use crate::sandbox::{Limits, Termination};

    fn context(dir: &std::path::Path) -> Context {
        let mut config = Config::parse("", dir).expect("the built-in configuration");
        config.sandbox.isolation = Isolation::None;
        Context::new(config)
    }

    /// Handing out the runner selects nothing; its first run selects the
    /// sandbox and runs in it.
    #[test]
    fn the_first_run_selects_the_sandbox() {
        let dir = tempfile::tempdir().expect("tempdir");
        let ctx = context(dir.path());
        let runner = Arc::clone(ctx.runner());
        assert!(
            ctx.sandbox.get().is_none(),
            "handing out the runner selected the sandbox"
        );
        let limits = Limits::new(Duration::from_secs(2), 64 << 20);
        let outcome = runner
            .run(&RunSpec::new("/bin/true", dir.path(), limits))
            .expect("a run");
        assert_eq!(outcome.termination, Termination::Exited(0));
        assert!(
            ctx.sandbox.get().is_some(),
            "a run left the sandbox unselected"
        );
    }

    /// A selection started ahead ends on its own thread, with no run.
    #[test]
    fn a_selection_started_ahead_ends_without_a_run() {
        let dir = tempfile::tempdir().expect("tempdir");
        let ctx = context(dir.path());
        ctx.select_sandbox_ahead();
        let mut waited = 0;
        while ctx.sandbox.get().is_none() && waited < 1000 {
            std::thread::sleep(Duration::from_millis(10));
            waited += 1;
        }
        assert!(
            ctx.sandbox.get().is_some(),
            "no sandbox selected after 10 s"
        );
    }
}

//! The judge's long-lived parts, built once from the configuration and
//! shared by every command and worker: the languages, the program cache,
//! the problem catalog and, on first use only, the sandbox. Everything a
//! judge or a test-data builder needs is behind an `Arc`, so either can be
//! moved into a `'static` task.

use std::sync::{Arc, OnceLock};

use crate::config::Config;
use crate::data::TestData;
use crate::judge::Judge;
use crate::lang::{Languages, ProgramCache};
use crate::problem::Catalog;
use crate::sandbox::{self, Runner, Throttled, Tiers};

/// Everything a command needs; cheap to share behind an `Arc`.
pub struct Context {
    pub config: Arc<Config>,
    pub languages: Arc<Languages>,
    pub cache: Arc<ProgramCache>,
    pub catalog: Catalog,
    sandbox: OnceLock<Sandbox>,
}

/// The sandbox in force: a runner behind the judge's one budget of
/// concurrent runs, and the tiers it was chosen from.
struct Sandbox {
    runner: Arc<dyn Runner>,
    slots: usize,
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
        Context {
            config: Arc::new(config),
            languages,
            cache,
            catalog,
            sandbox: OnceLock::new(),
        }
    }

    fn sandbox(&self) -> &Sandbox {
        self.sandbox.get_or_init(|| {
            let (runner, tiers) = sandbox::select(&self.config.sandbox);
            tracing::debug!(isolation = %tiers.isolation, measurement = %tiers.measurement, "sandbox selected");
            let slots = match self.config.sandbox.slots {
                0 => cores(),
                n => n,
            };
            Sandbox {
                runner: Arc::new(Throttled::new(runner, slots)),
                slots,
                tiers,
            }
        })
    }

    /// The runner every untrusted program goes through (the sandbox is
    /// selected, with a probe run, on the first call).
    pub fn runner(&self) -> &Arc<dyn Runner> {
        &self.sandbox().runner
    }

    /// How many runs the sandbox runs at once (each on a core of its own
    /// where there are as many cores).
    pub fn slots(&self) -> usize {
        self.sandbox().slots
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
            jobs: self.sandbox().slots,
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

/// The number of cores, the default size of the run budget.
fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

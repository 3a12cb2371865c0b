//! The judge's long-lived parts, built once from the configuration and
//! shared by every command: the sandbox, the languages, the program cache
//! and the problem catalog.

use std::sync::Arc;

use crate::config::Config;
use crate::data::TestData;
use crate::judge::Judge;
use crate::lang::{Languages, ProgramCache};
use crate::problem::Catalog;
use crate::sandbox::{self, Runner, Tiers};

/// Everything a command needs, owned; cheap to share behind an `Arc`.
pub struct Context {
    pub config: Config,
    pub runner: Arc<dyn Runner>,
    /// The isolation and measurement tiers in force, and what is missing.
    pub tiers: Tiers,
    pub languages: Languages,
    pub cache: ProgramCache,
    pub catalog: Catalog,
}

impl Context {
    /// Builds the context for a loaded configuration, with the best
    /// sandbox the machine allows (probed by a real run). When the
    /// configuration demands isolation the machine lacks, the runner
    /// refuses every run and `tiers.refused` says why.
    pub fn new(config: Config) -> Context {
        let languages = Languages::new(&config.languages);
        let cache = ProgramCache::new(config.data_dir.join("programs"));
        let catalog = Catalog::new(config.problems_dir.clone());
        let (runner, tiers) = sandbox::select(&config.sandbox);
        tracing::debug!(isolation = %tiers.isolation, measurement = %tiers.measurement, "sandbox selected");
        Context {
            runner,
            tiers,
            languages,
            cache,
            catalog,
            config,
        }
    }

    /// The test data manager, generating with `jobs` threads.
    pub fn test_data(&self, jobs: usize) -> TestData<'_> {
        TestData {
            root: self.config.data_dir.join("tests"),
            runner: self.runner.as_ref(),
            languages: &self.languages,
            cache: &self.cache,
            compile: &self.config.compile,
            jobs,
        }
    }

    /// A judge over `data`.
    pub fn judge<'a>(&'a self, data: &'a TestData<'a>) -> Judge<'a> {
        Judge {
            runner: self.runner.as_ref(),
            languages: &self.languages,
            cache: &self.cache,
            data,
            limits: &self.config.limits,
            compile: &self.config.compile,
            run_all: false,
        }
    }
}

/// Worker threads for CPU-bound batch work: one per core.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

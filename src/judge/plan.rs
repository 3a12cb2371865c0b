//! A checked plan of one submission: the problem, the language, the source
//! and the ready tests. It is built before anything is stored — by the
//! command line and, later, by the HTTP handler alike — so everything that
//! can be wrong with a request (an unknown problem or language, an empty or
//! oversized source, a missing toolchain, test data that cannot be
//! produced) is found while nothing needs undoing. A [`Plan`] cannot be
//! made any other way, so the judge never sees an unchecked request.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::data::{self, TestData, TestSet};
use crate::lang::{self, Language};
use crate::problem::{self, Catalog, Problem};

/// What is wrong with a request; nothing was stored.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error(transparent)]
    Problem(#[from] problem::Error),
    #[error(transparent)]
    Language(#[from] lang::Error),
    #[error("{name}: source is empty")]
    EmptySource { name: String },
    #[error("{name}: source is {kib} KiB, above the limit of {limit_kib} KiB")]
    SourceTooLarge {
        name: String,
        kib: u64,
        limit_kib: u64,
    },
    #[error("language {language}: toolchain missing: {missing}")]
    Toolchain { language: String, missing: String },
    #[error(transparent)]
    Data(#[from] data::Error),
    #[error("{name}: {why}")]
    Refused { name: String, why: String },
}

/// A submission as it arrives: a problem slug, an optional language id,
/// the file's name (its extension selects the language when no id is
/// given) and its bytes.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub problem: &'a str,
    pub language: Option<&'a str>,
    pub file_name: &'a str,
    pub source: Vec<u8>,
}

/// A submission that can be judged.
#[derive(Debug, Clone)]
pub struct Plan {
    problem: Arc<Problem>,
    language: Arc<Language>,
    source: Vec<u8>,
    /// The submission's own file name, where the problem names a Java
    /// class after it (a Kattis package).
    file_name: Option<String>,
    /// Files beside the main source (a directory submitted as one program).
    siblings: Vec<(PathBuf, Vec<u8>)>,
    /// Siblings compiled with the main source (a directory of several C or
    /// C++ sources).
    units: Vec<String>,
    tests: Arc<TestSet>,
}

/// A request that passed every check but the test data's: the problem,
/// the language and the source, ready to be stored.
pub struct Admitted {
    pub problem: Problem,
    pub language: Arc<Language>,
    pub source: Vec<u8>,
    file_name: Option<String>,
}

impl Admitted {
    /// The plan, with the problem's tests made ready (built if needed).
    ///
    /// # Errors
    /// Test data that cannot be produced.
    pub fn with_tests(self, data: &TestData) -> Result<Plan, PlanError> {
        let tests = data.ensure(&self.problem, &|_| {})?;
        Ok(Plan {
            file_name: self.file_name,
            problem: Arc::new(self.problem),
            language: self.language,
            source: self.source,
            siblings: Vec::new(),
            units: Vec::new(),
            tests: Arc::new(tests),
        })
    }
}

impl Plan {
    /// Checks a request against the catalog, the languages, the source
    /// limit (KiB) and the toolchain, then makes sure the problem's tests
    /// are ready (building them if needed). The problem is a catalog slug
    /// and nothing else: this is the entry of the hosted judge, where the
    /// request comes from someone else and must not name the server's disk.
    ///
    /// # Errors
    /// Everything wrong with the request, and test data that cannot be
    /// produced.
    pub fn build(
        request: Request<'_>,
        catalog: &Catalog,
        data: &TestData,
        source_limit_kib: u64,
    ) -> Result<Plan, PlanError> {
        Plan::admit(request, catalog, data, source_limit_kib)?.with_tests(data)
    }

    /// [`Plan::build`] for the command line, where the problem may also be
    /// a Kattis package directory as it is (one holding `problem.yaml`):
    /// the person at the keyboard owns the disk it names.
    ///
    /// # Errors
    /// As [`Plan::build`], and a package directory that does not load.
    pub fn build_local(
        request: Request<'_>,
        catalog: &Catalog,
        data: &TestData,
        source_limit_kib: u64,
    ) -> Result<Plan, PlanError> {
        let path = Path::new(request.problem);
        let problem = if path.is_dir() && path.join("problem.yaml").is_file() {
            problem::kattis::load(path)?
        } else {
            catalog.load(request.problem)?
        };
        Plan::admit_for(problem, request, data, source_limit_kib)?.with_tests(data)
    }

    /// Every check of [`Plan::build`] that needs no test data: what the
    /// hosted judge does before it stores a submission, leaving the data
    /// to be built off the request's path.
    ///
    /// # Errors
    /// Everything wrong with the request.
    pub fn admit(
        request: Request<'_>,
        catalog: &Catalog,
        data: &TestData,
        source_limit_kib: u64,
    ) -> Result<Admitted, PlanError> {
        let problem = catalog.load(request.problem)?;
        Plan::admit_for(problem, request, data, source_limit_kib)
    }

    fn admit_for(
        problem: Problem,
        request: Request<'_>,
        data: &TestData,
        source_limit_kib: u64,
    ) -> Result<Admitted, PlanError> {
        // A Kattis package takes Kattis's extensions (`.cxx`, `.C`, `.py3`).
        let known_as = match &problem.kattis {
            Some(_) => problem::kattis::judged_name(request.file_name),
            None => request.file_name.to_string(),
        };
        let language = match request.language {
            Some(id) => data.languages.get(id)?,
            None => data.languages.for_path(Path::new(&known_as))?,
        }
        .clone();
        let source_limit_kib = code_limit(&problem, source_limit_kib);
        check_source(request.file_name, &request.source, source_limit_kib)?;
        check_kattis(&problem, &language, request.file_name, &request.source)?;
        if let Err(missing) = language.version(data.runner.as_ref()) {
            return Err(PlanError::Toolchain {
                language: language.id.clone(),
                missing,
            });
        }
        Ok(Admitted {
            file_name: own_name(&problem, &known_as),
            problem,
            language,
            source: request.source,
        })
    }

    /// A plan over tests already at hand (`verify` judges many example
    /// submissions on one test set).
    ///
    /// # Errors
    /// An empty or oversized source.
    pub fn new(
        problem: Arc<Problem>,
        language: Arc<Language>,
        file_name: &str,
        source: Vec<u8>,
        tests: Arc<TestSet>,
        source_limit_kib: u64,
    ) -> Result<Plan, PlanError> {
        check_source(file_name, &source, code_limit(&problem, source_limit_kib))?;
        check_kattis(&problem, &language, file_name, &source)?;
        Ok(Plan {
            file_name: own_name(&problem, file_name),
            problem,
            language,
            source,
            siblings: Vec::new(),
            units: Vec::new(),
            tests,
        })
    }

    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    pub fn language(&self) -> &Language {
        &self.language
    }

    pub(super) fn shared_language(&self) -> Arc<Language> {
        Arc::clone(&self.language)
    }

    pub fn source(&self) -> &[u8] {
        &self.source
    }

    /// The same plan under another time limit (seconds): a Kattis
    /// package's limit derived from its accepted submissions.
    pub fn with_time_limit(self, seconds: f64) -> Plan {
        let mut problem = (*self.problem).clone();
        problem.manifest.time_limit = seconds;
        Plan {
            problem: Arc::new(problem),
            ..self
        }
    }

    /// The tests, shared.
    pub fn shared_tests(&self) -> Arc<TestSet> {
        self.tests.clone()
    }

    /// The same plan with files beside the main source: a directory
    /// submitted as one program (paths relative to the compile
    /// directory's parent, e.g. `box/util.h`).
    pub fn with_siblings(self, siblings: Vec<(PathBuf, Vec<u8>)>) -> Plan {
        Plan { siblings, ..self }
    }

    /// Files beside the main source.
    pub fn siblings(&self) -> &[(PathBuf, Vec<u8>)] {
        &self.siblings
    }

    /// The same plan with siblings compiled together with the main source
    /// (their names, in the compile directory).
    pub fn with_units(self, units: Vec<String>) -> Plan {
        Plan { units, ..self }
    }

    /// Siblings compiled together with the main source.
    pub fn units(&self) -> &[String] {
        &self.units
    }

    /// The submission's own file name, for languages that use it (see
    /// [`lang::Source::file_name`]).
    pub fn file_name(&self) -> Option<&str> {
        self.file_name.as_deref()
    }

    pub fn tests(&self) -> &TestSet {
        &self.tests
    }
}

/// The source limit (KiB) for a problem: a Kattis package's `limits.code`
/// (128 KiB by default) where it is below the judge's.
fn code_limit(problem: &Problem, source_limit_kib: u64) -> u64 {
    match &problem.kattis {
        Some(k) => source_limit_kib.min(k.limits.code_kib),
        None => source_limit_kib,
    }
}

/// The submission's own file name: Kattis names a Java program's main
/// class after its file (the language decides whether to use it).
fn own_name(_problem: &Problem, file_name: &str) -> Option<String> {
    Path::new(file_name)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
}

/// What Kattis refuses: a Python file whose `#!` line asks for Python 2
/// (grundy runs Python 3 only).
fn check_kattis(
    problem: &Problem,
    language: &Language,
    name: &str,
    source: &[u8],
) -> Result<(), PlanError> {
    if problem.kattis.is_none() || !language.config.extensions.iter().any(|e| e == "py") {
        return Ok(());
    }
    if let Some(why) = python2_shebang(source) {
        return Err(PlanError::Refused {
            name: name.to_string(),
            why,
        });
    }
    Ok(())
}

/// Why a Python source is Python 2 by its `#!` line, if it is.
pub fn python2_shebang(source: &[u8]) -> Option<String> {
    let first = source.split(|&b| b == b'\n').next()?;
    let line = String::from_utf8_lossy(first);
    let line = line.trim();
    let words = line.strip_prefix("#!")?;
    let python2 = words
        .split(|c: char| c.is_whitespace() || c == '/')
        .any(|w| w == "python2" || w.starts_with("python2."));
    python2.then(|| {
        format!(
            "its first line `{line}` asks for Python 2, which grundy does not run (Python 3 only)"
        )
    })
}

fn check_source(name: &str, source: &[u8], limit_kib: u64) -> Result<(), PlanError> {
    let len = source.len() as u64;
    if len > limit_kib * 1024 {
        return Err(PlanError::SourceTooLarge {
            name: name.to_string(),
            kib: len.div_ceil(1024),
            limit_kib,
        });
    }
    if source.iter().all(u8::is_ascii_whitespace) {
        return Err(PlanError::EmptySource {
            name: name.to_string(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_python_2_shebang_is_named_and_others_are_not() {
        let table: &[(&str, bool)] = &[
            ("#!/usr/bin/python2\nprint 1\n", true),
            ("#!/usr/bin/env python2.7\n", true),
            ("#!/usr/bin/env python3\n", false),
            ("#!/usr/bin/python\n", false),
            ("print(1)  # python2\n", false),
            ("", false),
        ];
        for (source, refused) in table {
            assert_eq!(
                python2_shebang(source.as_bytes()).is_some(),
                *refused,
                "{source:?}"
            );
        }
    }

    #[test]
    fn a_source_of_only_whitespace_is_empty() {
        let err = check_source("a.cpp", b" \n\t", 1).unwrap_err();
        assert!(matches!(err, PlanError::EmptySource { .. }), "{err}");
    }

    #[test]
    fn a_source_one_byte_over_the_limit_is_refused_with_its_size() {
        assert!(check_source("a.cpp", &vec![b'x'; 1024], 1).is_ok());
        let err = check_source("a.cpp", &vec![b'x'; 1025], 1).unwrap_err();
        assert_eq!(
            err.to_string(),
            "a.cpp: source is 2 KiB, above the limit of 1 KiB"
        );
    }
}

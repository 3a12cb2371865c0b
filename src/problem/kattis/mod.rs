//! Kattis problem packages (the ICPC problem package format of Kattis
//! problemtools, DOMjudge and BAPCtools), legacy and 2023-07 alike, read as
//! they are into grundy's own [`Problem`] model, so `submit`, `verify` and
//! `import` share one reading:
//!
//! * `problem.yaml`: name, type (`pass-fail`, `scoring`, `interactive`,
//!   `multi-pass`),
//!   memory and time limits (a fixed one, or the rule deriving it from the
//!   accepted submissions: [`TimeRule`]), legacy `validation` and
//!   `validator_flags`;
//! * `data/sample` and `data/secret`, nested groups and all, each test an
//!   `.in` with its `.ans` (the answer as it is: no reference solver), with
//!   the flags of every `testdata.yaml` on the way down;
//! * `input_validators/` (files or directories; `.ctd` and `.viva` need
//!   tools grundy lacks and are listed as skipped);
//! * `output_validators/` (legacy) or `output_validator/` (2023-07): a
//!   special judge of Kattis's protocol, or the interactor of an
//!   interactive problem; without one, Kattis's default validation with its
//!   flags ([`crate::checker::CheckerKind::Kattis`]);
//! * `submissions/<expected>/` (files, or directories of sources), and
//!   what `submissions/submissions.yaml` says of them;
//! * `problem_statement/` or `statement/`.
//!
//! Like the rest of the problem layer it reads and never runs anything.
//!
//! # Layout
//!
//! * `mod.rs`: [`load`], the tests and their groups (`data/`, `testdata.yaml`);
//! * `meta.rs`: `problem.yaml`, its limits with the format's defaults
//!   ([`Limits`]) and the time-limit rule ([`TimeRule`]);
//! * `scoring.rs`: the groups of a scoring package ([`Scoring`]);
//! * `programs.rs`: validators given as files or directories;
//! * `submissions.rs`: submissions as Kattis takes them (its extensions, a
//!   directory of several sources as one program) and their expected
//!   verdicts;
//! * `claims.rs`: `submissions.yaml` (languages, entry points, and the
//!   verdicts each submission's tests must get).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_yaml_ng::Value;

use super::{Error, ExampleSubmission, Group, Interactor, Manifest, Problem};
use super::{TestCase, TestInput};
use crate::checker::special::Protocol;
use crate::checker::{Checker, CheckerKind};

mod claims;
mod meta;
mod programs;
mod scoring;
mod submissions;

pub use claims::{matches_path, Claimed, Rule, Word};
use meta::{as_text, first_line, Meta};
pub use meta::{Limits, TimeRule};
pub use programs::{c_family, in_program_dir, is_scripted, main_program, main_source};
use programs::{extension, output_validator, rel, sorted_entries};
pub use scoring::{to_hundred, ScoreGroup, Scoring};
use submissions::example_submissions;
pub use submissions::{
    grundy_extension, judged_name, submission, submission_as, Build, Files, NotJudged,
    LANGUAGE_CODES,
};

/// What a Kattis package has beyond grundy's model.
#[derive(Debug, Clone)]
pub struct Package {
    /// `legacy` or `2023-07`.
    pub format: &'static str,
    pub time: TimeRule,
    /// The test groups of a `type: scoring` package, with their grading.
    pub scoring: Option<Scoring>,
    /// What grundy does not run, one sentence each (a `.ctd` validator).
    pub skipped: Vec<String>,
    /// Example submissions grundy judges, with their expected verdicts.
    pub submissions: Vec<ExampleSubmission>,
    /// Submissions in folders grundy has no verdict for, with the folder.
    pub unjudged: Vec<(PathBuf, String)>,
    /// The statement file, relative to the package.
    pub statement: Option<PathBuf>,
    /// The package's name for itself (the directory's name).
    pub short_name: String,
    /// The limits of `problem.yaml` beyond time and memory, Kattis's
    /// defaults where it gives none.
    pub limits: Limits,
    /// A multi-pass problem: the most passes one test may take (its
    /// `limits.validation_passes`). Each pass runs the submission anew on
    /// the input the output validator wrote (`nextpass.in`).
    pub multi_pass: Option<u32>,
}

/// Reads the Kattis package in `dir`.
///
/// # Errors
/// [`Error::Kattis`] naming the file and what is wrong: a malformed
/// `problem.yaml`, a missing `data/` directory, a test without its answer,
/// a validator grundy cannot build.
pub fn load(dir: &Path) -> Result<Problem, Error> {
    let yaml_path = dir.join("problem.yaml");
    let fail = |path: &Path, message: String| Error::Kattis {
        path: path.to_path_buf(),
        message,
    };
    let text = std::fs::read_to_string(&yaml_path).map_err(|source| Error::Read {
        path: yaml_path.clone(),
        source,
    })?;
    let yaml: Value = if text.trim().is_empty() {
        Value::Mapping(Default::default())
    } else {
        serde_yaml_ng::from_str(&text).map_err(|e| fail(&yaml_path, first_line(&e.to_string())))?
    };
    let meta = Meta::read(&yaml).map_err(|m| fail(&yaml_path, m))?;
    let short_name = dir
        .canonicalize()
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "problem".into());
    let mut skipped = Vec::new();

    // The output validator: a special judge, or the interactor.
    let validator = output_validator(dir, meta.format).map_err(|(p, m)| fail(&p, m))?;
    let custom = meta.custom_validation || meta.interactive || meta.custom_score || meta.multi_pass;
    let (checker, interactor) = match (custom, validator) {
        (true, None) => {
            let wants = if meta.format == "legacy" {
                "output_validators/"
            } else {
                "output_validator/"
            };
            return Err(fail(
                &yaml_path,
                format!(
                    "custom validation needs an output validator in {wants}, and there is none"
                ),
            ));
        }
        (true, Some(source)) if meta.interactive => (
            Checker::Builtin(CheckerKind::Tokens),
            Some(Interactor {
                source,
                protocol: Protocol::Kattis,
            }),
        ),
        (true, Some(source)) => (
            Checker::Program {
                source,
                protocol: Protocol::Kattis,
            },
            None,
        ),
        // A 2023-07 package with an output validator uses it.
        (false, Some(source)) if meta.format != "legacy" => (
            Checker::Program {
                source,
                protocol: Protocol::Kattis,
            },
            None,
        ),
        (false, _) => {
            let kind = CheckerKind::kattis(&meta.validator_flags)
                .map_err(|m| fail(&yaml_path, format!("validator_flags: {m}")))?;
            (Checker::Builtin(kind), None)
        }
    };

    // The tests.
    let data = dir.join("data");
    if !data.is_dir() {
        return Err(fail(
            &data,
            "missing (a Kattis package keeps its tests in data/sample and data/secret)".into(),
        ));
    }
    let root_settings = read_testdata(&data.join("testdata.yaml"))?;
    let mut walk = Walk {
        dir,
        tests: Vec::new(),
        names: Default::default(),
        groups: Vec::new(),
        base_flags: meta.validator_flags.clone(),
        scoring: false,
    };
    walk.scoring = meta.scoring;
    for (top, group) in [("sample", Group::sample()), ("secret", Group::secret())] {
        let path = data.join(top);
        if path.is_dir() {
            walk.group(&path, &group, &root_settings, &mut skipped)?;
        }
    }
    if walk.tests.is_empty() {
        return Err(fail(
            &data,
            "no tests: no .in files with their .ans under data/sample or data/secret".into(),
        ));
    }
    let scoring = meta.scoring.then(|| Scoring {
        groups: walk.groups.clone(),
    });
    let groups = match &scoring {
        Some(scoring) => {
            let (groups, note) = scoring.group_specs();
            skipped.extend(note);
            groups
        }
        None => Vec::new(),
    };

    // Input validators.
    let mut input_validators = Vec::new();
    let vdir = dir.join("input_validators");
    for entry in sorted_entries(&vdir) {
        let rel = entry.strip_prefix(dir).unwrap_or(&entry).to_path_buf();
        let ext = extension(&entry);
        let looks_ctd =
            entry.is_dir() && sorted_entries(&entry).iter().any(|f| extension(f) == "ctd");
        if ext == "ctd" || looks_ctd {
            skipped.push(format!(
                "input validator {}: checktestdata is not part of grundy; inputs are not checked by it",
                rel.display()
            ));
            continue;
        }
        if ext == "viva" {
            skipped.push(format!(
                "input validator {}: VIVA is not part of grundy; inputs are not checked by it",
                rel.display()
            ));
            continue;
        }
        input_validators.push(main_program(dir, &rel).map_err(|(p, m)| fail(&p, m))?);
    }

    // Example submissions.
    let (submissions, unjudged) = example_submissions(dir).map_err(|(p, m)| fail(&p, m))?;
    let statement = statement(dir);
    let time = meta.time_rule(dir);
    let manifest = Manifest {
        name: meta.name.clone().unwrap_or_else(|| short_name.clone()),
        source: meta.source.clone(),
        // Until the accepted submissions have run, a derived limit is
        // unknown: problemtools' upper bound for that case is 300 s;
        // grundy's manifests allow 60 s.
        time_limit: time.fixed.unwrap_or(60.0),
        memory_limit: meta.memory,
        checker,
        interactor,
        tests: walk.tests,
        groups,
        stress: Vec::new(),
        input_validators,
        // Colours are the contest's (problemset.yaml), not the package's.
        rgb: None,
        color: None,
    };
    Ok(Problem {
        slug: slug_of(&short_name),
        dir: dir.to_path_buf(),
        manifest,
        kattis: Some(Box::new(Package {
            format: meta.format,
            time,
            scoring,
            skipped,
            submissions,
            unjudged,
            statement,
            short_name,
            limits: meta.limits,
            multi_pass: meta.multi_pass.then_some(meta.limits.validation_passes),
        })),
    })
}

/// A grundy slug for a package's directory name: lower-case letters,
/// digits and `-`.
pub fn slug_of(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() {
        "problem".into()
    } else {
        out
    }
}

/// The grading settings of one `testdata.yaml`, as text.
type Settings = BTreeMap<String, String>;

fn read_testdata(path: &Path) -> Result<Settings, Error> {
    let mut out = Settings::new();
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(out);
    };
    if text.trim().is_empty() {
        return Ok(out);
    }
    let fail = |message: String| Error::Kattis {
        path: path.to_path_buf(),
        message,
    };
    let yaml: Value =
        serde_yaml_ng::from_str(&text).map_err(|e| fail(first_line(&e.to_string())))?;
    let Some(map) = yaml.as_mapping() else {
        return Err(fail("not a mapping of keys to values".into()));
    };
    for (k, v) in map {
        let key = as_text(k).ok_or_else(|| fail("a key is not a string".into()))?;
        let value = match v {
            // 2023-07 nests scoring settings: `scoring: {score: 20, aggregation: sum}`.
            Value::Mapping(m) => {
                for (k2, v2) in m {
                    if let (Some(k2), Some(v2)) = (as_text(k2), as_text(v2)) {
                        out.insert(format!("{key}.{k2}"), v2);
                    }
                }
                continue;
            }
            Value::Sequence(s) => s.iter().filter_map(as_text).collect::<Vec<_>>().join(" "),
            Value::Null => String::new(),
            v => as_text(v).unwrap_or_default(),
        };
        out.insert(key, value);
    }
    Ok(out)
}

/// Walks `data/` collecting tests and groups.
struct Walk<'a> {
    dir: &'a Path,
    tests: Vec<TestCase>,
    names: std::collections::BTreeSet<String>,
    groups: Vec<ScoreGroup>,
    base_flags: Vec<String>,
    /// A scoring package: each directory of secret tests is a group.
    scoring: bool,
}

impl Walk<'_> {
    fn group(
        &mut self,
        path: &Path,
        group: &Group,
        inherited: &Settings,
        skipped: &mut Vec<String>,
    ) -> Result<(), Error> {
        let mut settings = inherited.clone();
        settings.extend(read_testdata(&path.join("testdata.yaml"))?);
        let words = |key: &str| -> Vec<String> {
            settings
                .get(key)
                .map(|s| s.split_whitespace().map(str::to_string).collect())
                .unwrap_or_default()
        };
        let input_flags = words("input_validator_flags");
        let mut output_flags = self.base_flags.clone();
        output_flags.extend(words("output_validator_flags"));
        let rel_group = path
            .strip_prefix(self.dir.join("data"))
            .unwrap_or(path)
            .to_string_lossy()
            .into_owned();
        let first = self.tests.len();
        let entries = sorted_entries(path);
        // In a scoring package every directory of secret tests is a group
        // of its own, named after its path (`secret/group1` is `group1`).
        let group = if self.scoring && !group.is_sample() {
            let name = rel_group.strip_prefix("secret/").unwrap_or(&rel_group);
            Group::parse(&sanitize(name)).unwrap_or_else(|| group.clone())
        } else {
            group.clone()
        };
        for entry in &entries {
            if entry.is_dir() {
                continue;
            }
            let ext = extension(entry);
            if ext == "interaction" && !entry.with_extension("in").is_file() {
                skipped.push(format!(
                    "{}: an interaction shown in the statement, not a test",
                    rel(self.dir, entry).display()
                ));
                continue;
            }
            if ext != "in" {
                continue;
            }
            let answer = entry.with_extension("ans");
            if !answer.is_file() {
                return Err(Error::Kattis {
                    path: answer,
                    message: "missing (every .in needs its .ans)".into(),
                });
            }
            let stem = entry.with_extension("");
            let name = self.name_for(&rel(&self.dir.join("data"), &stem).to_string_lossy());
            self.tests.push(TestCase {
                name,
                group: group.clone(),
                input: TestInput::File(rel(self.dir, entry)),
                answer: Some(rel(self.dir, &answer)),
                input_flags: input_flags.clone(),
                output_flags: output_flags.clone(),
            });
        }
        let own: Vec<String> = self.tests[first..].iter().map(|t| t.name.clone()).collect();
        if !own.is_empty() {
            self.groups.push(ScoreGroup {
                path: rel_group,
                name: group.clone(),
                tests: own,
                score: settings
                    .get("accept_score")
                    .or_else(|| settings.get("scoring.score"))
                    .or_else(|| settings.get("score"))
                    .and_then(|s| s.parse().ok()),
                settings: settings
                    .iter()
                    .filter(|(k, _)| !k.ends_with("validator_flags"))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            });
        }
        for entry in &entries {
            if entry.is_dir() {
                self.group(entry, &group, &settings, skipped)?;
            }
        }
        Ok(())
    }

    /// A unique grundy test name (`[a-z0-9._-]`, at most 64) for a path
    /// under `data/` such as `secret/group1/001-small`.
    fn name_for(&mut self, path: &str) -> String {
        let base = sanitize(path);
        let mut name = base.clone();
        let mut k = 2;
        while !self.names.insert(name.clone()) {
            name = format!("{base}~{k}").replace('~', "-");
            k += 1;
        }
        name
    }
}

/// A path under `data/` as a grundy name: `[a-z0-9._-]`, `/` as `-`, at
/// most 56 characters (room for a suffix that makes it unique).
fn sanitize(path: &str) -> String {
    let mut out: String = path
        .chars()
        .map(|c| match c {
            '/' => '-',
            c if c.is_ascii_alphanumeric() || "._-".contains(c) => c.to_ascii_lowercase(),
            _ => '_',
        })
        .collect();
    out.truncate(56);
    out
}

/// The statement: English Markdown or LaTeX in `statement/` (2023-07) or
/// `problem_statement/` (legacy).
fn statement(dir: &Path) -> Option<PathBuf> {
    for folder in ["statement", "problem_statement"] {
        for file in [
            "problem.en.md",
            "problem.md",
            "problem.en.tex",
            "problem.tex",
        ] {
            let path = Path::new(folder).join(file);
            if dir.join(&path).is_file() {
                return Some(path);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_limit_rounds_up_to_the_resolution_and_is_at_least_one_step() {
        let rule = |mult: f64, res: f64| TimeRule {
            fixed: None,
            ac_to_time_limit: mult,
            time_limit_to_tle: 2.0,
            resolution: res,
        };
        let table = [
            (0.05, 5.0, 1.0, 1.0),
            (0.21, 5.0, 1.0, 2.0),
            (0.4, 5.0, 1.0, 2.0),
            (0.3, 2.0, 1.0, 1.0),
            (0.76, 2.0, 1.0, 2.0),
            (0.76, 2.0, 0.1, 1.6),
            (1.5, 2.0, 1.0, 3.0),
        ];
        for (slowest, mult, res, want) in table {
            let got = rule(mult, res).derive(slowest);
            assert!(
                (got - want).abs() < 1e-9,
                "{slowest} x {mult} at {res}: {got}"
            );
        }
    }

    #[test]
    fn slugs_from_directory_names() {
        assert_eq!(slug_of("hello"), "hello");
        assert_eq!(slug_of("Different_Sums 2"), "different-sums-2");
        assert_eq!(slug_of("__"), "problem");
    }
}

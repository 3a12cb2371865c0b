//! Kattis problem packages (the ICPC problem package format of Kattis
//! problemtools, DOMjudge and BAPCtools), legacy and 2023-07 alike, read as
//! they are into grundy's own [`Problem`] model, so `submit`, `verify` and
//! `import` share one reading:
//!
//! * `problem.yaml`: name, type (`pass-fail`, `scoring`, `interactive`),
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
//! * `submissions/<expected>/` (files, or directories of sources);
//! * `problem_statement/` or `statement/`.
//!
//! Like the rest of the problem layer it reads and never runs anything.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_yaml::Value;

use super::manifest::is_inside;
use super::{Error, ExampleSubmission, Expected, Group, GroupSpec, Interactor, Manifest, Problem};
use super::{TestCase, TestInput};
use crate::checker::special::Protocol;
use crate::checker::{Checker, CheckerKind};

mod submissions;
pub use submissions::{grundy_extension, judged_name, submission, Files, NotJudged};

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
}

/// Kattis's limits beyond time and memory (`limits.*` of `problem.yaml`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// `limits.output`: what a submission may write, MiB (default 8).
    pub output_mib: u64,
    /// `limits.code`: the size of a submission's source, KiB (default 128).
    pub code_kib: u64,
    /// `limits.validation_time`: seconds for a validator's run (default 60).
    pub validation_time: f64,
    /// `limits.validation_memory`: MiB for a validator's run (default 2048).
    pub validation_memory_mib: u64,
    /// `limits.validation_output`: what an output validator may write, MiB
    /// (default 8).
    pub validation_output_mib: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            output_mib: 8,
            code_kib: 128,
            validation_time: 60.0,
            validation_memory_mib: 2048,
            validation_output_mib: 8,
        }
    }
}

/// Kattis's time limit: fixed by the package, or derived from the slowest
/// accepted submission as problemtools does it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeRule {
    /// Seconds, when `problem.yaml` (or DOMjudge's `.timelimit`) fixes it.
    pub fixed: Option<f64>,
    /// The slowest accepted run times this is the limit (legacy
    /// `time_multiplier`, default 5; 2023-07 `ac_to_time_limit`, default 2).
    pub ac_to_time_limit: f64,
    /// The limit times this is the bound a time-limit-exceeded submission
    /// must exceed (legacy `time_safety_margin`, 2023-07 `time_limit_to_tle`).
    pub time_limit_to_tle: f64,
    /// The derived limit is a whole multiple of this (default 1 s).
    pub resolution: f64,
}

impl TimeRule {
    /// The limit problemtools sets for a slowest accepted run of
    /// `slowest` seconds: `slowest × ac_to_time_limit` rounded up to the
    /// resolution, at least one resolution step.
    pub fn derive(&self, slowest: f64) -> f64 {
        let exact = slowest * self.ac_to_time_limit;
        let steps = (exact / self.resolution).ceil().max(1.0);
        steps * self.resolution
    }
}

/// The test groups of a scoring package, as `testdata.yaml` describes them
/// (an intermediate reading, for mapping onto grundy's own groups).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scoring {
    pub groups: Vec<ScoreGroup>,
}

/// One group of a scoring package: its path under `data/`, its tests (by
/// grundy name, in order) and its grading settings.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreGroup {
    pub path: String,
    /// The grundy group its tests are in.
    pub name: Group,
    /// Its own tests (not its subgroups'), by grundy name.
    pub tests: Vec<String>,
    /// The score of the group when every test passes (`accept_score`, or a
    /// 2023-07 `score`), if given.
    pub score: Option<f64>,
    /// Every grading key of its `testdata.yaml` (inherited ones included):
    /// `grading`, `grader_flags`, `on_reject`, `accept_score`,
    /// `reject_score`, `range`, `score_aggregation`, ...
    pub settings: BTreeMap<String, String>,
}

impl Scoring {
    /// grundy's groups for these: the samples a 0-point group, every
    /// other directory of tests a group with no dependency, its points
    /// its maximum score (`accept_score` or `score` per test, summed
    /// unless its aggregation is `min`; 1 per test by default), scaled to
    /// grundy's 100 when they do not sum to it (largest remainders). The
    /// note says what does not carry over.
    pub fn group_specs(&self) -> (Vec<GroupSpec>, Option<String>) {
        let scored: Vec<&ScoreGroup> = self.groups.iter().filter(|g| !g.name.is_sample()).collect();
        let maxima: Vec<f64> = scored.iter().map(|g| g.max_score()).collect();
        let points = to_hundred(&maxima);
        let mut specs = Vec::new();
        if self.groups.iter().any(|g| g.name.is_sample()) {
            specs.push(GroupSpec {
                name: Group::sample(),
                points: 0,
                depends: Vec::new(),
            });
        }
        for (g, p) in scored.iter().zip(&points) {
            specs.push(GroupSpec {
                name: g.name.clone(),
                points: *p,
                depends: Vec::new(),
            });
        }
        let total: f64 = maxima.iter().sum();
        let mut notes = Vec::new();
        if (total - 100.0).abs() > 1e-9 {
            notes.push(format!(
                "group scores summing to {total} are scaled to 100 points"
            ));
        }
        let summed: Vec<&str> = scored
            .iter()
            .filter(|g| g.tests.len() > 1 && !g.is_min())
            .map(|g| g.path.as_str())
            .collect();
        if !summed.is_empty() {
            notes.push(format!(
                "groups {} sum their tests' scores, which grundy scores all or nothing",
                summed.join(", ")
            ));
        }
        let note = (!notes.is_empty()).then(|| format!("scoring: {}", notes.join("; ")));
        (specs, note)
    }
}

impl ScoreGroup {
    fn is_min(&self) -> bool {
        ["grader_flags", "scoring.aggregation", "score_aggregation"]
            .iter()
            .any(|k| {
                self.settings
                    .get(*k)
                    .is_some_and(|v| v.split_whitespace().any(|w| w == "min"))
            })
    }

    /// The most this group can score in Kattis.
    pub fn max_score(&self) -> f64 {
        let per_test = self
            .settings
            .get("accept_score")
            .and_then(|s| s.parse::<f64>().ok());
        match (
            self.settings
                .get("scoring.score")
                .and_then(|s| s.parse::<f64>().ok()),
            per_test,
        ) {
            (Some(score), _) => score,
            (None, Some(s)) if self.is_min() => s,
            (None, Some(s)) => s * self.tests.len() as f64,
            (None, None) if self.is_min() => 1.0,
            (None, None) => self.tests.len() as f64,
        }
    }
}

/// Whole points summing to 100 in proportion to `maxima` (the largest
/// remainders get the rounding), equal shares when every maximum is 0.
pub fn to_hundred(maxima: &[f64]) -> Vec<u32> {
    if maxima.is_empty() {
        return Vec::new();
    }
    let total: f64 = maxima.iter().sum();
    let exact: Vec<f64> = if total > 0.0 {
        maxima.iter().map(|m| m / total * 100.0).collect()
    } else {
        vec![100.0 / maxima.len() as f64; maxima.len()]
    };
    let mut points: Vec<u32> = exact.iter().map(|x| x.floor() as u32).collect();
    let mut left = 100 - points.iter().sum::<u32>().min(100);
    let mut order: Vec<usize> = (0..exact.len()).collect();
    order.sort_by(|&a, &b| (exact[b] - exact[b].floor()).total_cmp(&(exact[a] - exact[a].floor())));
    for i in order.into_iter().cycle() {
        if left == 0 {
            break;
        }
        points[i] += 1;
        left -= 1;
    }
    points
}

/// The memory limit problemtools assumes when `problem.yaml` gives none, MiB.
const DEFAULT_MEMORY: u64 = 1024;

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
        serde_yaml::from_str(&text).map_err(|e| fail(&yaml_path, first_line(&e.to_string())))?
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
    let custom = meta.custom_validation || meta.interactive || meta.custom_score;
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
    let (submissions, unjudged) = example_submissions(dir);
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

/// What `problem.yaml` says, parsed.
#[derive(Debug)]
struct Meta {
    format: &'static str,
    name: Option<String>,
    source: String,
    scoring: bool,
    interactive: bool,
    custom_validation: bool,
    custom_score: bool,
    validator_flags: Vec<String>,
    memory: u64,
    time_limit: Option<f64>,
    ac_to_time_limit: f64,
    time_limit_to_tle: f64,
    resolution: f64,
    limits: Limits,
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").to_string()
}

fn get<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    v.as_mapping()?.get(Value::String(key.into()))
}

fn as_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn number(v: Option<&Value>, field: &str) -> Result<Option<f64>, String> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_f64()
            .filter(|x| x.is_finite() && *x > 0.0)
            .map(Some)
            .ok_or_else(|| format!("{field}: {n} is not a positive number")),
        Some(other) => Err(format!("{field}: {other:?} is not a number")),
    }
}

impl Meta {
    fn read(yaml: &Value) -> Result<Meta, String> {
        if yaml.as_mapping().is_none() {
            return Err("not a mapping of keys to values".into());
        }
        let format = match get(yaml, "problem_format_version")
            .and_then(as_text)
            .as_deref()
        {
            None | Some("legacy") => "legacy",
            Some(v) if v.starts_with("2023-07") => "2023-07",
            Some(v) => {
                return Err(format!(
                    "problem_format_version: {v:?} is not one grundy reads (legacy, 2023-07-draft)"
                ))
            }
        };
        let name = match get(yaml, "name") {
            None | Some(Value::Null) => None,
            Some(Value::Mapping(m)) => m
                .get(Value::String("en".into()))
                .or_else(|| m.values().next())
                .and_then(as_text),
            Some(v) => Some(as_text(v).ok_or("name: not a string or a map of languages")?),
        };
        let source = match get(yaml, "source") {
            None | Some(Value::Null) => String::new(),
            Some(Value::Mapping(m)) => m
                .get(Value::String("name".into()))
                .and_then(as_text)
                .unwrap_or_default(),
            Some(Value::Sequence(s)) => s.iter().filter_map(as_text).collect::<Vec<_>>().join(", "),
            Some(v) => as_text(v).unwrap_or_default(),
        };
        let types: Vec<String> = match get(yaml, "type") {
            None | Some(Value::Null) => vec!["pass-fail".into()],
            Some(Value::Sequence(s)) => s.iter().filter_map(as_text).collect(),
            Some(v) => vec![as_text(v).ok_or("type: not a string or a list")?],
        };
        let mut meta = Meta {
            format,
            name,
            source,
            scoring: false,
            interactive: false,
            custom_validation: false,
            custom_score: false,
            validator_flags: Vec::new(),
            memory: DEFAULT_MEMORY,
            time_limit: None,
            ac_to_time_limit: if format == "legacy" { 5.0 } else { 2.0 },
            time_limit_to_tle: if format == "legacy" { 2.0 } else { 1.5 },
            resolution: 1.0,
            limits: Limits::default(),
        };
        for t in &types {
            match t.as_str() {
                "pass-fail" => {}
                "scoring" => meta.scoring = true,
                "interactive" if format != "legacy" => meta.interactive = true,
                "multi-pass" | "submit-answer" => {
                    return Err(format!("type: {t} problems are not supported by grundy"))
                }
                other => return Err(format!("type: unknown problem type {other:?}")),
            }
        }
        if let Some(v) = get(yaml, "validation") {
            let v = as_text(v).ok_or("validation: not a string")?;
            let mut words = v.split_whitespace();
            match words.next() {
                Some("default") | None => {}
                Some("custom") => meta.custom_validation = true,
                Some(other) => {
                    return Err(format!(
                        "validation: {other:?} is neither default nor custom"
                    ))
                }
            }
            for w in words {
                match w {
                    "interactive" => meta.interactive = true,
                    "score" => meta.custom_score = true,
                    other => return Err(format!("validation: unknown option {other:?}")),
                }
            }
        }
        if let Some(v) = get(yaml, "validator_flags") {
            let v = as_text(v).ok_or("validator_flags: not a string")?;
            meta.validator_flags = v.split_whitespace().map(str::to_string).collect();
        }
        if let Some(limits) = get(yaml, "limits") {
            if !matches!(limits, Value::Mapping(_) | Value::Null) {
                return Err("limits: not a mapping".into());
            }
            if let Some(m) = number(get(limits, "memory"), "limits.memory")? {
                if !(16.0..=16384.0).contains(&m) {
                    return Err(format!("limits.memory: {m} MiB is outside [16, 16384]"));
                }
                meta.memory = m as u64;
            }
            meta.time_limit = number(get(limits, "time_limit"), "limits.time_limit")?;
            if let Some(t) = meta.time_limit {
                if t > 60.0 {
                    return Err(format!("limits.time_limit: {t} s is above grundy's 60 s"));
                }
            }
            for (key, slot) in [
                ("time_multiplier", &mut meta.ac_to_time_limit),
                ("time_safety_margin", &mut meta.time_limit_to_tle),
            ] {
                if let Some(x) = number(get(limits, key), &format!("limits.{key}"))? {
                    *slot = x;
                }
            }
            if let Some(m) = get(limits, "time_multipliers") {
                for (key, slot) in [
                    ("ac_to_time_limit", &mut meta.ac_to_time_limit),
                    ("time_limit_to_tle", &mut meta.time_limit_to_tle),
                ] {
                    let field = format!("limits.time_multipliers.{key}");
                    if let Some(x) = number(get(m, key), &field)? {
                        *slot = x;
                    }
                }
            }
            if let Some(r) = number(get(limits, "time_resolution"), "limits.time_resolution")? {
                meta.resolution = r;
            }
            let whole = |key: &str, max: f64| -> Result<Option<u64>, String> {
                let field = format!("limits.{key}");
                match number(get(limits, key), &field)? {
                    Some(x) if x > max => Err(format!("{field}: {x} is above grundy's {max}")),
                    Some(x) => Ok(Some(x.ceil() as u64)),
                    None => Ok(None),
                }
            };
            let l = &mut meta.limits;
            if let Some(x) = whole("output", 1024.0)? {
                l.output_mib = x;
            }
            if let Some(x) = whole("code", 4096.0)? {
                l.code_kib = x;
            }
            if let Some(x) = whole("validation_memory", 16384.0)? {
                l.validation_memory_mib = x;
            }
            if let Some(x) = whole("validation_output", 1024.0)? {
                l.validation_output_mib = x;
            }
            if let Some(x) = number(get(limits, "validation_time"), "limits.validation_time")? {
                l.validation_time = x.min(600.0);
            }
        }
        Ok(meta)
    }

    fn time_rule(&self, dir: &Path) -> TimeRule {
        // DOMjudge keeps a fixed limit in `.timelimit`.
        let dotfile = std::fs::read_to_string(dir.join(".timelimit"))
            .ok()
            .and_then(|t| t.trim().parse::<f64>().ok())
            .filter(|t| *t > 0.0 && *t <= 60.0);
        TimeRule {
            fixed: self.time_limit.or(dotfile),
            ac_to_time_limit: self.ac_to_time_limit,
            time_limit_to_tle: self.time_limit_to_tle,
            resolution: self.resolution,
        }
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
    let yaml: Value = serde_yaml::from_str(&text).map_err(|e| fail(first_line(&e.to_string())))?;
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

fn rel(base: &Path, path: &Path) -> PathBuf {
    path.strip_prefix(base).unwrap_or(path).to_path_buf()
}

fn extension(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

/// The entries of a directory, hidden ones left out, sorted by name.
fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .collect();
    out.sort();
    out
}

/// Source extensions of compiled languages, and Python's.
const COMPILED: [&str; 7] = ["c", "cpp", "cc", "cxx", "c++", "rs", "java"];

/// Which C-like language a source is in, by its extension: `"c"` or
/// `"c++"`; `None` for any other file.
pub fn c_family(path: &Path) -> Option<&'static str> {
    match extension(path).as_str() {
        "c" => Some("c"),
        "cpp" | "cc" | "cxx" | "c++" => Some("c++"),
        _ => None,
    }
}

/// Whether a package program's main source (relative to the package) is
/// one file of a program given as a directory, whose C or C++ sources are
/// all compiled together: one in a directory of its own
/// (`input_validators/v/main.c`, `output_validators/v/main.c`), or in the
/// output validator's directory, which holds only that program
/// (`output_validator/`, or legacy `output_validators/` with its files at
/// the top). Not a file of `input_validators/`, where each file is a
/// validator of its own.
pub fn in_program_dir(rel: &Path) -> bool {
    let Some(parent) = rel.parent() else {
        return false;
    };
    parent.components().count() > 1
        || parent == Path::new("output_validator")
        || parent == Path::new("output_validators")
}

/// Whether a package program's main file (relative to the package) is the
/// `run` script of a directory that builds itself with `build`.
pub fn is_scripted(dir: &Path, rel: &Path) -> bool {
    let path = dir.join(rel);
    path.file_name().is_some_and(|n| n == "run")
        && path.parent().is_some_and(|p| p.join("build").is_file())
}

/// The main source of a submission given as a file or a directory,
/// relative to the package. A directory is one program: one main source in
/// its language with everything else beside it (headers, modules).
///
/// # Errors
/// A directory with `build`/`run` scripts, with several main sources, or
/// with no source grundy knows, and a file in a language grundy lacks.
pub fn main_source(dir: &Path, program: &Path) -> Result<PathBuf, (PathBuf, String)> {
    choose_main(dir, program, false)
}

/// The main source of a validator given as a file or a directory, as
/// [`main_source`], except that a directory may hold several C sources or
/// several C++ sources: all of them are one program (the judge compiles
/// them together, see `data::package_source`), and the main file is the
/// one named `main.*`, or else the first by name. A directory with `build`
/// and `run` scripts builds itself: its main file is `run`.
///
/// # Errors
/// As [`main_source`] (but for `build` and `run` together), and a
/// directory mixing C and C++, with several sources of another language,
/// or with only one of the two scripts.
pub fn main_program(dir: &Path, program: &Path) -> Result<PathBuf, (PathBuf, String)> {
    choose_main(dir, program, true)
}

fn choose_main(dir: &Path, program: &Path, several_c: bool) -> Result<PathBuf, (PathBuf, String)> {
    let path = dir.join(program);
    if !is_inside(program) {
        return Err((path, "outside the package".into()));
    }
    if path.is_file() {
        let ext = extension(&path);
        if COMPILED.contains(&ext.as_str()) || ext == "py" {
            return Ok(program.to_path_buf());
        }
        return Err((
            path,
            format!("a program in a language grundy does not know (.{ext}); grundy builds C, C++, Rust, Java and Python"),
        ));
    }
    let (build, run) = (path.join("build").is_file(), path.join("run").is_file());
    if several_c && build && run {
        // Built by its own scripts: `run` is the program.
        return Ok(rel(dir, &path.join("run")));
    }
    if build || run {
        let why = match (several_c, build) {
            (false, _) => "a submission with build/run scripts, which grundy does not run; give its sources instead",
            (true, true) => "a build script without a run script (Kattis needs both)",
            (true, false) => "a run script without a build script (Kattis needs both)",
        };
        return Err((path, why.into()));
    }
    let files = sorted_entries(&path);
    let compiled: Vec<&PathBuf> = files
        .iter()
        .filter(|f| f.is_file() && COMPILED.contains(&extension(f).as_str()))
        .collect();
    let python: Vec<&PathBuf> = files
        .iter()
        .filter(|f| f.is_file() && extension(f) == "py")
        .collect();
    let chosen = match (compiled.as_slice(), python.as_slice()) {
        ([one], _) => (*one).clone(),
        ([], [one]) => (*one).clone(),
        ([], many) if !many.is_empty() => {
            let named = many.iter().find(|f| {
                let stem = f.file_stem().map(|s| s.to_string_lossy().into_owned());
                matches!(stem.as_deref(), Some("main" | "validator" | "interactor"))
            });
            match named {
                Some(f) => (*f).clone(),
                None => {
                    return Err((
                        path,
                        "several Python files and none named main.py or validator.py: cannot tell which one runs".into(),
                    ))
                }
            }
        }
        ([], []) => {
            return Err((
                path,
                "no source grundy can build (C, C++, Rust, Java or Python)".into(),
            ))
        }
        (many, _) if several_c => {
            let families: Vec<Option<&str>> = many.iter().map(|f| c_family(f)).collect();
            if families.iter().any(Option::is_none) {
                return Err((
                    path,
                    format!(
                        "several sources ({}): grundy compiles several sources together only in C or in C++",
                        file_names(many)
                    ),
                ));
            }
            if families.iter().any(|f| *f != families[0]) {
                return Err((
                    path,
                    format!(
                        "C and C++ sources mixed ({}): grundy compiles a program's sources with one compiler",
                        file_names(many)
                    ),
                ));
            }
            let main = many
                .iter()
                .find(|f| f.file_stem().is_some_and(|s| s == "main"))
                .unwrap_or(&many[0]);
            (*main).clone()
        }
        (many, _) => {
            return Err((
                path,
                format!(
                    "several sources ({}): grundy compiles one main source with its headers beside it",
                    file_names(many)
                ),
            ));
        }
    };
    Ok(rel(dir, &chosen))
}

/// The file names of `paths`, joined by commas.
fn file_names(paths: &[&PathBuf]) -> String {
    let names: Vec<String> = paths
        .iter()
        .filter_map(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    names.join(", ")
}

/// The output validator's main source: `output_validator/` (2023-07, the
/// directory is the program) or the one program in `output_validators/`.
fn output_validator(dir: &Path, format: &str) -> Result<Option<PathBuf>, (PathBuf, String)> {
    let single = dir.join("output_validator");
    let several = dir.join("output_validators");
    if single.is_dir() && (format != "legacy" || !several.is_dir()) {
        let files = sorted_entries(&single);
        // A directory of one program, or (as some tools write it) of one
        // program's directory.
        if let [only] = files.as_slice() {
            if only.is_dir() {
                return main_program(dir, &rel(dir, only)).map(Some);
            }
        }
        return main_program(dir, Path::new("output_validator")).map(Some);
    }
    if several.is_dir() {
        let entries = sorted_entries(&several);
        return match entries.as_slice() {
            [] => Ok(None),
            [one] => main_program(dir, &rel(dir, one)).map(Some),
            _ if entries.iter().all(|e| e.is_file()) => {
                // Several files of one program (a validator with its header).
                main_program(dir, Path::new("output_validators")).map(Some)
            }
            _ => Err((
                several,
                "more than one output validator; Kattis uses exactly one".into(),
            )),
        };
    }
    Ok(None)
}

/// The Kattis submission folders and grundy's expectation of each.
fn expected_of(folder: &str) -> Option<Expected> {
    Some(match folder {
        "accepted" => Expected::Accepted,
        "wrong_answer" => Expected::WrongAnswer,
        "time_limit_exceeded" => Expected::TimeLimitExceeded,
        "run_time_error" => Expected::RuntimeError,
        "partially_accepted" => Expected::PartiallyAccepted,
        _ => return None,
    })
}

fn example_submissions(dir: &Path) -> (Vec<ExampleSubmission>, Vec<(PathBuf, String)>) {
    let mut judged = Vec::new();
    let mut unjudged = Vec::new();
    for folder in sorted_entries(&dir.join("submissions")) {
        if !folder.is_dir() {
            continue;
        }
        let name = folder
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for path in sorted_entries(&folder) {
            match expected_of(&name) {
                Some(expected) => judged.push(ExampleSubmission { expected, path }),
                None => unjudged.push((path, name.clone())),
            }
        }
    }
    judged.sort_by(|a, b| (a.expected, &a.path).cmp(&(b.expected, &b.path)));
    (judged, unjudged)
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

    fn meta(text: &str) -> Result<Meta, String> {
        Meta::read(&serde_yaml::from_str(text).unwrap())
    }

    #[test]
    fn legacy_defaults_follow_problemtools() {
        let m = meta("name: Nim\nvalidation: default\n").unwrap();
        assert_eq!(m.format, "legacy");
        assert_eq!((m.ac_to_time_limit, m.time_limit_to_tle), (5.0, 2.0));
        assert_eq!(m.memory, DEFAULT_MEMORY);
        assert!(!m.custom_validation && !m.interactive);
    }

    #[test]
    fn new_format_reads_types_and_multipliers() {
        let m = meta(
            "problem_format_version: 2023-07-draft\nname: {en: Nim, sv: Nim}\ntype: [scoring, interactive]\nlimits:\n  time_limit: 2.5\n  memory: 512\n  time_multipliers: {ac_to_time_limit: 3, time_limit_to_tle: 1.2}\n",
        )
        .unwrap();
        assert_eq!(m.format, "2023-07");
        assert_eq!(m.name.as_deref(), Some("Nim"));
        assert!(m.scoring && m.interactive);
        assert_eq!(m.time_limit, Some(2.5));
        assert_eq!(m.memory, 512);
        assert_eq!((m.ac_to_time_limit, m.time_limit_to_tle), (3.0, 1.2));
    }

    #[test]
    fn legacy_custom_interactive_and_flags() {
        let m = meta("validation: custom interactive\nvalidator_flags: float_tolerance 1e-6\nlimits: {time_multiplier: 3, time_safety_margin: 4}\n").unwrap();
        assert!(m.custom_validation && m.interactive);
        assert_eq!(m.validator_flags, ["float_tolerance", "1e-6"]);
        assert_eq!((m.ac_to_time_limit, m.time_limit_to_tle), (3.0, 4.0));
    }

    #[test]
    fn bad_fields_are_named() {
        let table = [
            (
                "problem_format_version: 2099-01\n",
                "problem_format_version",
            ),
            ("validation: magic\n", "validation"),
            (
                "type: multi-pass\nproblem_format_version: 2023-07-draft\n",
                "multi-pass",
            ),
            ("limits: {memory: lots}\n", "limits.memory"),
            ("limits: {time_limit: -1}\n", "limits.time_limit"),
        ];
        for (text, field) in table {
            let e = meta(text).unwrap_err();
            assert!(e.contains(field), "{text:?}: {e}");
        }
    }

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
    fn group_maxima_become_a_hundred_points() {
        let table: &[(&[f64], &[u32])] = &[
            (&[20.0, 30.0, 50.0], &[20, 30, 50]),
            (&[1.0, 1.0, 1.0], &[34, 33, 33]),
            (&[10.0, 30.0], &[25, 75]),
            (&[0.0, 0.0], &[50, 50]),
            (&[], &[]),
        ];
        for (maxima, want) in table {
            let got = to_hundred(maxima);
            assert_eq!(got, *want, "{maxima:?}");
            if !maxima.is_empty() {
                assert_eq!(got.iter().sum::<u32>(), 100);
            }
        }
    }

    #[test]
    fn slugs_from_directory_names() {
        assert_eq!(slug_of("hello"), "hello");
        assert_eq!(slug_of("Different_Sums 2"), "different-sums-2");
        assert_eq!(slug_of("__"), "problem");
    }
}

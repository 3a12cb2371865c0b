//! `problem.toml`: parsed from raw serde structs into validated types, so
//! an invalid manifest fails at load time with the field and the reason.
//! The format is documented in `docs/problem-format.md`.

use std::collections::BTreeSet;
use std::path::{Component, PathBuf};

use serde::Deserialize;

use crate::checker::special::Protocol;
use crate::checker::{Checker, CheckerKind};

mod order;
mod raw;

use order::{declared_groups, judging_order, test_group};
use raw::{RawChecker, RawManifest};

/// A validated manifest.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Manifest {
    pub name: String,
    pub source: String,
    /// Seconds of CPU time.
    pub time_limit: f64,
    /// MiB of peak resident memory.
    pub memory_limit: u64,
    pub checker: Checker,
    /// The problem's interactor, for an interactive problem.
    pub interactor: Option<Interactor>,
    /// The expanded test plan, in the manifest's order.
    pub tests: Vec<TestCase>,
    /// The scored test groups (subtasks), in judging order (every group
    /// after the groups it depends on); empty for a problem without
    /// `[[groups]]`, judged as one group, first failure decides.
    pub groups: Vec<GroupSpec>,
    pub stress: Vec<StressPlan>,
    /// Input validators speaking Kattis's protocol (exit 42 valid, 43
    /// invalid), each a source file or a directory of sources, relative
    /// to the package; run on every input besides `validator.rs`.
    pub input_validators: Vec<PathBuf>,
    /// The balloon colour, `#rrggbb`, where the manifest gives one (a
    /// contest may set another).
    pub rgb: Option<String>,
    /// Its name, as given or the nearest common one.
    pub color: Option<String>,
}

/// An interactive problem's interactor program.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Interactor {
    /// The source, relative to the package.
    pub source: PathBuf,
    pub protocol: Protocol,
}

/// One test of the plan.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TestCase {
    pub name: String,
    pub group: Group,
    pub input: TestInput,
    /// A hand-made answer file, relative to the package: the expected
    /// answer as it is, instead of the reference solver's output.
    pub answer: Option<PathBuf>,
    /// Arguments for the input validators (Kattis's `input_validator_flags`).
    pub input_flags: Vec<String>,
    /// Arguments for the output validator (Kattis's `output_validator_flags`),
    /// after its three standard ones; for built-in Kattis validation, its
    /// flags for this test.
    pub output_flags: Vec<String>,
}

/// Where a test's input comes from.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum TestInput {
    /// A hand-made file, relative to the package.
    File(PathBuf),
    /// Generator arguments.
    Gen(Vec<String>),
}

/// The group a test belongs to, by name. Without `[[groups]]` it is
/// `sample` or `secret`; with them, one of the declared groups (or
/// `sample`, a 0-point group when not declared). A test of the group
/// named `sample` is a sample: its details are shown to everyone.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, serde::Serialize)]
#[serde(transparent)]
pub struct Group(String);

impl Group {
    /// The samples' group.
    pub fn sample() -> Group {
        Group("sample".into())
    }

    /// The default group of a problem without `[[groups]]`.
    pub fn secret() -> Group {
        Group("secret".into())
    }

    pub fn is_sample(&self) -> bool {
        self.0 == "sample"
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A group of this name, if it is a valid name (1-64 characters of
    /// `[a-z0-9._-]`).
    pub fn parse(name: &str) -> Option<Group> {
        valid_name(name).then(|| Group(name.to_string()))
    }
}

impl std::fmt::Display for Group {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One scored test group (a subtask) of `[[groups]]`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct GroupSpec {
    pub name: Group,
    /// Its share of the submission's 100 points.
    pub points: u32,
    /// Groups that must get full marks first; when one does not, this
    /// group is skipped (0 points, its tests not run).
    pub depends: Vec<Group>,
}

/// Random small inputs for cross-checking the solution with the brute force.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct StressPlan {
    pub args: Vec<String>,
    pub count: u32,
}

/// The largest time limit a manifest may ask for, seconds.
const MAX_TIME_LIMIT: f64 = 60.0;
/// The largest memory limit, MiB.
const MAX_MEMORY_LIMIT: u64 = 16 * 1024;

impl Manifest {
    /// Parses and validates manifest text.
    ///
    /// # Errors
    /// A one-line message naming the field and what is wrong.
    pub fn parse(text: &str) -> Result<Manifest, String> {
        let raw: RawManifest = toml::from_str(text).map_err(|e| {
            let msg = e.to_string();
            let first = msg.lines().next().unwrap_or("invalid TOML").to_string();
            let last = msg
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            if last.trim() == first.trim() {
                first
            } else {
                format!("{first}: {}", last.trim())
            }
        })?;
        if raw.name.trim().is_empty() {
            return Err("name: must not be empty".into());
        }
        let rgb = match &raw.rgb {
            Some(rgb) => Some(crate::color::parse_rgb(rgb).map_err(|e| format!("rgb: {e}"))?),
            None if raw.color.is_some() => {
                return Err(
                    "color: names the colour of `rgb`, which is missing (rgb = \"#ff0000\")".into(),
                )
            }
            None => None,
        };
        let color = match (&rgb, raw.color.as_deref().map(str::trim)) {
            (_, Some("")) => return Err("color: must not be empty".into()),
            (_, Some(name)) => Some(name.to_string()),
            (Some(rgb), None) => Some(crate::color::color_name(rgb).to_string()),
            (None, None) => None,
        };
        if !(raw.time_limit > 0.0 && raw.time_limit <= MAX_TIME_LIMIT) {
            return Err(format!(
                "time_limit: {} is not a number of seconds in (0, {MAX_TIME_LIMIT}]",
                raw.time_limit
            ));
        }
        if raw.memory_limit < 16 || raw.memory_limit > MAX_MEMORY_LIMIT {
            return Err(format!(
                "memory_limit: {} is not a number of MiB in [16, {MAX_MEMORY_LIMIT}]",
                raw.memory_limit
            ));
        }
        let declared = match &raw.groups {
            Some(groups) => Some(declared_groups(groups)?),
            None => None,
        };
        let mut tests = Vec::new();
        let mut names = BTreeSet::new();
        for (i, t) in raw.tests.into_iter().enumerate() {
            let at = format!("tests[{i}] ({})", t.name);
            if !valid_name(&t.name) {
                return Err(format!("{at}: name must be 1-64 characters of [a-z0-9._-]"));
            }
            let group = test_group(t.group.as_deref(), declared.as_ref())
                .map_err(|e| format!("{at}: {e}"))?;
            if let Some(answer) = &t.answer {
                if t.file.is_none() {
                    return Err(format!("{at}: answer applies only to file tests"));
                }
                if !is_inside(answer) {
                    return Err(format!(
                        "{at}: answer must be a relative path inside the package"
                    ));
                }
            }
            let input_flags = t.input_flags.as_deref().map(split_args).unwrap_or_default();
            let output_flags = t
                .output_flags
                .as_deref()
                .map(split_args)
                .unwrap_or_default();
            let expanded: Vec<(String, TestInput)> = match (t.file, t.gen) {
                (Some(_), Some(_)) => {
                    return Err(format!("{at}: give either file or gen, not both"))
                }
                (None, None) => return Err(format!("{at}: needs file or gen")),
                (Some(file), None) => {
                    if t.count.is_some() {
                        return Err(format!("{at}: count applies only to gen tests"));
                    }
                    if !is_inside(&file) {
                        return Err(format!(
                            "{at}: file must be a relative path inside the package"
                        ));
                    }
                    vec![(t.name.clone(), TestInput::File(file))]
                }
                (None, Some(gen)) => {
                    let args = split_args(&gen);
                    if args.is_empty() {
                        return Err(format!("{at}: gen must not be empty"));
                    }
                    match t.count {
                        None => vec![(t.name.clone(), TestInput::Gen(args))],
                        Some(0) => return Err(format!("{at}: count must be at least 1")),
                        Some(n) if n > 1000 => {
                            return Err(format!("{at}: count {n} is above 1000"))
                        }
                        Some(n) => {
                            let width = n.to_string().len().max(2);
                            (1..=n)
                                .map(|k| {
                                    let mut a = args.clone();
                                    a.push(format!("seed={k}"));
                                    (format!("{}-{k:0width$}", t.name), TestInput::Gen(a))
                                })
                                .collect()
                        }
                    }
                }
            };
            for (name, input) in expanded {
                if !names.insert(name.clone()) {
                    return Err(format!("{at}: duplicate test name {name}"));
                }
                tests.push(TestCase {
                    name,
                    group: group.clone(),
                    input,
                    answer: t.answer.clone(),
                    input_flags: input_flags.clone(),
                    output_flags: output_flags.clone(),
                });
            }
        }
        if tests.is_empty() {
            return Err("tests: the test plan is empty".into());
        }
        for (i, v) in raw.input_validators.iter().enumerate() {
            if !is_inside(v) {
                return Err(format!(
                    "input_validators[{i}]: {} must be a relative path inside the package",
                    v.display()
                ));
            }
        }
        let groups = match (raw.groups, declared) {
            (Some(raw_groups), Some(declared)) => judging_order(&raw_groups, &declared, &tests)?,
            _ => Vec::new(),
        };
        let mut stress = Vec::new();
        for (i, s) in raw.stress.into_iter().enumerate() {
            let args = split_args(&s.gen);
            if args.is_empty() {
                return Err(format!("stress[{i}]: gen must not be empty"));
            }
            if s.count == 0 || s.count > 100_000 {
                return Err(format!("stress[{i}]: count must be in [1, 100000]"));
            }
            stress.push(StressPlan {
                args,
                count: s.count,
            });
        }
        Ok(Manifest {
            rgb,
            color,
            name: raw.name,
            source: raw.source,
            time_limit: raw.time_limit,
            memory_limit: raw.memory_limit,
            checker: match raw.checker {
                RawChecker::Name(name) => Checker::Builtin(
                    CheckerKind::new(name, raw.float_abs, raw.float_rel)
                        .map_err(|e| format!("checker: {e}"))?,
                ),
                RawChecker::Program(p) => {
                    if raw.float_abs.is_some() || raw.float_rel.is_some() {
                        return Err(
                            "checker: float_abs and float_rel are options of checker = \"float\""
                                .into(),
                        );
                    }
                    if !is_inside(&p.program) {
                        return Err(format!(
                            "checker.program: {} must be a relative path inside the package",
                            p.program.display()
                        ));
                    }
                    Checker::Program {
                        source: p.program,
                        protocol: p.protocol,
                    }
                }
            },
            interactor: match raw.interactor {
                None => None,
                Some(p) if !is_inside(&p.program) => {
                    return Err(format!(
                        "interactor.program: {} must be a relative path inside the package",
                        p.program.display()
                    ))
                }
                Some(p) => Some(Interactor {
                    source: p.program,
                    protocol: p.protocol,
                }),
            },
            tests,
            groups,
            stress,
            input_validators: raw.input_validators,
        })
    }

    /// Whether the problem is scored by `[[groups]]`.
    pub fn has_groups(&self) -> bool {
        !self.groups.is_empty()
    }

    /// Whether any test or stress run needs the generator.
    pub fn needs_generator(&self) -> bool {
        !self.stress.is_empty()
            || self
                .tests
                .iter()
                .any(|t| matches!(t.input, TestInput::Gen(_)))
    }
}

fn split_args(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-".contains(&b))
}

pub(super) fn is_inside(path: &std::path::Path) -> bool {
    path.components().all(|c| matches!(c, Component::Normal(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
        name = "Nim"
        source = "AcWing 891"
        time_limit = 1.0
        memory_limit = 256

        [[tests]]
        name = "sample-1"
        group = "sample"
        file = "tests/sample-1.in"

        [[tests]]
        name = "random"
        gen = "mode=random n=4"
        count = 3

        [[stress]]
        gen = "n=3"
    "#;

    #[test]
    fn a_balloon_colour_is_normalised_and_named_or_refused_in_one_line() {
        let with = |extra: &str| {
            Manifest::parse(&GOOD.replacen("time_limit", &format!("{extra}\ntime_limit"), 1))
        };
        let m = with("rgb = \"#F80\"").unwrap();
        assert_eq!(
            (m.rgb.as_deref(), m.color.as_deref()),
            (Some("#ff8800"), Some("orange"))
        );
        let m = with("rgb = \"#ff8c00\"\ncolor = \"dark orange\"").unwrap();
        assert_eq!(m.color.as_deref(), Some("dark orange"));
        assert_eq!(Manifest::parse(GOOD).unwrap().rgb, None);
        let e = with("rgb = \"orange\"").unwrap_err();
        assert!(e.starts_with("rgb: ") && e.contains("#rrggbb"), "{e}");
        let e = with("color = \"red\"").unwrap_err();
        assert!(e.starts_with("color: ") && e.contains("rgb"), "{e}");
    }

    #[test]
    fn good_manifest_expands_counted_tests() {
        let m = Manifest::parse(GOOD).unwrap();
        let names: Vec<_> = m.tests.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["sample-1", "random-01", "random-02", "random-03"]);
        assert_eq!(m.tests[0].group, Group::sample());
        assert_eq!(m.tests[1].group, Group::secret());
        assert!(m.groups.is_empty());
        assert_eq!(
            m.tests[2].input,
            TestInput::Gen(vec!["mode=random".into(), "n=4".into(), "seed=2".into()])
        );
        assert_eq!(m.stress[0].count, 100);
        assert_eq!(m.checker, Checker::Builtin(CheckerKind::Tokens));
    }

    fn error_of(text: &str) -> String {
        let e = Manifest::parse(text).unwrap_err();
        assert!(!e.contains('\n'), "one line: {e}");
        e
    }

    #[test]
    fn missing_field_is_named() {
        let e = error_of("name = \"x\"\nsource = \"y\"\ntime_limit = 1.0\n");
        assert!(e.contains("memory_limit"), "{e}");
    }

    #[test]
    fn unknown_field_is_named() {
        let e = error_of(&GOOD.replace("time_limit = 1.0", "time_limit = 1.0\ntimelimit = 2"));
        assert!(e.contains("timelimit"), "{e}");
    }

    #[test]
    fn nonpositive_time_limit_is_rejected() {
        let e = error_of(&GOOD.replace("time_limit = 1.0", "time_limit = 0.0"));
        assert!(e.starts_with("time_limit:"), "{e}");
    }

    #[test]
    fn unknown_checker_is_rejected() {
        let e = error_of(&GOOD.replace(
            "memory_limit = 256",
            "memory_limit = 256\nchecker = \"magic\"",
        ));
        assert!(e.contains("magic"), "{e}");
    }

    #[test]
    fn test_with_both_file_and_gen_is_rejected() {
        let e =
            error_of(&GOOD.replace("file = \"tests/sample-1.in\"", "file = \"a\"\ngen = \"b\""));
        assert!(
            e.contains("tests[0] (sample-1): give either file or gen"),
            "{e}"
        );
    }

    #[test]
    fn duplicate_test_names_are_rejected() {
        let text = format!("{GOOD}\n[[tests]]\nname = \"random-02\"\ngen = \"x\"\n");
        let e = error_of(&text);
        assert!(e.contains("duplicate test name random-02"), "{e}");
    }

    #[test]
    fn file_escaping_the_package_is_rejected() {
        let e = error_of(&GOOD.replace("tests/sample-1.in", "../../etc/passwd"));
        assert!(e.contains("inside the package"), "{e}");
    }

    #[test]
    fn empty_plan_is_rejected() {
        let e = error_of("name = \"x\"\nsource = \"y\"\ntime_limit = 1.0\nmemory_limit = 64\n");
        assert!(e.contains("test plan is empty"), "{e}");
    }

    #[test]
    fn bad_test_name_is_rejected() {
        let e = error_of(&GOOD.replace("name = \"sample-1\"", "name = \"Sample 1\""));
        assert!(e.contains("name must be"), "{e}");
    }

    const GROUPED: &str = r#"
        name = "Nim"
        source = "AcWing 891"
        time_limit = 1.0
        memory_limit = 256

        [[groups]]
        name = "large"
        points = 70
        depends = ["small"]

        [[groups]]
        name = "small"
        points = 30

        [[tests]]
        name = "sample-1"
        group = "sample"
        file = "tests/sample-1.in"

        [[tests]]
        name = "big"
        group = "large"
        gen = "n=100"

        [[tests]]
        name = "tiny"
        group = "small"
        gen = "n=3"
        count = 2
    "#;

    #[test]
    fn groups_are_judged_after_their_dependencies_with_samples_first() {
        let m = Manifest::parse(GROUPED).unwrap();
        let order: Vec<(&str, u32)> = m
            .groups
            .iter()
            .map(|g| (g.name.as_str(), g.points))
            .collect();
        assert_eq!(order, [("sample", 0), ("small", 30), ("large", 70)]);
        assert_eq!(m.groups[2].depends, [Group::parse("small").unwrap()]);
        assert_eq!(m.tests[2].group.as_str(), "small");
        assert!(m.tests[0].group.is_sample());
    }

    #[test]
    fn group_points_must_sum_to_100() {
        let e = error_of(&GROUPED.replace("points = 30", "points = 20"));
        assert_eq!(e, "groups: points sum to 90 (large 70 + small 20), not 100");
    }

    #[test]
    fn dependency_on_an_unknown_group_is_named() {
        let e = error_of(&GROUPED.replace("depends = [\"small\"]", "depends = [\"smal\"]"));
        assert_eq!(
            e,
            "groups[0] (large): depends on \"smal\", which is not a group"
        );
    }

    #[test]
    fn dependency_cycle_is_shown() {
        let text = GROUPED.replace("points = 30", "points = 30\ndepends = [\"large\"]");
        let e = error_of(&text);
        assert_eq!(e, "groups: a dependency cycle: large -> small -> large");
    }

    #[test]
    fn a_test_in_an_undeclared_group_is_named() {
        let e = error_of(&GROUPED.replace("group = \"small\"", "group = \"medium\""));
        assert_eq!(
            e,
            "tests[2] (tiny): group \"medium\" is not declared in [[groups]] (declared: large, small)"
        );
    }

    #[test]
    fn with_groups_every_test_names_one() {
        let e = error_of(&GROUPED.replace("group = \"large\"\n", ""));
        assert!(
            e.starts_with("tests[1] (big): group: with [[groups]]"),
            "{e}"
        );
    }

    #[test]
    fn an_empty_group_is_refused() {
        let text = GROUPED.replace("points = 70", "points = 60").replace(
            "[[tests]]\n        name = \"sample-1\"",
            "[[groups]]\nname = \"empty\"\npoints = 10\n\n[[tests]]\nname = \"sample-1\"",
        );
        let e = error_of(&text);
        assert_eq!(e, "groups[2] (empty): no test is in this group");
    }

    #[test]
    fn without_groups_a_test_group_is_sample_or_secret() {
        let e = error_of(&GOOD.replace("group = \"sample\"", "group = \"small\""));
        assert!(e.contains("group \"small\" is not declared"), "{e}");
    }
}

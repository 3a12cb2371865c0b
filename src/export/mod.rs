//! `grundy export`: writes a problem package in another judge's format, so a
//! problem prepared here runs elsewhere. The one format is the Kattis
//! problem package format, version 2023-07 (`2023-07-draft`, the version
//! in which problemtools reads Markdown statements):
//!
//! ```text
//! problem.yaml                    name, source, uuid, time and memory limits
//! .timelimit                      the time limit in seconds again (DOMjudge)
//! statement/problem.en.md         statement.md as it is
//! input_validators/validator.rs   validator.rs made self-contained (below)
//! data/sample/NNN-<test>.in|.ans  the plan's sample tests
//! data/secret/NNN-<test>.in|.ans  the plan's secret tests
//! data/secret/<group>/...         instead, with `[[groups]]`: each group's
//!                                 tests and its score (`testdata.yaml`)
//! submissions/<verdict>/...       the example submissions
//! ```
//!
//! `NNN` is the test's position in the plan, so Kattis's lexicographic order
//! is grundy's judging order. The data comes from the generated test set
//! (built first if it is missing), the answers being the reference solver's.
//! `tokens` is Kattis's default output validation with `case_sensitive`
//! (in `data/testdata.yaml`); a problem imported from Kattis keeps its
//! `kattis` checker's flags, its output validator or interactor
//! (`output_validator/`), its input validators and its flags per group.
//!
//! The input validator is `validator.rs` as rewritten by the submodule
//! `validator`: the shared modules it includes by `#[path]` are inlined, as
//! Kattis builds it from that one file, and it exits 42 on a valid input and
//! 43 on an invalid one where grundy's exit 0 and 1. The generator and the
//! solvers are not exported: Kattis has no place for them.
//!
//! The package is built in a scratch directory beside the target and renamed
//! into place at the end, so a failure leaves nothing half-written; the
//! target must not exist or be an empty directory, so no file of the user's
//! is ever overwritten.
//!
//! This layer sits above [`crate::data`]; it runs nothing itself.

mod programs;
mod validator;
mod yaml;

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::data::{self, Progress, TestData};
use crate::problem::{Expected, GroupSpec, Problem, Role};
use programs::{copy_program, input_validator, output_validation, Flags, Validation};
use yaml::{problem_yaml, Testdata};

/// Errors while exporting: each names the file and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: exists and is not an empty directory (export never overwrites files)")]
    Occupied { path: PathBuf },
    #[error("{path}: {what}")]
    Unsupported { path: PathBuf, what: String },
    #[error("{path}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Data(#[from] data::Error),
}

/// What an export wrote.
#[derive(Debug, Clone)]
pub struct Summary {
    /// The package's directory.
    pub dir: PathBuf,
    pub samples: usize,
    pub secrets: usize,
    /// Example submissions per Kattis directory (`accepted`, ...).
    pub submissions: BTreeMap<&'static str, usize>,
    /// Of those, the ones expecting `MLE`, written to `run_time_error/` as
    /// `mle-*`.
    pub memory_limit_exceeded: usize,
    /// Whether the problem has a validator, exported to `input_validators/`.
    pub input_validator: bool,
    /// The scored groups, in the manifest's order, with their points
    /// (`data/secret/<group>/`); empty for a problem without groups.
    pub groups: Vec<(String, u32)>,
    /// What the package cannot say as grundy does (also in `problem.yaml`
    /// as comments).
    pub notes: Vec<String>,
}

/// Writes `problem` as a Kattis problem package into `out`, generating its
/// test data first if it is missing.
///
/// # Errors
/// [`Error::Occupied`] when `out` exists and is not an empty directory
/// (checked before anything is generated), [`Error::Unsupported`] for what
/// the format cannot express (including a validator of a shape the rewrite
/// does not understand), and the test data's or the file system's errors.
/// On error `out` is left as it was.
pub fn kattis(
    problem: &Problem,
    data: &TestData,
    out: &Path,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Summary, Error> {
    refuse_occupied(out)?;
    let dir_name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if let Some(valid) = short_name_hint(&dir_name, &problem.slug) {
        return Err(Error::Unsupported {
            path: out.to_path_buf(),
            what: format!(
                "Kattis takes the package directory's name as the problem's short name, \
                 which must be [a-z0-9]+ (e.g. {valid})"
            ),
        });
    }
    let validation = output_validation(problem)?;
    let input_validator = input_validator(problem)?;
    let scored: Vec<&GroupSpec> = problem
        .manifest
        .groups
        .iter()
        .filter(|g| !g.name.is_sample())
        .collect();
    let notes = group_notes(&scored);
    let set = data.ensure(problem, progress)?;

    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(io(&parent))?;
    let name = dir_name;
    // Mode 0777 minus the umask, as for any directory the user creates:
    // the scratch directory becomes the package.
    let scratch = tempfile::Builder::new()
        .prefix(&format!(".{name}.export-"))
        .permissions(std::fs::Permissions::from_mode(0o777))
        .tempdir_in(&parent)
        .map_err(io(&parent))?;
    let root = scratch.path();

    write(
        &root.join("problem.yaml"),
        problem_yaml(problem, validation.interactive, !scored.is_empty(), &notes).as_bytes(),
    )?;
    // The output validator or interactor, as a program directory.
    if let Some(rel) = &validation.program {
        copy_program(problem, rel, &root.join("output_validator"), false)?;
    }
    // Kattis input validators (an imported package's), beside grundy's own.
    for rel in &problem.manifest.input_validators {
        copy_program(problem, rel, &root.join("input_validators"), false)?;
    }
    // Validator flags, where every test of a group has the same; for a
    // scored problem, each group's grading too.
    let has_samples = problem.manifest.tests.iter().any(|t| t.group.is_sample());
    for (group, yaml) in testdata(&validation, &scored, has_samples) {
        if !yaml.is_empty() {
            let dir = root.join("data").join(group);
            mkdir(&dir)?;
            write(&dir.join("testdata.yaml"), yaml.as_bytes())?;
        }
    }
    write(
        &root.join(".timelimit"),
        format!("{}\n", problem.manifest.time_limit).as_bytes(),
    )?;
    let statement = root.join("statement");
    mkdir(&statement)?;
    copy(
        &problem.dir.join("statement.md"),
        &statement.join("problem.en.md"),
    )?;
    if let Some(source) = &input_validator {
        let dir = root.join("input_validators");
        mkdir(&dir)?;
        write(&dir.join(Role::Validator.file_name()), source.as_bytes())?;
    }

    let (mut samples, mut secrets) = (0, 0);
    let width = set.index.tests.len().to_string().len().max(3);
    for (i, test) in set.index.tests.iter().enumerate() {
        let group = if test.group.is_sample() {
            samples += 1;
            PathBuf::from("sample")
        } else if scored.is_empty() {
            secrets += 1;
            PathBuf::from("secret")
        } else {
            // A scored group is a test-data group of its own.
            secrets += 1;
            Path::new("secret").join(test.group.as_str())
        };
        let dir = root.join("data").join(group);
        mkdir(&dir)?;
        let stem = format!("{:0width$}-{}", i + 1, test.name);
        copy(&set.input(test), &dir.join(format!("{stem}.in")))?;
        copy(&set.answer(test), &dir.join(format!("{stem}.ans")))?;
    }

    let mut submissions = BTreeMap::new();
    let mut memory_limit_exceeded = 0;
    let mut notes = notes;
    let mut not_compiling = Vec::new();
    for sub in problem.submissions() {
        let Some((dir, prefix)) = submission_dir(sub.expected) else {
            not_compiling.push(
                sub.path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
            );
            continue;
        };
        if sub.path.is_dir() {
            // A directory submission stays one.
            let name = sub.path.file_name().unwrap_or_default();
            let path = root
                .join("submissions")
                .join(dir)
                .join(format!("{prefix}{}", name.to_string_lossy()));
            crate::problem::copy_tree(&sub.path, &path)
                .map_err(|(path, source)| Error::Io { path, source })?;
            *submissions.entry(dir).or_insert(0) += 1;
            continue;
        }
        let target = submission_target(&sub.path, prefix)?;
        let path = root.join("submissions").join(dir).join(target);
        if path.exists() {
            return Err(Error::Unsupported {
                path: sub.path.clone(),
                what: format!(
                    "would be written to submissions/{dir}/ under a name another submission takes"
                ),
            });
        }
        let mut bytes = std::fs::read(&sub.path).map_err(io(&sub.path))?;
        if is_python(&sub.path) && !bytes.starts_with(b"#!") {
            // problemtools and Kattis take a `.py` file with a python2
            // shebang (and, in older versions, one with none) as Python 2;
            // grundy runs Python 3.
            bytes.splice(0..0, b"#!/usr/bin/env python3\n".iter().copied());
        }
        if let Some(dir) = path.parent() {
            mkdir(dir)?;
        }
        write(&path, &bytes)?;
        *submissions.entry(dir).or_insert(0) += 1;
        if sub.expected == Expected::MemoryLimitExceeded {
            memory_limit_exceeded += 1;
        }
    }

    if !not_compiling.is_empty() {
        notes.push(format!(
            "left out, the format having no directory for a submission that does not compile: \
             compile_error/ {}",
            not_compiling.join(", ")
        ));
    }
    std::fs::rename(root, out).map_err(|source| match source.kind() {
        // Someone put files there since the check: theirs stay.
        std::io::ErrorKind::DirectoryNotEmpty | std::io::ErrorKind::AlreadyExists => {
            Error::Occupied {
                path: out.to_path_buf(),
            }
        }
        _ => Error::Io {
            path: out.to_path_buf(),
            source,
        },
    })?;
    let _ = scratch.keep();
    Ok(Summary {
        dir: out.to_path_buf(),
        samples,
        secrets,
        submissions,
        memory_limit_exceeded,
        input_validator: input_validator.is_some(),
        groups: scored
            .iter()
            .map(|g| (g.name.to_string(), g.points))
            .collect(),
        notes,
    })
}

/// What grundy's groups say that a Kattis package cannot: a dependency
/// between groups (Kattis judges every group).
fn group_notes(scored: &[&GroupSpec]) -> Vec<String> {
    scored
        .iter()
        .filter(|g| !g.depends.is_empty())
        .map(|g| {
            let on: Vec<String> = g.depends.iter().map(ToString::to_string).collect();
            format!(
                "group {} depends on {} in grundy (judged only after full marks there); \
                 Kattis has no dependencies between groups, so there it is always judged",
                g.name,
                on.join(", ")
            )
        })
        .collect()
}

/// The `testdata.yaml` of each directory under `data/` (relative path,
/// text; an empty text writes no file). Without scored groups: the
/// validator flags of `data/`, `data/sample` and `data/secret`. With them,
/// problemtools' scoring settings: every group `data/secret/<group>/`
/// scores its points once when all its tests pass (`accept_score` with
/// `grader_flags: min`), the samples score nothing, and a rejected group
/// does not stop the others (`on_reject: continue`). A directory's
/// `testdata.yaml` replaces its parent's rather than adding to it, so each
/// one repeats the flags it inherits.
fn testdata(
    validation: &Validation,
    scored: &[&GroupSpec],
    has_samples: bool,
) -> Vec<(String, String)> {
    let with_flags = |flags: &Flags| Testdata {
        output_validator_flags: flags.0.clone().filter(|f| !f.is_empty()),
        input_validator_flags: flags.1.clone().filter(|f| !f.is_empty()),
        ..Testdata::default()
    };
    let inherit = |own: &Flags| -> Flags {
        (
            own.0.clone().or_else(|| validation.flags.0.clone()),
            own.1.clone().or_else(|| validation.flags.1.clone()),
        )
    };
    if scored.is_empty() {
        return vec![
            (String::new(), with_flags(&validation.flags).text()),
            ("sample".into(), with_flags(&validation.sample_flags).text()),
            ("secret".into(), with_flags(&validation.secret_flags).text()),
        ];
    }
    let continuing = |t: Testdata| Testdata {
        on_reject: Some("continue"),
        ..t
    };
    let mut out = vec![(
        String::new(),
        continuing(with_flags(&validation.flags)).text(),
    )];
    if has_samples {
        let samples = Testdata {
            accept_score: Some(0),
            ..with_flags(&inherit(&validation.sample_flags))
        };
        out.push(("sample".into(), continuing(samples).text()));
    }
    out.push((
        "secret".into(),
        continuing(with_flags(&validation.flags)).text(),
    ));
    for g in scored {
        let own = validation
            .group_flags
            .iter()
            .find(|(name, _)| *name == g.name)
            .map(|(_, f)| f.clone())
            .unwrap_or_default();
        let group = Testdata {
            accept_score: Some(g.points),
            grader_flags: Some("min"),
            ..with_flags(&inherit(&own))
        };
        out.push((format!("secret/{}", g.name), group.text()));
    }
    out
}

/// `None` when `dir_name` is a Kattis short name, else one made from it
/// (or from the slug) by keeping its lower-cased ASCII letters and digits.
fn short_name_hint(dir_name: &str, slug: &str) -> Option<String> {
    let valid =
        |n: &str| !n.is_empty() && n.bytes().all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9'));
    if valid(dir_name) {
        return None;
    }
    let keep = |n: &str| -> String {
        n.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    Some(
        Some(keep(dir_name))
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| keep(slug)),
    )
}

/// Refuses a target that exists and is not an empty directory (a symbolic
/// link is refused too: renaming onto it would replace the link).
fn refuse_occupied(out: &Path) -> Result<(), Error> {
    let occupied = || Error::Occupied {
        path: out.to_path_buf(),
    };
    match std::fs::symlink_metadata(out) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(source) => Err(Error::Io {
            path: out.to_path_buf(),
            source,
        }),
        Ok(meta) if !meta.is_dir() => Err(occupied()),
        Ok(_) => {
            let mut entries = std::fs::read_dir(out).map_err(io(out))?;
            match entries.next() {
                None => Ok(()),
                Some(_) => Err(occupied()),
            }
        }
    }
}

/// The Kattis directory for an expected outcome, and a prefix for the file
/// names there; `None` for a submission that does not compile, which the
/// format has no place for (problemtools fails a package whose submission
/// does not compile).
fn submission_dir(expected: Expected) -> Option<(&'static str, &'static str)> {
    Some(match expected {
        Expected::Accepted => ("accepted", ""),
        Expected::WrongAnswer => ("wrong_answer", ""),
        Expected::TimeLimitExceeded => ("time_limit_exceeded", ""),
        Expected::RuntimeError => ("run_time_error", ""),
        Expected::PartiallyAccepted => ("partially_accepted", ""),
        Expected::Rejected => ("rejected", ""),
        Expected::BruteForce => ("brute_force", ""),
        // The format has no directory for it: on Kattis a program
        // over the memory limit fails to allocate and crashes (Java exits
        // on OutOfMemoryError), which is judged a run-time error. The
        // prefix says why the file is there and keeps it apart from the
        // runtime_error submissions.
        Expected::MemoryLimitExceeded => ("run_time_error", "mle-"),
        Expected::CompileError => return None,
    })
}

/// The path of a submission inside its Kattis directory.
///
/// Kattis runs a Java program's class named after its file, and javac wants
/// a public class in a file of its name; grundy's Java submissions declare
/// `public class Main` whatever their file is called. So `foo.java` becomes
/// the one-file program `foo/Main.java` (a directory is one submission).
///
/// # Errors
/// [`Error::Unsupported`] for an extension that is none of grundy's
/// languages, which Kattis would not know how to build.
fn submission_target(path: &Path, prefix: &str) -> Result<PathBuf, Error> {
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    match ext {
        "c" | "cpp" | "cc" | "rs" | "py" | "cs" | "go" | "hs" | "js" | "kt" | "ml" | "pas"
        | "php" | "rb" => Ok(PathBuf::from(format!("{prefix}{file}"))),
        // A C++ standard or PyPy, chosen by grundy's extension: Kattis has
        // one C++ and one Python 3 (which it runs with PyPy).
        "cpp17" | "cpp20" | "cpp23" | "pypy3" => {
            let stem = path.file_stem().unwrap_or_default().to_string_lossy();
            let kattis = if ext == "pypy3" { "py" } else { "cpp" };
            Ok(PathBuf::from(format!("{prefix}{stem}.{kattis}")))
        }
        "java" if prefix.is_empty() && file == "Main.java" => Ok(PathBuf::from(file)),
        // Kattis runs the class named after the file: one declaring it
        // keeps its name.
        "java"
            if prefix.is_empty()
                && std::fs::read(path).is_ok_and(|text| {
                    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
                    crate::lang::declares_class(&text, &stem)
                }) =>
        {
            Ok(PathBuf::from(file))
        }
        "java" => {
            let stem = path.file_stem().unwrap_or_default().to_string_lossy();
            Ok(PathBuf::from(format!("{prefix}{stem}")).join("Main.java"))
        }
        _ => Err(Error::Unsupported {
            path: path.to_path_buf(),
            what: "no Kattis language for this extension (expected .c .cpp .cc .cpp17 .cpp20 \
                   .cpp23 .rs .py .pypy3 .java .cs .go .hs .js .kt .ml .pas .php .rb)"
                .into(),
        }),
    }
}

fn is_python(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "py" || e == "pypy3")
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> Error {
    let path = path.to_path_buf();
    move |source| Error::Io {
        path: path.clone(),
        source,
    }
}

fn mkdir(dir: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(dir).map_err(io(dir))
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    std::fs::write(path, bytes).map_err(io(path))
}

fn copy(from: &Path, to: &Path) -> Result<(), Error> {
    std::fs::copy(from, to).map(|_| ()).map_err(io(from))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_name_hint_only_for_names_kattis_refuses() {
        assert_eq!(short_name_hint("nim", "nim"), None);
        assert_eq!(short_name_hint("moorenimk2", "x"), None);
        assert_eq!(
            short_name_hint("anti-nim", "anti-nim"),
            Some("antinim".into())
        );
        assert_eq!(short_name_hint("Nim_2", "nim"), Some("nim2".into()));
        assert_eq!(short_name_hint("游戏", "dag-game"), Some("daggame".into()));
    }

    #[test]
    fn memory_limit_exceeded_becomes_a_prefixed_run_time_error() {
        assert_eq!(
            submission_dir(Expected::MemoryLimitExceeded),
            Some(("run_time_error", "mle-"))
        );
        assert_eq!(
            submission_dir(Expected::RuntimeError),
            Some(("run_time_error", ""))
        );
        assert_eq!(submission_dir(Expected::CompileError), None);
        let t = submission_target(Path::new("x/hog.cpp"), "mle-").unwrap();
        assert_eq!(t, Path::new("mle-hog.cpp"));
    }

    #[test]
    fn java_submissions_are_written_as_main_java() {
        let t = submission_target(Path::new("x/xor.java"), "").unwrap();
        assert_eq!(t, Path::new("xor/Main.java"));
        let t = submission_target(Path::new("x/Main.java"), "").unwrap();
        assert_eq!(t, Path::new("Main.java"));
        let t = submission_target(Path::new("x/Main.java"), "mle-").unwrap();
        assert_eq!(t, Path::new("mle-Main/Main.java"));
    }

    #[test]
    fn every_language_is_written_under_kattis_extension_for_it() {
        for (name, want) in [
            ("xor.go", "xor.go"),
            ("xor.kt", "xor.kt"),
            ("xor.cs", "xor.cs"),
            ("xor.hs", "xor.hs"),
            ("xor.ml", "xor.ml"),
            ("xor.pas", "xor.pas"),
            ("xor.js", "xor.js"),
            ("xor.rb", "xor.rb"),
            ("xor.php", "xor.php"),
            ("xor-20.cpp20", "xor-20.cpp"),
            ("xor-23.cpp23", "xor-23.cpp"),
            ("xor-17.cpp17", "xor-17.cpp"),
            ("xor-pypy.pypy3", "xor-pypy.py"),
        ] {
            let t = submission_target(&Path::new("x").join(name), "").unwrap();
            assert_eq!(t, Path::new(want), "{name}");
            // Read back, Kattis's extension names a language grundy has.
            assert!(
                crate::problem::kattis::grundy_extension(&t).is_some(),
                "{name}"
            );
        }
        assert!(is_python(Path::new("x/a.pypy3")));
    }

    #[test]
    fn unknown_extension_is_refused_naming_the_file() {
        let e = submission_target(Path::new("x/notes.txt"), "").unwrap_err();
        assert!(e.to_string().starts_with("x/notes.txt: no Kattis language"));
    }
}

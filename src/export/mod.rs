//! `grundy export`: writes a problem package in another judge's format, so a
//! problem prepared here runs elsewhere. The one format is the Kattis
//! problem package format (legacy version), read by Kattis problemtools and
//! DOMjudge:
//!
//! ```text
//! problem.yaml                    name, source, memory limit, validation
//! .timelimit                      the time limit in seconds (DOMjudge)
//! problem_statement/problem.en.md statement.md as it is
//! data/sample/NNN-<test>.in|.ans  the plan's sample tests
//! data/secret/NNN-<test>.in|.ans  the plan's secret tests
//! submissions/<verdict>/...       the example submissions
//! ```
//!
//! `NNN` is the test's position in the plan, so Kattis's lexicographic order
//! is grundy's judging order. The data comes from the generated test set
//! (built first if it is missing), the answers being the reference solver's.
//!
//! Not exported: `validator.rs`, because a Kattis input validator signals a
//! valid input by exit status 42 and grundy's validators by 0; nor the
//! generator and the solvers, which Kattis has no place for.
//!
//! Known gap: problemtools reads Markdown statements only in the 2023-07
//! format (`statement/problem.en.md`); in this legacy layout it looks for
//! `problem_statement/problem.<lang>.tex` and reports no statement.
//!
//! The package is built in a scratch directory beside the target and renamed
//! into place at the end, so a failure leaves nothing half-written; the
//! target must not exist or be an empty directory, so no file of the user's
//! is ever overwritten.
//!
//! This layer sits above [`crate::data`]; it runs nothing itself.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::checker::CheckerKind;
use crate::data::{self, Progress, TestData};
use crate::problem::{Expected, Group, Problem};

/// Errors while exporting: each names the file and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: exists and is not an empty directory (export never overwrites files)")]
    Occupied { path: PathBuf },
    #[error("{path}: {what}")]
    Unsupported { path: PathBuf, what: String },
    #[error("{path}: {source}")]
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
}

/// Writes `problem` as a Kattis problem package into `out`, generating its
/// test data first if it is missing.
///
/// # Errors
/// [`Error::Occupied`] when `out` exists and is not an empty directory
/// (checked before anything is generated), [`Error::Unsupported`] for what
/// the format cannot express, and the test data's or the file system's
/// errors. On error `out` is left as it was.
pub fn kattis(
    problem: &Problem,
    data: &TestData,
    out: &Path,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Summary, Error> {
    refuse_occupied(out)?;
    let validation = validation(problem)?;
    let set = data.ensure(problem, progress)?;

    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(io(&parent))?;
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
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
        problem_yaml(problem, validation).as_bytes(),
    )?;
    write(
        &root.join(".timelimit"),
        format!("{}\n", problem.manifest.time_limit).as_bytes(),
    )?;
    let statement = root.join("problem_statement");
    mkdir(&statement)?;
    copy(
        &problem.dir.join("statement.md"),
        &statement.join("problem.en.md"),
    )?;

    let (mut samples, mut secrets) = (0, 0);
    let width = set.index.tests.len().to_string().len().max(3);
    for (i, test) in set.index.tests.iter().enumerate() {
        let group = match test.group {
            Group::Sample => {
                samples += 1;
                "sample"
            }
            Group::Secret => {
                secrets += 1;
                "secret"
            }
        };
        let dir = root.join("data").join(group);
        mkdir(&dir)?;
        let stem = format!("{:0width$}-{}", i + 1, test.name);
        copy(&set.input(test), &dir.join(format!("{stem}.in")))?;
        copy(&set.answer(test), &dir.join(format!("{stem}.ans")))?;
    }

    let mut submissions = BTreeMap::new();
    let mut memory_limit_exceeded = 0;
    for sub in problem.submissions() {
        let (dir, prefix) = submission_dir(sub.expected);
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
    })
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

/// The Kattis `validation` for the problem's checker.
///
/// # Errors
/// [`Error::Unsupported`] for a checker Kattis cannot express; every
/// checker grundy has now maps to one, and a new [`CheckerKind`] must be
/// decided here (the match is exhaustive).
fn validation(problem: &Problem) -> Result<&'static str, Error> {
    match problem.manifest.checker {
        // Kattis's default output validator compares whitespace-separated
        // tokens exactly, case-sensitively, unless flags say otherwise:
        // grundy's `tokens`.
        CheckerKind::Tokens => Ok("default"),
    }
}

/// `problem.yaml` in the legacy format: the time limit has no key there
/// (Kattis derives it from the accepted submissions), so it goes in
/// `.timelimit`, which DOMjudge reads.
fn problem_yaml(problem: &Problem, validation: &str) -> String {
    let m = &problem.manifest;
    format!(
        "# Exported by grundy from problems/{slug}.\n\
         # Time limit: {time} s of CPU time (in .timelimit, which DOMjudge reads).\n\
         name: {name}\n\
         source: {source}\n\
         validation: {validation}\n\
         limits:\n  memory: {memory}\n",
        slug = problem.slug,
        time = m.time_limit,
        name = yaml_string(&m.name),
        source = yaml_string(&m.source),
        memory = m.memory_limit,
    )
}

/// A YAML double-quoted scalar: `\` and `"` escaped, and every control or
/// line-breaking character written as an escape, so any text survives.
fn yaml_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}') => {
                out.push_str(&format!("\\u{:04X}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The Kattis directory for an expected outcome, and a prefix for the file
/// names there.
fn submission_dir(expected: Expected) -> (&'static str, &'static str) {
    match expected {
        Expected::Accepted => ("accepted", ""),
        Expected::WrongAnswer => ("wrong_answer", ""),
        Expected::TimeLimitExceeded => ("time_limit_exceeded", ""),
        Expected::RuntimeError => ("run_time_error", ""),
        // The legacy format has no directory for it: on Kattis a program
        // over the memory limit fails to allocate and crashes (Java exits
        // on OutOfMemoryError), which is judged a run-time error. The
        // prefix says why the file is there and keeps it apart from the
        // runtime_error submissions.
        Expected::MemoryLimitExceeded => ("run_time_error", "mle-"),
    }
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
        "c" | "cpp" | "cc" | "rs" | "py" => Ok(PathBuf::from(format!("{prefix}{file}"))),
        "java" if prefix.is_empty() && file == "Main.java" => Ok(PathBuf::from(file)),
        "java" => {
            let stem = path.file_stem().unwrap_or_default().to_string_lossy();
            Ok(PathBuf::from(format!("{prefix}{stem}")).join("Main.java"))
        }
        _ => Err(Error::Unsupported {
            path: path.to_path_buf(),
            what: "no Kattis language for this extension (expected .c .cpp .cc .rs .py .java)"
                .into(),
        }),
    }
}

fn is_python(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "py")
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
    fn yaml_string_escapes_quotes_backslashes_and_controls() {
        assert_eq!(yaml_string("Nim"), "\"Nim\"");
        assert_eq!(
            yaml_string("AcWing 891 Nim游戏: \"a\\b\""),
            "\"AcWing 891 Nim游戏: \\\"a\\\\b\\\"\""
        );
        assert_eq!(
            yaml_string("a\nb\tc\u{7}\u{2028}"),
            "\"a\\nb\\tc\\u0007\\u2028\""
        );
    }

    #[test]
    fn memory_limit_exceeded_becomes_a_prefixed_run_time_error() {
        assert_eq!(
            submission_dir(Expected::MemoryLimitExceeded),
            ("run_time_error", "mle-")
        );
        assert_eq!(
            submission_dir(Expected::RuntimeError),
            ("run_time_error", "")
        );
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
    fn unknown_extension_is_refused_naming_the_file() {
        let e = submission_target(Path::new("x/notes.txt"), "").unwrap_err();
        assert!(e.to_string().starts_with("x/notes.txt: no Kattis language"));
    }
}

//! `grundy import`: turns a Kattis package (read by
//! [`crate::problem::kattis`]) into a native problem under `problems/`,
//! keeping what it has as files:
//!
//! ```text
//! problem.toml            name, source, limits, checker, the test plan with
//!                         each test's input, answer and validator flags,
//!                         the groups of a scoring package
//! statement.md            the Markdown statement (or a pointer to the LaTeX one)
//! statement/              the package's statement directory as it is
//! tests/<name>.in|.ans    every test, answers as the package gives them
//! input_validators/...    the Kattis input validators (exit 42 valid)
//! output_validator/...    the output validator or interactor (Kattis protocol)
//! submissions/<expected>/ the example submissions, files and directories
//! ```
//!
//! Kattis's default validation becomes the `kattis` checker with each
//! test's flags. The time limit is the package's, or the one derived from
//! its accepted submissions (the caller derives it). Like `export`, the
//! problem is written in a scratch directory renamed into place, and an
//! existing problem is never overwritten.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::checker::{Checker, CheckerKind};
use crate::problem::{kattis, Problem, TestInput};

/// Errors while importing: each names the path and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: exists (import never overwrites a problem)")]
    Occupied { path: PathBuf },
    #[error("{slug:?} is not a slug (lower-case letters, digits and -)")]
    Slug { slug: String },
    #[error("{path}: {what}")]
    Unsupported { path: PathBuf, what: String },
    #[error("{path}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> Error {
    let path = path.to_path_buf();
    move |source| Error::Io { path, source }
}

/// What was imported.
#[derive(Debug)]
pub struct Summary {
    pub dir: PathBuf,
    pub tests: usize,
    pub submissions: usize,
}

/// The package, if grundy's own format can hold it (checked before any
/// work is done for an import).
///
/// # Errors
/// Not a Kattis package, or one of a kind grundy's format lacks
/// (multi-pass validation).
pub fn importable(problem: &Problem) -> Result<&kattis::Package, Error> {
    let Some(package) = &problem.kattis else {
        return Err(Error::Unsupported {
            path: problem.dir.clone(),
            what: "not a Kattis package (no problem.yaml)".into(),
        });
    };
    if package.multi_pass.is_some() {
        return Err(Error::Unsupported {
            path: problem.dir.join("problem.yaml"),
            what: "a multi-pass problem: grundy's own format has no multi-pass validation \
                   (judge and verify the package as it is instead)"
                .into(),
        });
    }
    Ok(package)
}

/// Writes the Kattis package `problem` as `problems_dir/slug`, with this
/// time limit (seconds).
///
/// # Errors
/// A taken or invalid slug, a package that is not a Kattis one, a file
/// that cannot be copied.
pub fn kattis(
    problem: &Problem,
    time_limit: f64,
    problems_dir: &Path,
    slug: &str,
) -> Result<Summary, Error> {
    let valid = !slug.is_empty()
        && !slug.starts_with('-')
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !valid {
        return Err(Error::Slug { slug: slug.into() });
    }
    let package = importable(problem)?;
    let out = problems_dir.join(slug);
    if out.exists() {
        return Err(Error::Occupied { path: out });
    }
    std::fs::create_dir_all(problems_dir).map_err(io(problems_dir))?;
    let scratch = tempfile::Builder::new()
        .prefix(&format!(".{slug}.import-"))
        .tempdir_in(problems_dir)
        .map_err(io(problems_dir))?;
    let root = scratch.path();
    let m = &problem.manifest;

    let mut toml = String::new();
    let q = |s: &str| toml::Value::String(s.to_string()).to_string();
    let _ = writeln!(
        toml,
        "# Imported from the Kattis package {}.",
        q(&package.short_name)
    );
    let _ = writeln!(toml, "name = {}", q(&m.name));
    let _ = writeln!(toml, "source = {}", q(&m.source));
    let _ = writeln!(toml, "time_limit = {time_limit:?}");
    let _ = writeln!(toml, "memory_limit = {}", m.memory_limit);

    // Checker and interactor: programs copied, then named.
    let copied = |rel: &Path, to: &str| -> Result<PathBuf, Error> {
        copy_program(&problem.dir, rel, root, to)
    };
    match &m.checker {
        Checker::Builtin(CheckerKind::Kattis { .. }) => {
            let _ = writeln!(toml, "checker = \"kattis\"");
        }
        Checker::Builtin(CheckerKind::Tokens) if m.interactor.is_some() => {}
        Checker::Builtin(other) => {
            return Err(Error::Unsupported {
                path: problem.dir.clone(),
                what: format!("checker {other:?} is not one a Kattis package has"),
            })
        }
        Checker::Program { source, protocol } => {
            let main = copied(source, "output_validator")?;
            let _ = writeln!(
                toml,
                "\n[checker]\nprogram = {}\nprotocol = {}",
                q(&main.display().to_string()),
                q(protocol_name(*protocol))
            );
        }
    }
    if let Some(i) = &m.interactor {
        let main = copied(&i.source, "output_validator")?;
        let _ = writeln!(
            toml,
            "\n[interactor]\nprogram = {}\nprotocol = {}",
            q(&main.display().to_string()),
            q(protocol_name(i.protocol))
        );
    }
    let mut validators = Vec::new();
    for rel in &m.input_validators {
        validators.push(q(&copied(rel, "input_validators")?.display().to_string()));
    }
    if !validators.is_empty() {
        // A top-level key: before any table.
        let at = toml.find("\n[").unwrap_or(toml.len());
        toml.insert_str(
            at,
            &format!("input_validators = [{}]\n", validators.join(", ")),
        );
    }

    for g in &m.groups {
        if g.name.is_sample() && g.points == 0 {
            continue;
        }
        let _ = writeln!(
            toml,
            "\n[[groups]]\nname = {}\npoints = {}",
            q(g.name.as_str()),
            g.points
        );
    }

    // Tests, as files.
    let tests_dir = root.join("tests");
    std::fs::create_dir_all(&tests_dir).map_err(io(&tests_dir))?;
    for t in &m.tests {
        let (TestInput::File(input), Some(answer)) = (&t.input, &t.answer) else {
            return Err(Error::Unsupported {
                path: problem.dir.clone(),
                what: format!("test {} has no input or answer file", t.name),
            });
        };
        let (to_in, to_ans) = (
            format!("tests/{}.in", t.name),
            format!("tests/{}.ans", t.name),
        );
        copy_file(&problem.dir.join(input), &root.join(&to_in))?;
        copy_file(&problem.dir.join(answer), &root.join(&to_ans))?;
        let _ = writeln!(
            toml,
            "\n[[tests]]\nname = {}\ngroup = {}\nfile = {}\nanswer = {}",
            q(&t.name),
            q(t.group.as_str()),
            q(&to_in),
            q(&to_ans)
        );
        if !t.input_flags.is_empty() {
            let _ = writeln!(toml, "input_flags = {}", q(&t.input_flags.join(" ")));
        }
        if !t.output_flags.is_empty() {
            let _ = writeln!(toml, "output_flags = {}", q(&t.output_flags.join(" ")));
        }
    }
    write(&root.join("problem.toml"), toml.as_bytes())?;

    // The statement.
    let statement = match &package.statement {
        Some(rel) if rel.extension().is_some_and(|e| e == "md") => {
            std::fs::read_to_string(problem.dir.join(rel)).map_err(io(&problem.dir.join(rel)))?
        }
        Some(rel) => format!(
            "# {}\n\nThe statement is the package's LaTeX, kept as it is in `statement/{}`.\n",
            m.name,
            rel.file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default()
        ),
        None => format!("# {}\n\nThe package has no statement.\n", m.name),
    };
    write(&root.join("statement.md"), statement.as_bytes())?;
    if let Some(rel) = &package.statement {
        if let Some(dir) = rel.parent() {
            copy_tree(&problem.dir.join(dir), &root.join("statement"))?;
        }
    }

    // Example submissions, under grundy's folder names.
    let mut submissions = 0;
    for sub in problem.submissions() {
        let name = sub.path.file_name().unwrap_or_default();
        let to = root
            .join("submissions")
            .join(sub.expected.dir_name())
            .join(name);
        if sub.path.is_dir() {
            copy_tree(&sub.path, &to)?;
        } else {
            copy_file(&sub.path, &to)?;
        }
        submissions += 1;
    }

    std::fs::rename(root, &out).map_err(|source| match source.kind() {
        std::io::ErrorKind::DirectoryNotEmpty | std::io::ErrorKind::AlreadyExists => {
            Error::Occupied { path: out.clone() }
        }
        _ => Error::Io {
            path: out.clone(),
            source,
        },
    })?;
    let _ = scratch.keep();
    Ok(Summary {
        dir: out,
        tests: m.tests.len(),
        submissions,
    })
}

/// A slug for `--as`'s absence: the package directory's name as a slug.
pub fn default_slug(problem: &Problem) -> String {
    problem
        .kattis
        .as_ref()
        .map(|k| kattis::slug_of(&k.short_name))
        .unwrap_or_else(|| problem.slug.clone())
}

fn protocol_name(p: crate::checker::special::Protocol) -> &'static str {
    match p {
        crate::checker::special::Protocol::Testlib => "testlib",
        crate::checker::special::Protocol::Kattis => "kattis",
    }
}

/// Copies a program (its main source `rel` under `from`) into `to_dir`
/// under `root`: a program in a directory of its own with that whole
/// directory, a single file with the headers beside it. Returns the main
/// source's new path, relative to `root`.
fn copy_program(from: &Path, rel: &Path, root: &Path, to_dir: &str) -> Result<PathBuf, Error> {
    let main = from.join(rel);
    let name = main.file_name().unwrap_or_default().to_owned();
    let parent = rel.parent().unwrap_or(Path::new(""));
    // A directory that builds itself is copied whole, wherever it is.
    let own_dir = parent.components().count() > 1 || kattis::is_scripted(from, rel);
    if own_dir {
        let dir_name = parent.file_name().unwrap_or_default();
        let target = Path::new(to_dir).join(dir_name);
        copy_tree(&from.join(parent), &root.join(&target))?;
        return Ok(target.join(name));
    }
    let target = Path::new(to_dir).join(&name);
    copy_file(&main, &root.join(&target))?;
    // Headers beside a single-file program (`testlib.h`), and the other
    // sources of an output validator that is the whole directory (they are
    // compiled with it, in the new place as in the old).
    let family = kattis::c_family(&main).filter(|_| kattis::in_program_dir(rel));
    for entry in std::fs::read_dir(from.join(parent))
        .map_err(io(&from.join(parent)))?
        .flatten()
    {
        let p = entry.path();
        let header = p.extension().is_some_and(|e| e == "h" || e == "hpp");
        let unit = family.is_some() && kattis::c_family(&p) == family;
        if p.is_file() && p != main && (header || unit) {
            copy_file(&p, &root.join(to_dir).join(entry.file_name()))?;
        }
    }
    Ok(target)
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(io(parent))?;
    }
    std::fs::write(path, bytes).map_err(io(path))
}

fn copy_file(from: &Path, to: &Path) -> Result<(), Error> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(io(parent))?;
    }
    std::fs::copy(from, to).map(|_| ()).map_err(io(from))
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), Error> {
    crate::problem::copy_tree(from, to).map_err(|(path, source)| Error::Io { path, source })
}

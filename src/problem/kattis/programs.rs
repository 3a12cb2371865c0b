//! The package's own programs (input validators, the output validator or
//! interactor) given as files or directories: which file is the main
//! source, which are compiled with it, which directories build themselves.

use std::path::{Path, PathBuf};

use super::super::manifest::is_inside;

pub(super) fn rel(base: &Path, path: &Path) -> PathBuf {
    path.strip_prefix(base).unwrap_or(path).to_path_buf()
}

pub(super) fn extension(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

/// The entries of a directory, hidden ones left out, sorted by name.
pub(super) fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
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
pub(super) fn output_validator(
    dir: &Path,
    format: &str,
) -> Result<Option<PathBuf>, (PathBuf, String)> {
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

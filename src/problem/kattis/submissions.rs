//! Submissions as Kattis takes them: the language by Kattis's own table
//! of extensions, and a directory as one program of several sources
//! (every source of its language compiled together, the entry point found
//! as Kattis finds it).
//!
//! Like the rest of the problem layer this only reads files; which
//! languages are configured is the caller's business (a name this module
//! gives may still be in a language grundy lacks).

use std::path::{Path, PathBuf};

use super::super::{ExampleSubmission, Expected};
use super::claims::Claims;

/// Kattis's extensions of the languages grundy has, and the extension
/// grundy's configuration knows each by. `.C` is C++ (the only case that
/// matters: `.c` is C).
const TABLE: &[(&str, &str)] = &[
    ("c", "c"),
    ("C", "cpp"),
    ("cc", "cpp"),
    ("cpp", "cpp"),
    ("cxx", "cpp"),
    ("c++", "cpp"),
    ("cs", "cs"),
    ("go", "go"),
    ("hs", "hs"),
    ("java", "java"),
    ("js", "js"),
    ("kt", "kt"),
    ("mjs", "mjs"),
    ("ml", "ml"),
    ("pas", "pas"),
    ("php", "php"),
    ("py", "py"),
    ("py3", "py"),
    ("rb", "rb"),
    ("rs", "rs"),
];

/// Extensions Kattis reads as Python 2, which grundy does not run.
const PYTHON2: &[&str] = &["py2"];

/// The extension grundy knows a Kattis source by (`cpp` for `x.cxx` or
/// `x.C`, `py` for `x.py3`); `None` for a file that is no source of a
/// language grundy has.
pub fn grundy_extension(path: &Path) -> Option<&'static str> {
    let ext = path.extension()?.to_str()?;
    TABLE
        .iter()
        .find(|(k, _)| *k == ext)
        .or_else(|| {
            // Kattis's table is lower-case but for `.C`.
            let lower = ext.to_ascii_lowercase();
            (ext != "c")
                .then(|| TABLE.iter().find(|(k, _)| *k == lower))
                .flatten()
        })
        .map(|(_, g)| *g)
}

/// The name a Kattis source is judged under: its own name with grundy's
/// extension for its language (`sol.cpp` for `sol.C`), or the name as it
/// is for a file outside Kattis's table.
pub fn judged_name(name: &str) -> String {
    let path = Path::new(name);
    match (grundy_extension(path), path.extension()) {
        (Some(g), Some(ext)) if ext != g => path.with_extension(g).display().to_string(),
        _ => name.to_string(),
    }
}

/// A file beside the main source: its path in the compile directory's
/// parent (`box/<name>`) and its bytes.
type Sibling = (PathBuf, Vec<u8>);

/// Why a submission is not judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotJudged {
    /// It is in a language grundy lacks (a skip, not a failure, where
    /// problemtools would judge it).
    Lacks(String),
    /// Something is wrong with it.
    Bad(String),
}

impl std::fmt::Display for NotJudged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotJudged::Lacks(why) | NotJudged::Bad(why) => f.write_str(why),
        }
    }
}

/// A submission as grundy compiles it.
#[derive(Debug, Clone, PartialEq)]
pub struct Files {
    /// The file its language and name come from (a directory's entry
    /// point).
    pub main: PathBuf,
    /// The name it is judged under: its language by the extension, and
    /// for Java the class named after it.
    pub name: String,
    pub text: Vec<u8>,
    /// Files beside the main source, as `box/<name>`.
    pub siblings: Vec<Sibling>,
    /// Further sources compiled with the main one (C and C++).
    pub units: Vec<String>,
}

/// The class that runs a Java submission whose main class is in a
/// package (or that has none): it loads and calls the real one (see
/// [`launcher`]).
const LAUNCHER: &str = "GrundyLauncher";

/// A submission given as a file or as a directory of one program, as
/// Kattis takes it (`kattis`: its table of extensions applies).
///
/// # Errors
/// [`NotJudged::Lacks`] for a directory with no source in a language
/// grundy builds or a Python 2 file; [`NotJudged::Bad`] for a directory
/// with `build`/`run` scripts, mixing languages, or with several Python
/// files and no `main.py`, and for unreadable files.
pub fn submission(path: &Path, kattis: bool) -> Result<Files, NotJudged> {
    submission_as(path, kattis, &Build::default())
}

/// How `submissions.yaml` says a submission is built: its language (a
/// code of Kattis's table) and its entry point (a file for Python, a
/// class for Java); `None`s: as the extensions and the defaults say.
#[derive(Debug, Clone, Copy, Default)]
pub struct Build<'a> {
    pub language: Option<&'a str>,
    pub entrypoint: Option<&'a str>,
}

/// Kattis's language codes (problemtools' ids) of the languages grundy
/// has, and grundy's extension for each: the language of that extension
/// in the shipped `config.toml` has that code as its `kattis_id`.
pub const LANGUAGE_CODES: &[(&str, &str)] = &[
    ("c", "c"),
    ("cpp", "cpp"),
    ("csharp", "cs"),
    ("go", "go"),
    ("haskell", "hs"),
    ("java", "java"),
    ("javascript", "js"),
    ("kotlin", "kt"),
    ("ocaml", "ml"),
    ("pascal", "pas"),
    ("php", "php"),
    ("python3", "py"),
    ("ruby", "rb"),
    ("rust", "rs"),
];

/// [`submission`], built as `build` says.
///
/// # Errors
/// As [`submission`]; besides, [`NotJudged::Lacks`] for a language grundy
/// does not have, and [`NotJudged::Bad`] for an entry point that names no
/// source.
pub fn submission_as(path: &Path, kattis: bool, build: &Build<'_>) -> Result<Files, NotJudged> {
    let wanted = match build.language {
        None => None,
        Some(code) => match LANGUAGE_CODES.iter().find(|(c, _)| *c == code) {
            Some((_, ext)) => Some(*ext),
            None => {
                return Err(NotJudged::Lacks(format!(
                    "{}: language {code} (as submissions.yaml says), which grundy does not run",
                    path.display()
                )))
            }
        },
    };
    let read = |p: &Path| {
        std::fs::read(p).map_err(|e| NotJudged::Bad(format!("reading {}: {e}", p.display())))
    };
    let own = |p: &Path| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    if !path.is_dir() {
        if kattis
            && path
                .extension()
                .is_some_and(|e| PYTHON2.iter().any(|p| e == *p))
        {
            return Err(NotJudged::Lacks(format!(
                "{}: Python 2 (.py2), which grundy does not run",
                path.display()
            )));
        }
        let name = own(path);
        let name = match wanted {
            Some(ext) if grundy_extension(path) != Some(ext) => {
                Path::new(&name).with_extension(ext).display().to_string()
            }
            _ if kattis => judged_name(&name),
            _ => name,
        };
        return Ok(Files {
            main: path.to_path_buf(),
            name,
            text: read(path)?,
            siblings: Vec::new(),
            units: Vec::new(),
        });
    }
    let shown = path.display();
    if path.join("build").is_file() || path.join("run").is_file() {
        return Err(NotJudged::Bad(format!("{shown}: a submission with build/run scripts, which grundy does not run; give its sources instead")));
    }
    // Files in folders below are part of the program too (a Java class in
    // its package's folder, a module a script imports from a folder); the
    // language is told by the files at the top, or by all where the top
    // has none.
    let every = files_below(path);
    let files: Vec<PathBuf> = every
        .iter()
        .filter(|f| f.parent() == Some(path))
        .cloned()
        .collect();
    let language_of = |fs: &[PathBuf]| -> Vec<&'static str> {
        let mut languages: Vec<&str> = fs
            .iter()
            .filter_map(|f| grundy_extension(f).map(family))
            .collect();
        languages.sort_unstable();
        languages.dedup();
        if let Some(ext) = wanted {
            languages.retain(|l| *l == family(ext));
        }
        languages
    };
    let mut languages = language_of(&files);
    let at_top = !languages.is_empty();
    if !at_top {
        languages = language_of(&every);
    }
    let language = match languages.as_slice() {
        [] => {
            return Err(NotJudged::Lacks(format!(
                "{shown}: no source in a language grundy builds"
            )))
        }
        [one] => *one,
        many => {
            return Err(NotJudged::Bad(format!(
                "{shown}: sources in several languages ({}): Kattis compiles a submission in one",
                many.join(", ")
            )))
        }
    };
    // Java compiles every source, wherever it lies; other languages take
    // their sources from the top (what lies below is beside them).
    let pool = if language == "java" || !at_top {
        &every
    } else {
        &files
    };
    let sources: Vec<&PathBuf> = pool
        .iter()
        .filter(|f| grundy_extension(f).map(family) == Some(language))
        .collect();
    let stem_is = |f: &&PathBuf, s: &str| f.file_stem().is_some_and(|x| x == s);
    // The entry point submissions.yaml names: a file (`main.py`, or its
    // stem), or a class (`Main`, `pkg.Main`) in the file named after it.
    let entry = match build.entrypoint {
        None => None,
        Some(e) => {
            let class = e.rsplit('.').next().unwrap_or(e);
            let found = sources.iter().find(|f| {
                let name = own(f);
                name == e || stem_is(f, e) || (language == "java" && stem_is(f, class))
            });
            match found {
                Some(f) => Some((*f).clone()),
                None => {
                    return Err(NotJudged::Bad(format!(
                        "{shown}: the entry point {e} (as submissions.yaml says) names none of its sources"
                    )))
                }
            }
        }
    };
    let mut texts = Vec::new();
    for f in &every {
        texts.push((f.clone(), read(f)?));
    }
    let text_of = |f: &Path| -> &[u8] {
        texts
            .iter()
            .find(|(p, _)| p == f)
            .map_or(&[][..], |(_, t)| t.as_slice())
    };
    let siblings_but = |main: Option<&Path>| -> Vec<Sibling> {
        texts
            .iter()
            .filter(|(p, _)| Some(p.as_path()) != main)
            .map(|(p, t)| {
                (
                    Path::new("box").join(p.strip_prefix(path).unwrap_or(p)),
                    t.clone(),
                )
            })
            .collect()
    };
    let (main, units) = match language {
        "c" | "cpp" => {
            // Every source is compiled; the one holding `main` is saved
            // under the language's name (`main.main.cpp`'s messages).
            let main = sources
                .iter()
                .find(|f| stem_is(f, "main"))
                .or_else(|| sources.iter().find(|f| defines_main(text_of(f))))
                .unwrap_or(&sources[0]);
            let units = sources
                .iter()
                .filter(|f| **f != *main)
                .map(|f| f.strip_prefix(path).unwrap_or(f).display().to_string())
                .collect();
            ((*main).clone(), units)
        }
        "py" => {
            // The format's default entry point is `__main__.py`; older
            // packages name it `main.py`.
            let main = match (&entry, sources.as_slice()) {
                (Some(e), _) => e,
                (None, [one]) => *one,
                (None, many) => match many
                    .iter()
                    .find(|f| stem_is(f, "__main__"))
                    .or_else(|| many.iter().find(|f| stem_is(f, "main")))
                {
                    Some(m) => *m,
                    None => {
                        return Err(NotJudged::Bad(format!(
                            "{shown}: several Python files and none named __main__.py or main.py: \
                             cannot tell which one runs (submissions.yaml may name it)"
                        )))
                    }
                },
            };
            (main.clone(), Vec::new())
        }
        "java" => return java(path, &sources, &texts, entry.as_deref()),
        _ => {
            // The entry point named, else `main.*`, else the one source no
            // other names (a module is imported by its file name).
            let unnamed: Vec<&&PathBuf> = sources
                .iter()
                .filter(|f| {
                    let name = own(f);
                    !texts.iter().any(|(p, t)| {
                        p != **f && String::from_utf8_lossy(t).contains(name.as_str())
                    })
                })
                .collect();
            let main = match (&entry, unnamed.as_slice()) {
                (Some(e), _) => e,
                (None, _) if sources.iter().any(|f| stem_is(f, "main")) => sources
                    .iter()
                    .find(|f| stem_is(f, "main"))
                    .unwrap_or(&sources[0]),
                (None, [one]) => **one,
                (None, _) => sources[0],
            };
            (main.clone(), Vec::new())
        }
    };
    let name = if kattis {
        judged_name(&own(&main))
    } else {
        own(&main)
    };
    Ok(Files {
        text: text_of(&main).to_vec(),
        siblings: siblings_but(Some(&main)),
        main,
        name,
        units,
    })
}

/// A Java submission of several classes: the class with a `main` method
/// runs. Every source is compiled, each placed in the folder its package
/// names (wherever it lay in the submission), so that javac writes each
/// class where the class path finds it. A main class in the default
/// package is the main source, named after its file; one in a package is
/// run by a launcher that calls it.
fn java(
    dir: &Path,
    sources: &[&PathBuf],
    texts: &[(PathBuf, Vec<u8>)],
    entry: Option<&Path>,
) -> Result<Files, NotJudged> {
    let text_of = |f: &Path| {
        texts
            .iter()
            .find(|(p, _)| p == f)
            .map_or(&[][..], |(_, t)| t.as_slice())
    };
    let with_main: Vec<&&PathBuf> = sources
        .iter()
        .filter(|f| java_has_main(text_of(f)))
        .collect();
    let chosen = match entry.and_then(|e| sources.iter().find(|f| f.as_path() == e)) {
        Some(named) => named,
        None => with_main.first().copied().unwrap_or(&sources[0]),
    };
    let own = |f: &Path| {
        f.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    // Where each source goes in the compile directory: its package's
    // folder.
    let mut placed: Vec<(&Path, PathBuf)> = Vec::new();
    for f in sources {
        let at = match java_package(text_of(f)) {
            Some(pkg) => pkg.split('.').collect::<PathBuf>().join(own(f)),
            None => PathBuf::from(own(f)),
        };
        if let Some((other, _)) = placed.iter().find(|(_, p)| *p == at) {
            return Err(NotJudged::Bad(format!(
                "{}: {} and {} are both {} in its package: one class, one source",
                dir.display(),
                other.strip_prefix(dir).unwrap_or(other).display(),
                f.strip_prefix(dir).unwrap_or(f).display(),
                at.display()
            )));
        }
        placed.push((f.as_path(), at));
    }
    // What is not Java lies where it lay.
    let others = texts
        .iter()
        .filter(|(p, _)| !sources.contains(&p))
        .map(|(p, t)| {
            let rel = p.strip_prefix(dir).unwrap_or(p);
            (Path::new("box").join(rel), t.clone())
        });
    let package = java_package(text_of(chosen));
    let in_default = package.is_none() && java_has_main(text_of(chosen));
    let siblings: Vec<Sibling> = placed
        .iter()
        .filter(|(f, _)| !(in_default && *f == chosen.as_path()))
        .map(|(f, at)| (Path::new("box").join(at), text_of(f).to_vec()))
        .chain(others)
        .collect();
    let units: Vec<String> = placed
        .iter()
        .filter(|(f, _)| !(in_default && *f == chosen.as_path()))
        .map(|(_, at)| at.display().to_string())
        .collect();
    if in_default {
        return Ok(Files {
            main: (*chosen).clone(),
            name: own(chosen),
            text: text_of(chosen).to_vec(),
            siblings,
            units,
        });
    }
    let stem = chosen
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let class = match package {
        Some(pkg) => format!("{pkg}.{stem}"),
        None => stem,
    };
    Ok(Files {
        main: dir.join(format!("{LAUNCHER}.java")),
        name: format!("{LAUNCHER}.java"),
        text: launcher(&class).into_bytes(),
        siblings,
        units,
    })
}

/// Every file in `dir` and the folders below it (hidden ones left out),
/// sorted.
fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in super::sorted_entries(dir) {
        if entry.is_dir() {
            out.extend(files_below(&entry));
        } else if entry.is_file() {
            out.push(entry);
        }
    }
    out.sort();
    out
}

/// One language's extensions as one: `.mjs` is JavaScript as `.js` is.
fn family(ext: &'static str) -> &'static str {
    match ext {
        "mjs" => "js",
        other => other,
    }
}

/// The launcher's source for the main class `class` (in a package): it
/// calls the class's `main`, which javac checks exists (a submission
/// without one does not compile, as on Kattis). Every class is compiled in
/// its package's folder, where the class path finds it.
fn launcher(class: &str) -> String {
    format!(
        r#"// Written by grundy: runs the submission's main class, {class}.
public class {LAUNCHER} {{
    public static void main(java.lang.String[] args) throws java.lang.Throwable {{
        {class}.main(args);
    }}
}}
"#
    )
}

/// Whether a C or C++ source defines `main` (a rough look: `main(` after
/// a word boundary).
fn defines_main(text: &[u8]) -> bool {
    let text = String::from_utf8_lossy(text);
    text.match_indices("main").any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + 4..].trim_start().starts_with('(');
        after && !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// Whether a Java source declares a `main` method.
fn java_has_main(text: &[u8]) -> bool {
    let text = String::from_utf8_lossy(text);
    let squeezed: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    squeezed.contains("static void main(") || squeezed.contains("static void main (")
}

/// The package a Java source declares, if any.
fn java_package(text: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(text);
    text.lines().map(str::trim).find_map(|l| {
        let rest = l.strip_prefix("package")?;
        if !rest.starts_with(char::is_whitespace) {
            return None;
        }
        let name = rest.trim().trim_end_matches(';').trim();
        (!name.is_empty()
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == '$'))
        .then(|| name.to_string())
    })
}

/// The Kattis submission folders and grundy's expectation of each.
fn expected_of(folder: &str) -> Option<Expected> {
    Some(match folder {
        "accepted" => Expected::Accepted,
        "wrong_answer" => Expected::WrongAnswer,
        "time_limit_exceeded" => Expected::TimeLimitExceeded,
        "run_time_error" => Expected::RuntimeError,
        "partially_accepted" => Expected::PartiallyAccepted,
        "rejected" => Expected::Rejected,
        "brute_force" => Expected::BruteForce,
        _ => return None,
    })
}

/// The example submissions of the package in `dir`, with what
/// `submissions.yaml` says of each where it has one; and those in folders
/// grundy has no verdict for, with the folder.
///
/// # Errors
/// A malformed `submissions.yaml`: its path and what is wrong.
pub(super) fn example_submissions(dir: &Path) -> Result<Examples, (PathBuf, String)> {
    let claims = Claims::read(dir)?;
    let mut judged = Vec::new();
    let mut unjudged = Vec::new();
    for folder in super::sorted_entries(&dir.join("submissions")) {
        if !folder.is_dir() {
            continue;
        }
        let name = folder
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for path in super::sorted_entries(&folder) {
            let rel = format!("{name}/{}", own_name(&path));
            match expected_of(&name) {
                Some(expected) => judged.push(ExampleSubmission {
                    expected,
                    claimed: claims
                        .as_ref()
                        .map(|c| Box::new(c.for_submission(&rel, &name))),
                    path,
                }),
                None => unjudged.push((path, name.clone())),
            }
        }
    }
    judged.sort_by(|a, b| (a.expected, &a.path).cmp(&(b.expected, &b.path)));
    Ok((judged, unjudged))
}

/// The judged example submissions and the others with their folder.
type Examples = (Vec<ExampleSubmission>, Vec<(PathBuf, String)>);

fn own_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kattis_extensions_map_onto_grundys() {
        let table = [
            ("a.c", Some("c")),
            ("a.C", Some("cpp")),
            ("a.c++", Some("cpp")),
            ("a.cxx", Some("cpp")),
            ("a.cc", Some("cpp")),
            ("a.py3", Some("py")),
            ("a.CPP", Some("cpp")),
            ("a.cs", Some("cs")),
            ("a.go", Some("go")),
            ("a.hs", Some("hs")),
            ("a.js", Some("js")),
            ("a.kt", Some("kt")),
            ("a.ml", Some("ml")),
            ("a.pas", Some("pas")),
            ("a.php", Some("php")),
            ("a.rb", Some("rb")),
            ("a.py2", None),
            ("a.scala", None),
        ];
        for (name, want) in table {
            assert_eq!(grundy_extension(Path::new(name)), want, "{name}");
        }
        assert_eq!(judged_name("sol.C"), "sol.cpp");
        assert_eq!(judged_name("Sol.java"), "Sol.java");
        assert_eq!(judged_name("x.py3"), "x.py");
    }

    #[test]
    fn a_language_code_of_submissions_yaml_names_grundys_language() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("solution.txt");
        std::fs::write(&file, "fun main() {}\n").unwrap();
        for (code, ext) in [
            ("kotlin", "kt"),
            ("csharp", "cs"),
            ("javascript", "js"),
            ("ocaml", "ml"),
            ("pascal", "pas"),
            ("haskell", "hs"),
            ("go", "go"),
            ("ruby", "rb"),
            ("php", "php"),
        ] {
            let build = Build {
                language: Some(code),
                entrypoint: None,
            };
            let files = submission_as(&file, true, &build).unwrap();
            assert_eq!(files.name, format!("solution.{ext}"), "{code}");
        }
        let build = Build {
            language: Some("scala"),
            entrypoint: None,
        };
        assert!(matches!(
            submission_as(&file, true, &build),
            Err(NotJudged::Lacks(_))
        ));
    }

    #[test]
    fn java_packages_and_mains_are_read() {
        assert_eq!(
            java_package(b"// x\npackage a.b;\nclass C {}\n").as_deref(),
            Some("a.b")
        );
        assert_eq!(java_package(b"class packaged {}\n"), None);
        assert!(java_has_main(b"public static  void main(String[] a) {}"));
        assert!(!java_has_main(b"void mainly() {}"));
        assert!(defines_main(b"int main() {}"));
        assert!(!defines_main(b"int domain(int x);"));
    }
}

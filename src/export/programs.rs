//! The package's programs in Kattis's terms: how outputs are validated
//! (default validation with flags, or the checker or interactor as
//! `output_validator/`), the package's own programs copied as Kattis takes
//! them, and `validator.rs` rewritten as an input validator.

use std::path::{Path, PathBuf};

use super::{copy, io, mkdir, validator, Error};
use crate::checker::special::Protocol;
use crate::checker::{Checker, CheckerKind};
use crate::problem::{kattis, Group, Problem, Role};

/// How the package's outputs are validated in Kattis's terms.
pub(super) struct Validation {
    /// The output validator's (or interactor's) main source, relative to
    /// the problem; `None` for Kattis's default validation.
    pub program: Option<PathBuf>,
    pub interactive: bool,
    /// (output validator flags, input validator flags) for all of `data/`,
    /// else for `data/sample` and `data/secret` apart.
    pub flags: Flags,
    pub sample_flags: Flags,
    pub secret_flags: Flags,
    /// The flags of each scored group's tests, for a problem with groups
    /// (whose secret tests have no flags in common to set once).
    pub group_flags: Vec<(Group, Flags)>,
}

pub(super) type Flags = (Option<String>, Option<String>);

/// Kattis's validation for the problem's checker: the default one with
/// flags (`tokens` is `case_sensitive`, an imported `kattis` checker keeps
/// its tests' flags), or its Kattis-protocol checker or interactor.
///
/// # Errors
/// [`Error::Unsupported`] for a checker Kattis cannot express, and for
/// tests of one group with different flags.
pub(super) fn output_validation(problem: &Problem) -> Result<Validation, Error> {
    let m = &problem.manifest;
    let unsupported = |what: String| Error::Unsupported {
        path: problem.dir.join("problem.toml"),
        what,
    };
    let mut validation = Validation {
        program: None,
        interactive: false,
        flags: (None, None),
        sample_flags: (None, None),
        secret_flags: (None, None),
        group_flags: Vec::new(),
    };
    let per_test: bool;
    match (&m.checker, &m.interactor) {
        (_, Some(i)) if i.protocol == Protocol::Kattis => {
            validation.program = Some(i.source.clone());
            validation.interactive = true;
            per_test = true;
        }
        (_, Some(_)) => {
            return Err(unsupported(
                "a testlib interactor has no Kattis equivalent (Kattis interactors exit 42/43)"
                    .into(),
            ))
        }
        // Kattis's default validator compares tokens ignoring case unless
        // told `case_sensitive`: grundy's `tokens`.
        (Checker::Builtin(CheckerKind::Tokens), None) => {
            validation.flags.0 = Some("case_sensitive".into());
            per_test = false;
        }
        (Checker::Builtin(CheckerKind::Kattis { .. }), None) => per_test = true,
        (Checker::Program { source, protocol }, None) if *protocol == Protocol::Kattis => {
            validation.program = Some(source.clone());
            per_test = true;
        }
        (other, None) => {
            return Err(unsupported(format!(
                "checker {other:?} has no Kattis equivalent in grundy's export yet"
            )))
        }
    }
    // Flags per group, from the tests.
    type Pick<'a> = &'a dyn Fn(&crate::problem::TestCase) -> String;
    let group_flags = |member: &dyn Fn(&crate::problem::TestCase) -> bool, pick: Pick| {
        let mut seen: Option<String> = None;
        for t in m.tests.iter().filter(|t| member(t)) {
            let f = pick(t);
            match &seen {
                Some(s) if *s != f => {
                    return Err(unsupported(format!(
                        "tests of one group with different validator flags ({s:?} and {f:?}); Kattis sets them per directory"
                    )))
                }
                _ => seen = Some(f),
            }
        }
        Ok(seen)
    };
    let output = |t: &crate::problem::TestCase| t.output_flags.join(" ");
    let input = |t: &crate::problem::TestCase| t.input_flags.join(" ");
    let sample = |t: &crate::problem::TestCase| t.group.is_sample();
    if per_test {
        validation.sample_flags.0 = group_flags(&sample, &output)?;
    }
    validation.sample_flags.1 = group_flags(&sample, &input)?;
    if !m.groups.is_empty() {
        // Scored: every group is a directory with its own flags.
        for g in m.groups.iter().filter(|g| !g.name.is_sample()) {
            let member = |t: &crate::problem::TestCase| t.group == g.name;
            let out = match per_test {
                true => group_flags(&member, &output)?,
                false => None,
            };
            let flags = (out, group_flags(&member, &input)?);
            validation.group_flags.push((g.name.clone(), flags));
        }
        return Ok(validation);
    }
    let secret = |t: &crate::problem::TestCase| !t.group.is_sample();
    if per_test {
        validation.secret_flags.0 = group_flags(&secret, &output)?;
    }
    validation.secret_flags.1 = group_flags(&secret, &input)?;
    if validation.sample_flags == validation.secret_flags && validation.flags.0.is_none() {
        validation.flags = validation.sample_flags.clone();
        validation.sample_flags = (None, None);
        validation.secret_flags = (None, None);
    }
    Ok(validation)
}

/// Copies a program of the package (its main source `rel`) into `to`: a
/// program in a directory of its own as that directory (problemtools takes
/// each entry of `output_validator/` and `input_validators/` as one
/// program; with `is_to` the directory's files go right into `to`), a
/// single file with the headers beside it.
pub(super) fn copy_program(
    problem: &Problem,
    rel: &Path,
    to: &Path,
    is_to: bool,
) -> Result<(), Error> {
    let main = problem.dir.join(rel);
    let parent = main.parent().unwrap_or(&problem.dir);
    mkdir(to)?;
    let scripted = kattis::is_scripted(&problem.dir, rel);
    if parent != problem.dir && (rel.components().count() > 2 || scripted) {
        let name = parent.file_name().unwrap_or_default();
        let target = if is_to {
            to.to_path_buf()
        } else {
            to.join(name)
        };
        return crate::problem::copy_tree(parent, &target)
            .map_err(|(path, source)| Error::Io { path, source });
    }
    copy(&main, &to.join(main.file_name().unwrap_or_default()))?;
    // The headers beside it, and the other sources of a program that is
    // its whole directory (`output_validator/`: compiled together).
    let family = kattis::c_family(&main).filter(|_| kattis::in_program_dir(rel));
    for entry in std::fs::read_dir(parent).map_err(io(parent))?.flatten() {
        let p = entry.path();
        let header = p.extension().is_some_and(|e| e == "h" || e == "hpp");
        let unit = family.is_some() && p != main && kattis::c_family(&p) == family;
        if p.is_file() && (header || unit) {
            copy(&p, &to.join(entry.file_name()))?;
        }
    }
    Ok(())
}

/// The problem's `validator.rs` rewritten as a Kattis input validator, or
/// `None` when it has none.
///
/// # Errors
/// [`Error::Unsupported`] naming the validator when the rewrite does not
/// understand its shape, and [`Error::Io`] for a file it cannot read.
pub(super) fn input_validator(problem: &Problem) -> Result<Option<String>, Error> {
    if !problem.has(Role::Validator) {
        return Ok(None);
    }
    let path = problem.program_path(Role::Validator);
    let source = std::fs::read_to_string(&path).map_err(io(&path))?;
    let read_module = |rel: &str| {
        let file = problem.dir.join(rel);
        std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))
    };
    let name = format!("problems/{}/{}", problem.slug, Role::Validator.file_name());
    validator::kattis_validator(&name, &source, &read_module)
        .map(Some)
        .map_err(|e| Error::Unsupported {
            path,
            what: format!("cannot make a Kattis input validator: {e}"),
        })
}

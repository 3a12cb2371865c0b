//! `grundy languages`: each configured language and its toolchain, and
//! what `grundy doctor` shares with it: which missing toolchains are a
//! fault of this judge's setup.
//!
//! Exit status: 0 when every language marked `required` works and at least
//! one language does, 1 otherwise (a missing optional toolchain is listed
//! with the tool's own reason, not a failure).

use std::io::Write;

use crate::context::Context;

/// One configured language as its probe found it.
pub(super) struct Probed {
    pub id: String,
    pub required: bool,
    /// The toolchain's version line, or why it does not work.
    pub version: Result<String, String>,
}

/// Probes every configured language's toolchain (in the box).
pub(super) fn probe(ctx: &Context) -> Vec<Probed> {
    ctx.languages
        .iter()
        .map(|lang| Probed {
            id: lang.id.clone(),
            required: lang.config.required,
            version: lang.version(ctx.runner().as_ref()),
        })
        .collect()
}

/// What of the probes is a fault of the judge's setup, one line each: a
/// required language that does not work, or no language that works. A
/// missing toolchain of any other language is not one: an organiser keeps
/// the languages the machine has, and the rest are simply not offered.
pub(super) fn faults(probed: &[Probed]) -> Vec<String> {
    let mut faults: Vec<String> = probed
        .iter()
        .filter(|p| p.required && p.version.is_err())
        .map(|p| format!("required language {} does not work", p.id))
        .collect();
    if !probed.iter().any(|p| p.version.is_ok()) {
        faults.push("no configured language works".to_string());
    }
    faults
}

/// How a language that does not work is marked: `MISSING` where the
/// configuration requires it, `missing` where it is optional.
pub(super) fn missing_word(required: bool) -> &'static str {
    if required {
        "MISSING (required)"
    } else {
        "missing"
    }
}

/// The closing line when some optional toolchains are missing, saying
/// that this is no failure; `None` when none is.
pub(super) fn optional_note(probed: &[Probed]) -> Option<String> {
    let working = probed.iter().filter(|p| p.version.is_ok()).count();
    let optional = probed
        .iter()
        .filter(|p| !p.required && p.version.is_err())
        .count();
    (optional > 0 && working > 0).then(|| {
        format!(
            "{working} of {} {} work; the {optional} missing {} optional here \
             (`required = true` under [languages.ID] makes one a requirement)",
            probed.len(),
            crate::plural::plural(probed.len(), "language", "languages"),
            crate::plural::plural(optional, "one is", "ones are"),
        )
    })
}

pub fn run(ctx: &Context) -> anyhow::Result<u8> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let probed = probe(ctx);
    for (lang, found) in ctx.languages.iter().zip(&probed) {
        let exts: Vec<String> = lang
            .config
            .extensions
            .iter()
            .map(|e| format!(".{e}"))
            .collect();
        let status = match &found.version {
            Ok(v) => v.clone(),
            Err(why) => format!("{}: {why}", missing_word(found.required)),
        };
        writeln!(
            out,
            "{:<8} {:<20} {:<16} {}",
            lang.id,
            lang.config.name,
            exts.join(" "),
            status
        )?;
    }
    if let Some(note) = optional_note(&probed) {
        writeln!(out, "{note}")?;
    }
    report_faults(&faults(&probed))
}

/// Prints the faults found as one line on stderr; the exit status they make.
pub(super) fn report_faults(faults: &[String]) -> anyhow::Result<u8> {
    if faults.is_empty() {
        return Ok(0);
    }
    eprintln!("grundy: {}", faults.join("; "));
    Ok(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probed(list: &[(&str, bool, bool)]) -> Vec<Probed> {
        list.iter()
            .map(|&(id, required, works)| Probed {
                id: id.to_string(),
                required,
                version: if works {
                    Ok("1.0".to_string())
                } else {
                    Err("x not found".to_string())
                },
            })
            .collect()
    }

    /// Issue 47: a machine with only the languages its organiser kept is
    /// in order; a required language that does not work, or none working
    /// at all, is a fault.
    #[test]
    fn only_required_languages_and_having_one_at_all_make_a_fault() {
        // (language, required, works) of each probe, and the faults.
        type Probes<'a> = &'a [(&'a str, bool, bool)];
        let cases: &[(Probes, &[&str])] = &[
            (&[("c", false, true), ("rust", false, false)], &[]),
            (&[("c", true, true), ("java", false, false)], &[]),
            (
                &[("c", false, true), ("java", true, false)],
                &["required language java does not work"],
            ),
            (
                &[("c", false, false), ("rust", false, false)],
                &["no configured language works"],
            ),
            (&[], &["no configured language works"]),
        ];
        for (list, want) in cases {
            assert_eq!(faults(&probed(list)), *want, "{list:?}");
        }
    }

    #[test]
    fn the_note_counts_what_works_and_what_is_optional() {
        assert_eq!(optional_note(&probed(&[("c", false, true)])), None);
        assert_eq!(
            optional_note(&probed(&[("c", false, true), ("rust", false, false)])).unwrap(),
            "1 of 2 languages work; the 1 missing one is optional here \
             (`required = true` under [languages.ID] makes one a requirement)"
        );
    }
}

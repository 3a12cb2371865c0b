//! `problem.yaml` as the export writes it (2023-07), and the uuid that
//! names a problem on Kattis.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_yaml_ng::Value;
use sha2::{Digest, Sha256};

use crate::problem::Problem;

/// `problem.yaml` of the 2023-07 format, as serialized.
#[derive(Debug, Serialize)]
struct ProblemYaml<'a> {
    problem_format_version: &'static str,
    uuid: String,
    /// The name per language: English, the statement's.
    name: BTreeMap<&'static str, &'a str>,
    /// `scoring`, `interactive`, or both as a list; absent for pass-fail.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    kind: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<&'a str>,
    license: &'static str,
    limits: LimitsYaml,
}

#[derive(Debug, Serialize)]
struct LimitsYaml {
    /// Seconds.
    time_limit: f64,
    /// MiB.
    memory: u64,
}

/// `problem.yaml` in the 2023-07 format, serialized from its fields, after
/// comment lines saying where it comes from and the notes. The name is
/// given for English, the statement's language. No licence is claimed: the
/// problems come from other judges, and grundy has not chosen one for them
/// (Kattis warns about `unknown`; any other value would be a claim).
pub(super) fn problem_yaml(
    problem: &Problem,
    interactive: bool,
    scoring: bool,
    notes: &[String],
) -> String {
    let m = &problem.manifest;
    let kinds: Vec<&str> = [(scoring, "scoring"), (interactive, "interactive")]
        .into_iter()
        .filter_map(|(on, kind)| on.then_some(kind))
        .collect();
    let kind = match kinds.as_slice() {
        [] => None,
        [one] => Some(Value::String((*one).into())),
        many => Some(Value::Sequence(
            many.iter().map(|k| Value::String((*k).into())).collect(),
        )),
    };
    let yaml = ProblemYaml {
        problem_format_version: "2023-07-draft",
        uuid: uuid(&problem.slug),
        name: BTreeMap::from([("en", m.name.as_str())]),
        kind,
        source: Some(m.source.trim()).filter(|s| !s.is_empty()),
        license: "unknown",
        limits: LimitsYaml {
            time_limit: m.time_limit,
            memory: m.memory_limit,
        },
    };
    let mut out = format!("# Exported by grundy from problems/{}.\n", problem.slug);
    for n in notes {
        // A note is one comment line, whatever it holds.
        out.push_str(&format!("# Note: {}.\n", n.replace(['\n', '\r'], " ")));
    }
    out.push_str(&to_text(&yaml));
    out
}

/// One `testdata.yaml`: the flags of a test-data group and its grading
/// (problemtools' keys); empty where it sets nothing.
#[derive(Debug, Default, Serialize)]
pub(super) struct Testdata {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_validator_flags: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_validator_flags: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accept_score: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grader_flags: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_reject: Option<&'static str>,
}

impl Testdata {
    /// The file's text; empty when it sets nothing (no file is written).
    pub fn text(&self) -> String {
        let empty = self.output_validator_flags.is_none()
            && self.input_validator_flags.is_none()
            && self.accept_score.is_none()
            && self.grader_flags.is_none()
            && self.on_reject.is_none();
        if empty {
            String::new()
        } else {
            to_text(self)
        }
    }
}

/// A value as YAML. Serializing these plain structs (strings, numbers,
/// maps) cannot fail.
fn to_text<T: Serialize>(value: &T) -> String {
    serde_yaml_ng::to_string(value).unwrap_or_else(|e| format!("# not serialized: {e}\n"))
}

/// A UUID that stays the same across exports of one problem: the first 16
/// bytes of SHA-256 of `grundy:<slug>`, marked as version 8 (RFC 9562's
/// custom UUIDs, whose example is this name-based use of SHA-256).
pub(super) fn uuid(slug: &str) -> String {
    let digest = Sha256::digest(format!("grundy:{slug}").as_bytes());
    let mut b = [0u8; 16];
    b.copy_from_slice(&digest[..16]);
    b[6] = (b[6] & 0x0f) | 0x80;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn testdata_is_empty_when_it_sets_nothing_and_quotes_what_needs_it() {
        assert_eq!(Testdata::default().text(), "");
        let t = Testdata {
            output_validator_flags: Some("float_tolerance 1e-6".into()),
            accept_score: Some(30),
            grader_flags: Some("min"),
            ..Testdata::default()
        };
        let back: Value = serde_yaml_ng::from_str(&t.text()).unwrap();
        assert_eq!(back["output_validator_flags"], "float_tolerance 1e-6");
        assert_eq!(back["accept_score"], 30);
        assert_eq!(back["grader_flags"], "min");
        assert!(back.get("on_reject").is_none());
    }

    #[test]
    fn uuid_is_a_version_8_uuid_fixed_by_the_slug() {
        let id = uuid("nim");
        assert_eq!(id, uuid("nim"));
        assert_ne!(id, uuid("anti-nim"));
        let groups: Vec<usize> = id.split('-').map(str::len).collect();
        assert_eq!(groups, [8, 4, 4, 4, 12], "{id}");
        assert!(id
            .bytes()
            .all(|b| b == b'-' || b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
        assert_eq!(&id[14..15], "8", "version: {id}");
        assert!("89ab".contains(&id[19..20]), "variant: {id}");
        // Kattis knows a problem by its uuid: it must not change between
        // grundy versions either.
        assert_eq!(id, "a2f8b8d2-9003-89fd-8fe4-7c123c898a3d");
    }
}

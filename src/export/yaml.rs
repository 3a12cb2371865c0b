//! `problem.yaml` as the export writes it (2023-07), and the uuid that
//! names a problem on Kattis.

use sha2::{Digest, Sha256};

use crate::problem::Problem;

/// `problem.yaml` in the 2023-07 format. The name is given for English,
/// the statement's language. No licence is claimed: the problems come from
/// other judges, and grundy has not chosen one for them (Kattis warns about
/// `unknown`; any other value would be a claim).
pub(super) fn problem_yaml(
    problem: &Problem,
    interactive: bool,
    scoring: bool,
    notes: &[String],
) -> String {
    let m = &problem.manifest;
    let source = if m.source.trim().is_empty() {
        String::new()
    } else {
        format!("source: {}\n", yaml_string(&m.source))
    };
    let notes: String = notes.iter().map(|n| format!("# Note: {n}.\n")).collect();
    format!(
        "# Exported by grundy from problems/{slug}.\n\
         {notes}\
         problem_format_version: 2023-07-draft\n\
         uuid: {uuid}\n\
         name:\n  en: {name}\n\
         {kind}\
         {source}\
         license: unknown\n\
         limits:\n  time_limit: {time}\n  memory: {memory}\n",
        slug = problem.slug,
        uuid = uuid(&problem.slug),
        name = yaml_string(&m.name),
        time = m.time_limit,
        memory = m.memory_limit,
        kind = match (scoring, interactive) {
            (true, true) => "type: [scoring, interactive]\n",
            (true, false) => "type: scoring\n",
            (false, true) => "type: interactive\n",
            (false, false) => "",
        },
    )
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

/// A YAML double-quoted scalar: `\` and `"` escaped, and every control or
/// line-breaking character written as an escape, so any text survives.
pub(super) fn yaml_string(text: &str) -> String {
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

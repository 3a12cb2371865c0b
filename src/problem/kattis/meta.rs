//! `problem.yaml`: the package's metadata, its type and validation, and
//! its limits (time, memory, and the rest of Kattis's `limits`, with the
//! format's defaults).

use std::path::Path;

use serde_yaml_ng::Value;

/// The memory limit problemtools assumes when `problem.yaml` gives none, MiB.
const DEFAULT_MEMORY: u64 = 1024;

/// Kattis's limits beyond time and memory (`limits.*` of `problem.yaml`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// `limits.output`: what a submission may write, MiB (default 8).
    pub output_mib: u64,
    /// `limits.code`: the size of a submission's source, KiB (default 128).
    pub code_kib: u64,
    /// `limits.validation_time`: seconds for a validator's run (default 60).
    pub validation_time: f64,
    /// `limits.validation_memory`: MiB for a validator's run (default 2048).
    pub validation_memory_mib: u64,
    /// `limits.validation_output`: what an output validator may write, MiB
    /// (default 8).
    pub validation_output_mib: u64,
    /// `limits.validation_passes`: how many times a multi-pass problem may
    /// run the submission on one test (default 2; read only for one).
    pub validation_passes: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            output_mib: 8,
            code_kib: 128,
            validation_time: 60.0,
            validation_memory_mib: 2048,
            validation_output_mib: 8,
            validation_passes: 2,
        }
    }
}

/// Kattis's time limit: fixed by the package, or derived from the slowest
/// accepted submission as problemtools does it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeRule {
    /// Seconds, when `problem.yaml` (or DOMjudge's `.timelimit`) fixes it.
    pub fixed: Option<f64>,
    /// The slowest accepted run times this is the limit (legacy
    /// `time_multiplier`, default 5; 2023-07 `ac_to_time_limit`, default 2).
    pub ac_to_time_limit: f64,
    /// The limit times this is the bound a time-limit-exceeded submission
    /// must exceed (legacy `time_safety_margin`, 2023-07 `time_limit_to_tle`).
    pub time_limit_to_tle: f64,
    /// The derived limit is a whole multiple of this (default 1 s).
    pub resolution: f64,
}

impl TimeRule {
    /// The limit problemtools sets for a slowest accepted run of
    /// `slowest` seconds: `slowest × ac_to_time_limit` rounded up to the
    /// resolution, at least one resolution step.
    pub fn derive(&self, slowest: f64) -> f64 {
        let exact = slowest * self.ac_to_time_limit;
        let steps = (exact / self.resolution).ceil().max(1.0);
        steps * self.resolution
    }
}

/// What `problem.yaml` says, parsed.
#[derive(Debug)]
pub(super) struct Meta {
    pub(super) format: &'static str,
    pub(super) name: Option<String>,
    pub(super) source: String,
    pub(super) scoring: bool,
    pub(super) interactive: bool,
    pub(super) custom_validation: bool,
    pub(super) custom_score: bool,
    /// The output validator may ask for another pass (`nextpass.in`).
    pub(super) multi_pass: bool,
    pub(super) validator_flags: Vec<String>,
    pub(super) memory: u64,
    pub(super) time_limit: Option<f64>,
    pub(super) ac_to_time_limit: f64,
    pub(super) time_limit_to_tle: f64,
    pub(super) resolution: f64,
    pub(super) limits: Limits,
}

pub(super) fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").to_string()
}

pub(super) fn get<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    v.as_mapping()?.get(Value::String(key.into()))
}

pub(super) fn as_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

pub(super) fn number(v: Option<&Value>, field: &str) -> Result<Option<f64>, String> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_f64()
            .filter(|x| x.is_finite() && *x > 0.0)
            .map(Some)
            .ok_or_else(|| format!("{field}: {n} is not a positive number")),
        Some(other) => Err(format!("{field}: {other:?} is not a number")),
    }
}

impl Meta {
    pub(super) fn read(yaml: &Value) -> Result<Meta, String> {
        if yaml.as_mapping().is_none() {
            return Err("not a mapping of keys to values".into());
        }
        let format = match get(yaml, "problem_format_version")
            .and_then(as_text)
            .as_deref()
        {
            None | Some("legacy") => "legacy",
            Some(v) if v.starts_with("2023-07") => "2023-07",
            Some(v) => {
                return Err(format!(
                    "problem_format_version: {v:?} is not one grundy reads (legacy, 2023-07-draft)"
                ))
            }
        };
        let name = match get(yaml, "name") {
            None | Some(Value::Null) => None,
            Some(Value::Mapping(m)) => m
                .get(Value::String("en".into()))
                .or_else(|| m.values().next())
                .and_then(as_text),
            Some(v) => Some(as_text(v).ok_or("name: not a string or a map of languages")?),
        };
        let source = match get(yaml, "source") {
            None | Some(Value::Null) => String::new(),
            Some(Value::Mapping(m)) => m
                .get(Value::String("name".into()))
                .and_then(as_text)
                .unwrap_or_default(),
            Some(Value::Sequence(s)) => s.iter().filter_map(as_text).collect::<Vec<_>>().join(", "),
            Some(v) => as_text(v).unwrap_or_default(),
        };
        let types: Vec<String> = match get(yaml, "type") {
            None | Some(Value::Null) => vec!["pass-fail".into()],
            Some(Value::Sequence(s)) => s.iter().filter_map(as_text).collect(),
            Some(v) => vec![as_text(v).ok_or("type: not a string or a list")?],
        };
        let mut meta = Meta {
            format,
            name,
            source,
            scoring: false,
            interactive: false,
            custom_validation: false,
            custom_score: false,
            multi_pass: false,
            validator_flags: Vec::new(),
            memory: DEFAULT_MEMORY,
            time_limit: None,
            ac_to_time_limit: if format == "legacy" { 5.0 } else { 2.0 },
            time_limit_to_tle: if format == "legacy" { 2.0 } else { 1.5 },
            resolution: 1.0,
            limits: Limits::default(),
        };
        for t in &types {
            match t.as_str() {
                "pass-fail" => {}
                "scoring" => meta.scoring = true,
                "interactive" if format != "legacy" => meta.interactive = true,
                "multi-pass" if format != "legacy" => meta.multi_pass = true,
                "submit-answer" => {
                    return Err(format!("type: {t} problems are not supported by grundy"))
                }
                other => return Err(format!("type: unknown problem type {other:?}")),
            }
        }
        if let Some(v) = get(yaml, "validation") {
            let v = as_text(v).ok_or("validation: not a string")?;
            let mut words = v.split_whitespace();
            match words.next() {
                Some("default") | None => {}
                Some("custom") => meta.custom_validation = true,
                Some(other) => {
                    return Err(format!(
                        "validation: {other:?} is neither default nor custom"
                    ))
                }
            }
            for w in words {
                match w {
                    "interactive" => meta.interactive = true,
                    "score" => meta.custom_score = true,
                    // The 2023-07 draft's spelling, before it became a type.
                    "multi-pass" | "multipass" => meta.multi_pass = true,
                    other => return Err(format!("validation: unknown option {other:?}")),
                }
            }
        }
        if let Some(v) = get(yaml, "validator_flags") {
            let v = as_text(v).ok_or("validator_flags: not a string")?;
            meta.validator_flags = v.split_whitespace().map(str::to_string).collect();
        }
        if let Some(limits) = get(yaml, "limits") {
            if !matches!(limits, Value::Mapping(_) | Value::Null) {
                return Err("limits: not a mapping".into());
            }
            if let Some(m) = number(get(limits, "memory"), "limits.memory")? {
                if !(16.0..=16384.0).contains(&m) {
                    return Err(format!("limits.memory: {m} MiB is outside [16, 16384]"));
                }
                meta.memory = m as u64;
            }
            meta.time_limit = number(get(limits, "time_limit"), "limits.time_limit")?;
            if let Some(t) = meta.time_limit {
                if t > 60.0 {
                    return Err(format!("limits.time_limit: {t} s is above grundy's 60 s"));
                }
            }
            for (key, slot) in [
                ("time_multiplier", &mut meta.ac_to_time_limit),
                ("time_safety_margin", &mut meta.time_limit_to_tle),
            ] {
                if let Some(x) = number(get(limits, key), &format!("limits.{key}"))? {
                    *slot = x;
                }
            }
            if let Some(m) = get(limits, "time_multipliers") {
                for (key, slot) in [
                    ("ac_to_time_limit", &mut meta.ac_to_time_limit),
                    ("time_limit_to_tle", &mut meta.time_limit_to_tle),
                ] {
                    let field = format!("limits.time_multipliers.{key}");
                    if let Some(x) = number(get(m, key), &field)? {
                        *slot = x;
                    }
                }
            }
            if let Some(r) = number(get(limits, "time_resolution"), "limits.time_resolution")? {
                meta.resolution = r;
            }
            let whole = |key: &str, max: f64| -> Result<Option<u64>, String> {
                let field = format!("limits.{key}");
                match number(get(limits, key), &field)? {
                    Some(x) if x > max => Err(format!("{field}: {x} is above grundy's {max}")),
                    Some(x) => Ok(Some(x.ceil() as u64)),
                    None => Ok(None),
                }
            };
            let l = &mut meta.limits;
            if let Some(x) = whole("output", 1024.0)? {
                l.output_mib = x;
            }
            if let Some(x) = whole("code", 4096.0)? {
                l.code_kib = x;
            }
            if let Some(x) = whole("validation_memory", 16384.0)? {
                l.validation_memory_mib = x;
            }
            if let Some(x) = whole("validation_output", 1024.0)? {
                l.validation_output_mib = x;
            }
            if let Some(x) = number(get(limits, "validation_time"), "limits.validation_time")? {
                l.validation_time = x.min(600.0);
            }
            let passes = number(get(limits, "validation_passes"), "limits.validation_passes")?;
            if let Some(x) = passes {
                if x.fract() != 0.0 || !(2.0..=1000.0).contains(&x) {
                    return Err(format!(
                        "limits.validation_passes: {x} is not a whole number from 2 to 1000"
                    ));
                }
                l.validation_passes = x as u32;
            }
        }
        Ok(meta)
    }

    pub(super) fn time_rule(&self, dir: &Path) -> TimeRule {
        // DOMjudge keeps a fixed limit in `.timelimit`.
        let dotfile = std::fs::read_to_string(dir.join(".timelimit"))
            .ok()
            .and_then(|t| t.trim().parse::<f64>().ok())
            .filter(|t| *t > 0.0 && *t <= 60.0);
        TimeRule {
            fixed: self.time_limit.or(dotfile),
            ac_to_time_limit: self.ac_to_time_limit,
            time_limit_to_tle: self.time_limit_to_tle,
            resolution: self.resolution,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(text: &str) -> Result<Meta, String> {
        Meta::read(&serde_yaml_ng::from_str(text).unwrap())
    }

    #[test]
    fn legacy_defaults_follow_problemtools() {
        let m = meta("name: Nim\nvalidation: default\n").unwrap();
        assert_eq!(m.format, "legacy");
        assert_eq!((m.ac_to_time_limit, m.time_limit_to_tle), (5.0, 2.0));
        assert_eq!(m.memory, DEFAULT_MEMORY);
        assert!(!m.custom_validation && !m.interactive);
    }

    #[test]
    fn new_format_reads_types_and_multipliers() {
        let m = meta(
            "problem_format_version: 2023-07-draft\nname: {en: Nim, sv: Nim}\ntype: [scoring, interactive]\nlimits:\n  time_limit: 2.5\n  memory: 512\n  time_multipliers: {ac_to_time_limit: 3, time_limit_to_tle: 1.2}\n",
        )
        .unwrap();
        assert_eq!(m.format, "2023-07");
        assert_eq!(m.name.as_deref(), Some("Nim"));
        assert!(m.scoring && m.interactive);
        assert_eq!(m.time_limit, Some(2.5));
        assert_eq!(m.memory, 512);
        assert_eq!((m.ac_to_time_limit, m.time_limit_to_tle), (3.0, 1.2));
    }

    #[test]
    fn legacy_custom_interactive_and_flags() {
        let m = meta("validation: custom interactive\nvalidator_flags: float_tolerance 1e-6\nlimits: {time_multiplier: 3, time_safety_margin: 4}\n").unwrap();
        assert!(m.custom_validation && m.interactive);
        assert_eq!(m.validator_flags, ["float_tolerance", "1e-6"]);
        assert_eq!((m.ac_to_time_limit, m.time_limit_to_tle), (3.0, 4.0));
    }

    #[test]
    fn multi_pass_is_a_type_or_a_validation_option_with_two_passes_by_default() {
        let m = meta("problem_format_version: 2023-07\ntype: multi-pass\n").unwrap();
        assert!(m.multi_pass);
        assert_eq!(m.limits.validation_passes, 2);
        let m = meta("validation: custom multi-pass\nlimits: {validation_passes: 5}\n").unwrap();
        assert!(m.multi_pass && m.custom_validation);
        assert_eq!(m.limits.validation_passes, 5);
        let m = meta("problem_format_version: 2023-07-draft\nvalidation: custom multipass\n");
        assert!(m.unwrap().multi_pass);
        assert!(!meta("type: pass-fail\n").unwrap().multi_pass);
    }

    #[test]
    fn bad_fields_are_named() {
        let table = [
            (
                "problem_format_version: 2099-01\n",
                "problem_format_version",
            ),
            ("validation: magic\n", "validation"),
            (
                "type: submit-answer\nproblem_format_version: 2023-07-draft\n",
                "submit-answer",
            ),
            (
                "type: multi-pass\nlimits: {validation_passes: 1}\nproblem_format_version: 2023-07\n",
                "limits.validation_passes",
            ),
            (
                "type: multi-pass\nlimits: {validation_passes: 2.5}\nproblem_format_version: 2023-07\n",
                "limits.validation_passes",
            ),
            ("limits: {memory: lots}\n", "limits.memory"),
            ("limits: {time_limit: -1}\n", "limits.time_limit"),
        ];
        for (text, field) in table {
            let e = meta(text).unwrap_err();
            assert!(e.contains(field), "{text:?}: {e}");
        }
    }
}

//! `problem.toml` as written: the serde structs it is read into before
//! [`super::Manifest::parse`] validates them.

use serde::Deserialize;

use std::path::PathBuf;

use crate::checker::special::Protocol;
use crate::checker::CheckerName;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawManifest {
    pub(super) name: String,
    pub(super) source: String,
    pub(super) time_limit: f64,
    pub(super) memory_limit: u64,
    #[serde(default = "default_checker")]
    pub(super) checker: RawChecker,
    #[serde(default)]
    pub(super) interactor: Option<RawCheckerProgram>,
    #[serde(default)]
    pub(super) float_abs: Option<f64>,
    #[serde(default)]
    pub(super) float_rel: Option<f64>,
    #[serde(default)]
    pub(super) groups: Option<Vec<RawGroup>>,
    #[serde(default)]
    pub(super) tests: Vec<RawTest>,
    #[serde(default)]
    pub(super) stress: Vec<RawStress>,
    #[serde(default)]
    pub(super) input_validators: Vec<PathBuf>,
    #[serde(default)]
    pub(super) rgb: Option<String>,
    #[serde(default)]
    pub(super) color: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawGroup {
    pub(super) name: String,
    pub(super) points: u32,
    #[serde(default)]
    pub(super) depends: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTest {
    pub(super) name: String,
    #[serde(default)]
    pub(super) group: Option<String>,
    #[serde(default)]
    pub(super) file: Option<PathBuf>,
    #[serde(default)]
    pub(super) gen: Option<String>,
    #[serde(default)]
    pub(super) count: Option<u32>,
    #[serde(default)]
    pub(super) answer: Option<PathBuf>,
    #[serde(default)]
    pub(super) input_flags: Option<String>,
    #[serde(default)]
    pub(super) output_flags: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawStress {
    pub(super) gen: String,
    #[serde(default = "default_stress_count")]
    pub(super) count: u32,
}

fn default_checker() -> RawChecker {
    RawChecker::Name(CheckerName::Tokens)
}

/// `checker = "name"`, or a `[checker]` table naming a program.
pub(super) enum RawChecker {
    Name(CheckerName),
    Program(RawCheckerProgram),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCheckerProgram {
    pub(super) program: PathBuf,
    pub(super) protocol: Protocol,
}

impl<'de> Deserialize<'de> for RawChecker {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match toml::Value::deserialize(d)? {
            v @ toml::Value::String(_) => CheckerName::deserialize(v)
                .map(RawChecker::Name)
                .map_err(D::Error::custom),
            v @ toml::Value::Table(_) => RawCheckerProgram::deserialize(v)
                .map(RawChecker::Program)
                .map_err(D::Error::custom),
            _ => Err(D::Error::custom(
                "a checker name, or a table with program and protocol",
            )),
        }
    }
}

fn default_stress_count() -> u32 {
    100
}

//! The verdict words of DESIGN.md, and nothing else.
//!
//! A submission's verdict is the verdict of its first failing test, in the
//! order of the test plan (ICPC style), or `AC` when every test passes; `CE`
//! and `IE` stand for the whole submission. [`Verdict::severity`] orders the
//! failures for the places that summarise several results (e.g. `grundy
//! verify`'s "no worse-than-WA failures").

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The outcome of a test or a submission.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Verdict {
    /// Accepted.
    AC,
    /// Wrong answer.
    WA,
    /// Presentation error (only where a checker asks for it).
    PE,
    /// Time limit exceeded (CPU or wall clock).
    TLE,
    /// Memory limit exceeded.
    MLE,
    /// Output limit exceeded.
    OLE,
    /// Runtime error: killed by a signal or a non-zero exit status.
    RE,
    /// Compilation error.
    CE,
    /// Internal error: the judge's own fault, never the submission's.
    IE,
}

impl Verdict {
    /// Every verdict, in display order.
    pub const ALL: [Verdict; 9] = [
        Verdict::AC,
        Verdict::WA,
        Verdict::PE,
        Verdict::TLE,
        Verdict::MLE,
        Verdict::OLE,
        Verdict::RE,
        Verdict::CE,
        Verdict::IE,
    ];

    /// The two-or-three letter word.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::AC => "AC",
            Verdict::WA => "WA",
            Verdict::PE => "PE",
            Verdict::TLE => "TLE",
            Verdict::MLE => "MLE",
            Verdict::OLE => "OLE",
            Verdict::RE => "RE",
            Verdict::CE => "CE",
            Verdict::IE => "IE",
        }
    }

    /// A short English description.
    pub fn describe(self) -> &'static str {
        match self {
            Verdict::AC => "accepted",
            Verdict::WA => "wrong answer",
            Verdict::PE => "presentation error",
            Verdict::TLE => "time limit exceeded",
            Verdict::MLE => "memory limit exceeded",
            Verdict::OLE => "output limit exceeded",
            Verdict::RE => "runtime error",
            Verdict::CE => "compilation error",
            Verdict::IE => "internal error",
        }
    }

    /// How bad a verdict is: AC < PE < WA < the resource verdicts < RE < CE < IE.
    /// A judge fault outranks everything, so it is never hidden.
    pub fn severity(self) -> u8 {
        match self {
            Verdict::AC => 0,
            Verdict::PE => 1,
            Verdict::WA => 2,
            Verdict::OLE => 3,
            Verdict::MLE => 4,
            Verdict::TLE => 5,
            Verdict::RE => 6,
            Verdict::CE => 7,
            Verdict::IE => 8,
        }
    }

    pub fn is_accepted(self) -> bool {
        self == Verdict::AC
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The word was not one of the verdicts.
#[derive(Debug, thiserror::Error)]
#[error("unknown verdict {0:?}")]
pub struct UnknownVerdict(String);

impl FromStr for Verdict {
    type Err = UnknownVerdict;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Verdict::ALL
            .into_iter()
            .find(|v| v.as_str() == s)
            .ok_or_else(|| UnknownVerdict(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_round_trips() {
        for v in Verdict::ALL {
            assert_eq!(v.as_str().parse::<Verdict>().unwrap(), v);
            assert_eq!(v.to_string(), v.as_str());
        }
    }

    #[test]
    fn lower_case_word_is_not_a_verdict() {
        assert!("ac".parse::<Verdict>().is_err());
        assert!("Accepted".parse::<Verdict>().is_err());
    }

    #[test]
    fn severity_orders_failures() {
        let table = [
            (Verdict::AC, Verdict::WA),
            (Verdict::PE, Verdict::WA),
            (Verdict::WA, Verdict::TLE),
            (Verdict::TLE, Verdict::RE),
            (Verdict::RE, Verdict::CE),
            (Verdict::CE, Verdict::IE),
        ];
        for (lesser, greater) in table {
            assert!(
                lesser.severity() < greater.severity(),
                "{lesser} < {greater}"
            );
        }
    }

    #[test]
    fn serializes_as_the_bare_word() {
        assert_eq!(serde_json::to_string(&Verdict::TLE).unwrap(), "\"TLE\"");
    }
}

//! Transcripts of interactive samples: what the submission and the
//! interactor wrote to each other, in the order the judge passed it on,
//! capped.

use serde::{Deserialize, Serialize};

/// Who wrote a part of a transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The submission, to the interactor.
    Submission,
    /// The interactor, to the submission.
    Interactor,
}

/// One side's bytes, in a row (lossy UTF-8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Said {
    pub from: Side,
    pub text: String,
}

/// Both directions of one interaction.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transcript {
    pub parts: Vec<Said>,
    /// Whether more was said than the cap kept.
    pub truncated: bool,
}

//! The Contest API's objects, built from the store as the standard shapes
//! them (times as TIME and RELTIME text, ids as strings), with the
//! freeze applied for the public and for other teams. One room a concern:
//!
//! * `shape.rs`: which endpoints there are and which properties each
//!   sends (the access object);
//! * `reference.rs`: the contest's reference data: judgement types,
//!   languages (with the one mapping of a language's id) and problems;
//! * `scoreboard.rs`: the scoreboard object;
//! * `tries.rs`: the teams' tries, who may read their files, and where.

mod reference;
mod scoreboard;
mod shape;
mod tries;

pub use crate::contest::clics::{contest, state};
pub use reference::{clics_language, fill_problem, judgement_types, languages};
pub use scoreboard::{rows, scoreboard, scoreboard_text};
pub use shape::{access, properties};
pub use tries::{files, reads_files, team_tries};

//! grundy: an online judge for combinatorial game theory problems.
//!
//! The judge is this library; `src/main.rs` is a thin command line over it.
//!
//! # Layout
//!
//! Each module owns one layer and knows only the layers below it
//! (the layer table of `docs/architecture.md`, checked by
//! `tests/it/boundaries.rs`):
//!
//! * [`sandbox`]: runs a program under limits and reports what it saw.
//! * [`lang`]: compiles and runs a source per `config.toml`, with a
//!   content-addressed program cache.
//! * [`checker`]: compares output with the expected answer.
//! * [`problem`]: the on-disk package (manifest, statement, test plan).
//! * [`data`]: turns a package into inputs and expected answers.
//! * [`judge`]: the pipeline compile → run → check → aggregate.
//! * [`contest`]: contests and their scoreboard, a pure function of
//!   the stored tries.
//! * [`store`]: SQLite or PostgreSQL through sqlx, one interface; the
//!   submissions queue.
//! * [`verify`]: the problem setter's proof that a package is right.
//! * [`export`]: writes a package in another judge's format (Kattis).
//! * [`import`]: turns a Kattis package into a native problem.
//! * [`site`]: what the hosted judge's two edges share: taking a
//!   submission, who sees what, sign-in throttling.
//! * [`worker`]: the judge workers: claiming, judging, reporting, the
//!   heartbeat; `grundy serve` runs them beside the API, `grundy worker`
//!   alone.
//! * [`server`]: the hosted judge's HTTP API.
//! * [`web`]: the hosted judge's web pages, next to the API.
//! * [`hosted`]: the API and the pages on one router, served with workers.
//! * [`cli`]: the command line on top.
//!
//! [`config`], [`verdict`], [`digest`], [`errors`] and [`plural`] are
//! shared vocabulary; [`context`] holds the judge core's long-lived parts for the
//! edges; [`auth`] holds the hosted judge's secrets.

pub mod auth;
pub mod bounds;
pub mod checker;
pub mod cli;
pub mod color;
pub mod config;
pub mod contest;
pub mod context;
pub mod data;
pub mod digest;
pub mod errors;
pub mod export;
pub mod hosted;
pub mod import;
pub mod judge;
pub mod lang;
pub mod plural;
pub mod problem;
pub mod sandbox;
pub mod server;
pub mod shadow;
pub mod site;
pub mod store;
pub mod verdict;
pub mod verify;
pub mod web;
pub mod worker;

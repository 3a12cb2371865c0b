//! The integration test binary: one module per area.

mod attack;
mod boundaries;
mod checker;
mod cli;
mod clics;
mod contest;
mod coverage;
mod export;
mod helpers;
mod kattis;
mod lang;
mod sandbox;
mod scores;
mod server;
mod store;
mod verify;
mod web;

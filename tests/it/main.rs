//! The integration test binary: one module per area.

mod attack;
mod boundaries;
mod checker;
mod cli;
mod cluster;
mod coverage;
mod distributed;
mod export;
mod helpers;
mod kattis;
mod lang;
mod pg;
mod sandbox;
mod scores;
mod server;
mod store;
mod verify;
mod web;

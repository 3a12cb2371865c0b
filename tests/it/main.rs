//! The integration test binary: one module per area.

mod attack;
mod boundaries;
mod browser;
mod checker;
mod cli;
mod clics;
mod cluster;
mod contest;
mod contest_package;
mod contest_web;
mod coverage;
mod distributed;
mod export;
mod helpers;
mod kattis;
mod kattis_formats;
mod lang;
mod pg;
mod sandbox;
mod scores;
mod server;
mod store;
mod timing;
mod verify;
mod web;

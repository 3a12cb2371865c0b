//! The integration test binary: one module per area.

mod attack;
mod boundaries;
mod checker;
mod cli;
mod clics;
mod cluster;
mod contest;
mod coverage;
mod distributed;
mod export;
mod freeze;
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

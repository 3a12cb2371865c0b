//! The `grundy` command: parses arguments, installs logging, runs the
//! command and turns its result into the exit status (0 accepted, 1 judged
//! but not accepted, 2 usage or internal error).

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = grundy::cli::Args::parse();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        // Colour codes only for a terminal: a log kept in a file or a
        // journal is read as text.
        .with_ansi(std::io::stderr().is_terminal())
        // A log whose reader has gone loses its lines. Saying so would go
        // to the same closed stderr, and `eprintln!` panics there: in
        // whichever thread logged (a database connection's), which hung
        // or ended the command.
        .log_internal_errors(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("GRUNDY_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    match grundy::cli::run(args) {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            // Not `eprintln!`, which panics where stderr is closed: the
            // exit status still says what happened.
            let _ = writeln!(std::io::stderr(), "grundy: {}", grundy::cli::one_line(&err));
            ExitCode::from(2)
        }
    }
}

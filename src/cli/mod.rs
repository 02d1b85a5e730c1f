//! The command line: clap definitions, and one module per subcommand that calls the library.
//!
//! Exit codes (also in `simdoc --help`): 0 success, 1 a failure while working (an input could not
//! be read, an output could not be written), 2 a usage error (clap's own code).

mod collection;
mod inspect;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// See how two documents reuse each other's text. Without a command, opens the viewer.
#[derive(Debug, Parser)]
#[command(name = "simdoc", version, about, long_about = None)]
#[command(
    after_help = "Exit codes: 0 success, 1 failure (the message names the file and the cause), 2 usage error."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print a document's semantic hierarchy with each node's sentences.
    Inspect(inspect::InspectArgs),
    /// Find which documents of a collection contain, duplicate or reuse which others.
    Collection(Box<collection::CollectionArgs>),
}

/// Runs a parsed command; errors are printed with their causes.
pub fn run(command: Command) -> ExitCode {
    let result = match command {
        Command::Inspect(args) => inspect::run(&args),
        Command::Collection(args) => collection::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("simdoc: {err:#}");
            ExitCode::from(1)
        }
    }
}

//! The `simdoc` binary: the viewer when run without a command, the command line otherwise.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match args.command {
        Some(command) => cli::run(command),
        None => open_viewer(),
    }
}

#[cfg(feature = "gui")]
fn open_viewer() -> ExitCode {
    match simdoc::app::run_native(Vec::new()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("simdoc: cannot open the viewer window: {err}");
            ExitCode::from(1)
        }
    }
}

#[cfg(not(feature = "gui"))]
fn open_viewer() -> ExitCode {
    use clap::CommandFactory;
    eprintln!("simdoc was built without the viewer (feature `gui`); use a command:\n");
    let _ = cli::Cli::command().print_help();
    ExitCode::from(2)
}

//! The `simdoc` binary: the viewer when run without a command, the command line otherwise.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match args.command {
        #[cfg(feature = "gui")]
        Some(cli::Command::View(view)) => open_viewer(view.a.into_iter().chain(view.b).collect()),
        Some(command) => cli::run(command),
        None => open_viewer(Vec::new()),
    }
}

#[cfg(feature = "gui")]
fn open_viewer(files: Vec<std::path::PathBuf>) -> ExitCode {
    match simdoc::app::run_native(files, simdoc_model()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("simdoc: cannot open the viewer window: {err}");
            ExitCode::from(1)
        }
    }
}

/// The reference model the viewer compares with.
#[cfg(feature = "gui")]
fn simdoc_model() -> simdoc::app::SharedModel {
    std::sync::Arc::new(simdoc::model::ReferenceModel::embedded())
}

#[cfg(not(feature = "gui"))]
fn open_viewer(_files: Vec<std::path::PathBuf>) -> ExitCode {
    use clap::CommandFactory;
    eprintln!("simdoc was built without the viewer (feature `gui`); use a command:\n");
    let _ = cli::Cli::command().print_help();
    ExitCode::from(2)
}

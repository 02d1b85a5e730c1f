//! The `simdoc` binary: the viewer when run without a command, the command line otherwise.

#![forbid(unsafe_code)]
#![deny(clippy::unwrap_used)]

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    // Every command but the worker itself reads PDFs in worker processes (so does the viewer).
    if args
        .command
        .as_ref()
        .is_none_or(cli::Command::reads_documents)
    {
        cli::read_pdfs_in_workers();
    }
    match args.command {
        #[cfg(feature = "gui")]
        Some(cli::Command::View(view)) => open_viewer(view),
        Some(command) => cli::run(command),
        #[cfg(feature = "gui")]
        None => open_viewer(cli::ViewArgs::default()),
        #[cfg(not(feature = "gui"))]
        None => open_viewer(),
    }
}

#[cfg(feature = "gui")]
fn open_viewer(args: cli::ViewArgs) -> ExitCode {
    let model: simdoc::app::SharedModel = match &args.model.file {
        Some(path) => match simdoc::model::ReferenceModel::load(path) {
            Ok(model) => std::sync::Arc::new(model),
            Err(err) => {
                eprintln!("simdoc: {err}");
                return ExitCode::from(1);
            }
        },
        None => std::sync::Arc::new(simdoc::model::ReferenceModel::embedded()),
    };
    let start = simdoc::app::Start {
        files: args.a.into_iter().chain(args.b).collect(),
        example: args.example,
        hierarchies: args.hierarchies,
        sources: args.sources,
        preset: args.preset,
    };
    match simdoc::app::run_native(start, model) {
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

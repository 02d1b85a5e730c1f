//! Reading the documents a command is given: which files of a folder are documents
//! ([`simdoc::selection`]), in which order, each file read in parallel with progress.

use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use std::sync::atomic::AtomicBool;

use simdoc::document::Document;
use simdoc::selection::gather::{GatherRequest, Gathered, gather};
use simdoc::selection::{FileSelection, Order, SkipReason};

/// Which files of the folders given are read.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct InputArgs {
    /// Read only files of the folders whose name or path matches one of these globs
    /// (`--include '*.txt'`); files named directly are always read.
    #[arg(long, value_name = "GLOB", help_heading = "Input files")]
    pub include: Vec<String>,
    /// Leave out files of the folders whose name or path matches one of these globs.
    #[arg(long, value_name = "GLOB", help_heading = "Input files")]
    pub exclude: Vec<String>,
    /// Also read README, SOURCE, LICENSE and similar files found in folders (left out by
    /// default and listed).
    #[arg(long, help_heading = "Input files")]
    pub all_files: bool,
    /// Follow symbolic links found in folders, also those leading out of the folder or to
    /// other folders (by default they are left out and listed).
    #[arg(long, help_heading = "Input files")]
    pub follow: bool,
}

impl InputArgs {
    pub fn selection(&self) -> anyhow::Result<FileSelection> {
        let mut selection = FileSelection::new(&self.include, &self.exclude)?;
        selection.keep_folder_notes = self.all_files;
        selection.follow_links = self.follow;
        Ok(selection)
    }
}

/// `--order name|mtime|FILE`, for clap.
pub(crate) fn order(text: &str) -> Result<Order, String> {
    match text {
        "name" => Ok(Order::Name),
        "mtime" => Ok(Order::Mtime),
        file => Order::from_list_file(std::path::Path::new(file))
            .map_err(|e| format!("{file}: not name, mtime or a readable list of files: {e}")),
    }
}

pub(crate) fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{msg:>28} [{bar:30}] {pos}/{len} ({per_sec}, {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar
}

/// Reads the documents `request` names ([`simdoc::selection::gather`]) with a progress bar on
/// standard error; files that could not be read are named there and left out, and so are the
/// warnings reading noticed.
pub fn gather_documents(request: &GatherRequest<'_>) -> anyhow::Result<Gathered> {
    let bar = progress_bar();
    bar.set_message("reading");
    let never = AtomicBool::new(false);
    let gathered = gather(
        request,
        &mut |done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        },
        &never,
    )?;
    bar.finish_and_clear();
    for error in &gathered.unreadable {
        eprintln!("simdoc: skipped: {}", simdoc::escape::terminal(error));
    }
    for (name, doc) in gathered.names.iter().zip(&gathered.documents) {
        print_warnings(name, doc);
    }
    Ok(gathered)
}

/// Prints what reading `doc` noticed (its warnings) on standard error, after its name.
pub fn print_warnings(name: &str, doc: &Document) {
    for warning in &doc.warnings {
        eprintln!("simdoc: {}: {warning}", simdoc::escape::terminal(name));
    }
}

/// The files left out, for a summary: up to `show` named, then a count.
pub fn skipped_lines(skipped: &[(PathBuf, SkipReason)], show: usize) -> String {
    if skipped.is_empty() {
        return String::new();
    }
    let mut out = format!("\nfiles left out ({}):\n", skipped.len());
    for (path, reason) in skipped.iter().take(show) {
        out.push_str(&format!(
            "  {}  ({})\n",
            simdoc::escape::path(path),
            reason.describe()
        ));
    }
    if skipped.len() > show {
        out.push_str(&format!("  ... {} more\n", skipped.len() - show));
    }
    out
}

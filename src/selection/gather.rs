//! Reading the documents a job over many files is given: the sources (when the job has any)
//! then the other paths, each selected ([`super::FileSelection`]) and put in stream order
//! ([`super::Order`]), every file read in parallel. `simdoc collection`, `simdoc sources` and the
//! viewer's collection mode all read their documents here, so that the same folder gives the
//! same documents, in the same order, with the same sources, whichever front end reads it.
//!
//! A file selected both as a source and as another document is read once, as a source: the
//! identity of a file is its path (two files of one name in different folders are different
//! documents). A file that cannot be read, or that holds no text, is left out and listed with
//! its reason, so that the job goes on and its summary can say what it did not read.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use rayon::prelude::*;

use super::{FileSelection, Order, SkipReason};
use crate::corpus;
use crate::document::{Document, LoadError, LoadOptions};

/// What to read.
#[derive(Clone, Copy, Debug)]
pub struct GatherRequest<'a> {
    /// Paths whose documents are sources (read first); empty when the job has none.
    pub sources: &'a [PathBuf],
    /// The other paths.
    pub paths: &'a [PathBuf],
    pub selection: &'a FileSelection,
    pub order: &'a Order,
    pub load: &'a LoadOptions,
    /// A file that is not read wherever it is found (compared by its canonical path): the
    /// document a pool of sources is searched for is no source of its own.
    pub except: Option<&'a Path>,
}

/// The documents read, with their names, and what was left out.
#[derive(Debug, Default)]
pub struct Gathered {
    /// Each document's name: its file path, plus `#id` inside container files.
    pub names: Vec<String>,
    pub documents: Vec<Document>,
    /// How many of the documents, first in order, are sources.
    pub sources: usize,
    /// Every file selected for reading (read or not): outputs must not overwrite them.
    pub files: Vec<PathBuf>,
    /// Files of the folders not read by choice ([`SkipReason`]).
    pub skipped: Vec<(PathBuf, SkipReason)>,
    /// Files and entries that could not be read or held no text, each with why.
    pub unreadable: Vec<String>,
}

impl Gathered {
    /// Per document, whether it is a source.
    pub fn is_source(&self) -> Vec<bool> {
        (0..self.documents.len())
            .map(|d| d < self.sources)
            .collect()
    }

    /// Every file left out, one line each (`PATH: why`): those not read by choice, then those
    /// that could not be read or held no text. What a front end lists for its user.
    pub fn left_out(&self) -> Vec<String> {
        self.skipped
            .iter()
            .map(|(path, reason)| format!("{}: {}", path.display(), reason.describe()))
            .chain(self.unreadable.iter().cloned())
            .collect()
    }
}

/// Why no documents came back: a path could not be listed, or the reading was cancelled.
#[derive(Debug, thiserror::Error)]
pub enum GatherError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error("cancelled")]
    Cancelled,
}

/// How often the reading thread's progress is passed on.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// Reads the documents `request` names. `progress(done, total)` is called on the calling thread
/// as files are read (the reading runs on rayon's pool); `cancel` stops it between files.
pub fn gather(
    request: &GatherRequest<'_>,
    progress: &mut dyn FnMut(usize, usize),
    cancel: &AtomicBool,
) -> Result<Gathered, GatherError> {
    let mut gathered = Gathered::default();
    let except = request
        .except
        .and_then(|path| std::fs::canonicalize(path).ok());
    let is_except = |file: &Path| {
        except
            .as_ref()
            .is_some_and(|except| std::fs::canonicalize(file).ok().as_ref() == Some(except))
    };
    let mut files = Vec::new();
    for (group, paths) in [request.sources, request.paths].into_iter().enumerate() {
        if paths.is_empty() {
            continue;
        }
        let selected = request.selection.list(paths)?;
        gathered
            .unreadable
            .extend(selected.unreadable.iter().map(ToString::to_string));
        gathered.skipped.extend(selected.skipped);
        let mut these = selected.files;
        request.order.apply(&mut these);
        for file in these {
            if !is_except(&file) && !files.iter().any(|(known, _)| known == &file) {
                files.push((file, group == 0));
            }
        }
    }
    let done = AtomicUsize::new(0);
    let total = files.len();
    let read = std::thread::scope(|scope| {
        let reading = scope.spawn(|| {
            files
                .par_iter()
                .map(|(file, is_source)| {
                    if cancel.load(Ordering::Relaxed) {
                        return Err(GatherError::Cancelled);
                    }
                    let entries = corpus::read_entries(file, request.load);
                    done.fetch_add(1, Ordering::Relaxed);
                    Ok((entries, *is_source))
                })
                .collect::<Result<Vec<_>, _>>()
        });
        // Polled from 1 ms up to every PROGRESS_EVERY: a folder of a few files costs a few
        // milliseconds of waiting, not a whole period.
        let mut wait = Duration::from_millis(1);
        while !reading.is_finished() {
            progress(done.load(Ordering::Relaxed), total);
            std::thread::sleep(wait);
            wait = (wait * 2).min(PROGRESS_EVERY);
        }
        progress(done.load(Ordering::Relaxed), total);
        reading.join()
    });
    let read = match read {
        Ok(read) => read?,
        Err(panic) => std::panic::resume_unwind(panic),
    };
    gathered.files = files.into_iter().map(|(file, _)| file).collect();
    // Sources came first and stay first: a source that holds no text only shortens them.
    for (entries, is_source) in read {
        match entries {
            Ok(entries) => {
                for entry in entries {
                    let name = entry.name.clone();
                    let document = entry.into_document();
                    if document.sentences.is_empty() {
                        gathered
                            .unreadable
                            .push(format!("{name}: holds no readable text"));
                        continue;
                    }
                    gathered.names.push(name);
                    gathered.documents.push(document);
                    gathered.sources += usize::from(is_source);
                }
            }
            Err(error) => gathered.unreadable.push(error.to_string()),
        }
    }
    Ok(gathered)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_come_first_once_and_the_excepted_and_empty_files_are_not_documents() {
        let dir = tempfile::tempdir().unwrap();
        let sources = dir.path().join("sources");
        std::fs::create_dir(&sources).unwrap();
        let text = "The harbour froze early that winter. Boats stayed in.";
        std::fs::write(sources.join("s.txt"), text).unwrap();
        std::fs::write(dir.path().join("a.txt"), text).unwrap();
        std::fs::write(dir.path().join("b.txt"), text).unwrap();
        std::fs::write(dir.path().join("empty.txt"), "").unwrap();
        let except = dir.path().join("a.txt");
        let never = AtomicBool::new(false);
        let mut reported = Vec::new();
        let gathered = gather(
            &GatherRequest {
                sources: std::slice::from_ref(&sources),
                // The folder holds the sources' folder too: its file stays one source.
                paths: &[dir.path().to_path_buf()],
                selection: &FileSelection::default(),
                order: &Order::Name,
                load: &LoadOptions::default(),
                except: Some(&except),
            },
            &mut |done, total| reported.push((done, total)),
            &never,
        )
        .unwrap();
        let names: Vec<String> = gathered
            .names
            .iter()
            .map(|n| n.rsplit('/').next().unwrap().to_string())
            .collect();
        assert_eq!(names, ["s.txt", "b.txt"]);
        assert_eq!(gathered.sources, 1);
        assert_eq!(gathered.is_source(), [true, false]);
        assert_eq!(
            gathered.files.len(),
            3,
            "s.txt, b.txt and empty.txt were read"
        );
        assert!(
            gathered.unreadable.iter().any(|u| u.contains("empty.txt")),
            "{:?}",
            gathered.unreadable
        );
        assert_eq!(reported.last(), Some(&(3, 3)));
        let left_out = gathered.left_out();
        assert!(
            left_out
                .iter()
                .any(|l| l.contains("empty.txt: holds no readable text")),
            "{left_out:?}"
        );
        // Cancelled before reading: an error, not a partial result.
        let cancelled = AtomicBool::new(true);
        let err = gather(
            &GatherRequest {
                sources: &[],
                paths: &[dir.path().to_path_buf()],
                selection: &FileSelection::default(),
                order: &Order::Name,
                load: &LoadOptions::default(),
                except: None,
            },
            &mut |_, _| {},
            &cancelled,
        )
        .unwrap_err();
        assert!(matches!(err, GatherError::Cancelled));
    }
}

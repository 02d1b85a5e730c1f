//! Which files found in folders are read as documents, and in which order.
//!
//! A folder a teacher or an editor hands over holds more than documents: a README, the data
//! set's SOURCE.txt, a LICENSE. Read as documents they would be compared like any other (and a
//! licence text is "contained" in every other copy of it). So files found by walking a folder
//! are filtered here: files whose name says they describe the folder ([`is_folder_note`]) are
//! left out unless asked for, then `--include` and `--exclude` glob patterns apply. A file named
//! directly on the command line is always read: the user asked for it. Every file left out is
//! returned with the reason, for the summary.
//!
//! Hidden files and folders (names starting with a dot: `.git`, `.DS_Store`) are never read
//! nor walked into, and are listed among the files left out ([`crate::corpus::walk`]); so are
//! symbolic links that lead out of the folder or to a folder, unless links are followed
//! (`--follow`). A subfolder that cannot be read is left out too, named with its error.
//!
//! The order is the stream order of the streaming detectors (CoDet, qSign): by name (the
//! default), by modification time (news in publication order, when the files' times are those of
//! publication), or as a list file names them.

pub mod gather;

use std::path::{Path, PathBuf};

use crate::read::ReadError;
use std::time::SystemTime;

use globset::{Glob, GlobSet, GlobSetBuilder};

use crate::corpus::LinkSkip;
use crate::document::LoadError;

/// Why a file was left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// A README, SOURCE, LICENSE or similar file describing the folder.
    FolderNote,
    /// Matched an `--exclude` pattern.
    Excluded,
    /// Matched no `--include` pattern.
    NotIncluded,
    /// Its name (or its folder's) starts with a dot.
    Hidden,
    /// A symbolic link not followed.
    Link(LinkSkip),
}

impl SkipReason {
    pub fn describe(self) -> &'static str {
        match self {
            SkipReason::FolderNote => "describes the folder (README, SOURCE, LICENSE, ...)",
            SkipReason::Excluded => "matches --exclude",
            SkipReason::NotIncluded => "matches no --include",
            SkipReason::Hidden => {
                "hidden (its name starts with a dot); not walked into if a folder"
            }
            SkipReason::Link(LinkSkip::LeavesFolder) => {
                "a symbolic link leading out of the folder; --follow reads it"
            }
            SkipReason::Link(LinkSkip::ToFolder) => {
                "a symbolic link to a folder; --follow walks it"
            }
            SkipReason::Link(LinkSkip::Broken) => "a symbolic link leading nowhere",
        }
    }
}

/// A pattern that is not a glob.
#[derive(Debug, thiserror::Error)]
#[error("{pattern}: not a glob pattern: {source}")]
pub struct PatternError {
    pattern: String,
    source: globset::Error,
}

/// The files to read and those left out.
#[derive(Debug, Default)]
pub struct Selected {
    pub files: Vec<PathBuf>,
    pub skipped: Vec<(PathBuf, SkipReason)>,
    /// Folders (or entries) that could not be read while walking, with their error.
    pub unreadable: Vec<LoadError>,
}

/// How files found in folders are chosen.
#[derive(Clone, Debug, Default)]
pub struct FileSelection {
    include: Option<GlobSet>,
    exclude: Option<GlobSet>,
    /// Read README, SOURCE, LICENSE and the like too.
    pub keep_folder_notes: bool,
    /// Follow symbolic links found in folders (`--follow`), wherever they lead.
    pub follow_links: bool,
}

fn glob_set(patterns: &[String]) -> Result<Option<GlobSet>, PatternError> {
    if patterns.is_empty() {
        return Ok(None);
    }
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        let glob = Glob::new(pattern).map_err(|source| PatternError {
            pattern: pattern.clone(),
            source,
        })?;
        builder.add(glob);
    }
    builder.build().map(Some).map_err(|source| PatternError {
        pattern: patterns.join(" "),
        source,
    })
}

/// Base names (before the first dot or dash, any case) of files that describe a folder rather
/// than belong to it; a dashed variant with a digit is a numbered document instead.
const FOLDER_NOTES: [&str; 10] = [
    "readme",
    "source",
    "sources",
    "license",
    "licence",
    "copying",
    "notice",
    "authors",
    "changelog",
    "contributing",
];

/// Whether `path` names a file describing its folder: README, README.md, SOURCE.txt,
/// LICENSE-MIT, ...
pub fn is_folder_note(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let lower = name.to_ascii_lowercase();
    let stem = lower.split('.').next().unwrap_or(lower.as_str());
    // "LICENSE-MIT" and "README-fr" are notes; "source-document01234" (PAN's corpus layout) and
    // "source-1" are numbered documents.
    let (base, variant) = stem.split_once('-').unwrap_or((stem, ""));
    FOLDER_NOTES.contains(&base) && !variant.chars().any(|c| c.is_ascii_digit())
}

impl FileSelection {
    /// Patterns match a file's name or its whole path (`*.txt`, `**/drafts/**`).
    pub fn new(include: &[String], exclude: &[String]) -> Result<Self, PatternError> {
        Ok(FileSelection {
            include: glob_set(include)?,
            exclude: glob_set(exclude)?,
            keep_folder_notes: false,
            follow_links: false,
        })
    }

    fn matches(set: &GlobSet, path: &Path) -> bool {
        set.is_match(path) || path.file_name().is_some_and(|n| set.is_match(n))
    }

    /// Why a file found in a folder is left out, if it is.
    pub fn skip_reason(&self, path: &Path) -> Option<SkipReason> {
        if !self.keep_folder_notes && is_folder_note(path) {
            return Some(SkipReason::FolderNote);
        }
        if let Some(include) = &self.include
            && !Self::matches(include, path)
        {
            return Some(SkipReason::NotIncluded);
        }
        if let Some(exclude) = &self.exclude
            && Self::matches(exclude, path)
        {
            return Some(SkipReason::Excluded);
        }
        None
    }

    /// Every file under `paths` ([`crate::corpus::list_files`]) that is read: files named
    /// directly always, files found in folders when [`FileSelection::skip_reason`] allows.
    pub fn list(&self, paths: &[PathBuf]) -> Result<Selected, crate::document::LoadError> {
        let mut selected = Selected::default();
        for path in paths {
            let listing = crate::corpus::walk(std::slice::from_ref(path), self.follow_links)?;
            let walked = path.is_dir();
            selected.skipped.extend(
                listing
                    .hidden
                    .into_iter()
                    .map(|hidden| (hidden, SkipReason::Hidden)),
            );
            selected.skipped.extend(
                listing
                    .links
                    .into_iter()
                    .map(|(link, why)| (link, SkipReason::Link(why))),
            );
            selected.unreadable.extend(listing.unreadable);
            for file in listing.files {
                match self.skip_reason(&file).filter(|_| walked) {
                    Some(reason) => selected.skipped.push((file, reason)),
                    None => selected.files.push(file),
                }
            }
        }
        Ok(selected)
    }
}

/// The largest list file `--order FILE` reads: a million paths of 60 bytes.
pub const MAX_LIST_BYTES: u64 = 64 << 20;

/// The stream order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// As found: each path in turn, a folder's files sorted by path.
    Name,
    /// By modification time, oldest first (ties by path).
    Mtime,
    /// As the list names them (one path a line); files it does not name follow by path.
    List(Vec<PathBuf>),
}

impl Order {
    /// Reads a list file: one path a line, blank lines and `#` comments skipped; relative paths
    /// are taken from the list's folder. Read as every input is ([`crate::read`]): a regular
    /// file of at most [`MAX_LIST_BYTES`] (a FIFO blocked for ever, `/dev/zero` grew to 2 GB).
    pub fn from_list_file(path: &Path) -> Result<Order, ReadError> {
        let bytes = crate::read::read_regular_file(path, MAX_LIST_BYTES)?;
        let text = String::from_utf8(bytes).map_err(|_| {
            ReadError::Io(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "stream did not contain valid UTF-8",
            ))
        })?;
        let base = path.parent().unwrap_or(Path::new(""));
        Ok(Order::List(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(|l| base.join(l))
                .collect(),
        ))
    }

    /// Puts `files` in this order (stable: equal keys keep their order).
    pub fn apply(&self, files: &mut [PathBuf]) {
        match self {
            Order::Name => {}
            Order::Mtime => {
                let mut keyed: Vec<(Option<SystemTime>, PathBuf)> = files
                    .iter()
                    .map(|f| {
                        (
                            std::fs::metadata(f).and_then(|m| m.modified()).ok(),
                            f.clone(),
                        )
                    })
                    .collect();
                // Files without a time (unreadable metadata) go last.
                keyed.sort_by(|(a, pa), (b, pb)| match (a, b) {
                    (Some(a), Some(b)) => a.cmp(b).then(pa.cmp(pb)),
                    (Some(_), None) => std::cmp::Ordering::Less,
                    (None, Some(_)) => std::cmp::Ordering::Greater,
                    (None, None) => pa.cmp(pb),
                });
                for (slot, (_, f)) in files.iter_mut().zip(keyed) {
                    *slot = f;
                }
            }
            Order::List(list) => {
                let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.into());
                let rank: std::collections::HashMap<PathBuf, usize> = list
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (canonical(p), i))
                    .collect();
                files.sort_by_cached_key(|f| {
                    (
                        rank.get(&canonical(f)).copied().unwrap_or(usize::MAX),
                        f.clone(),
                    )
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_notes_are_recognised_by_their_base_name() {
        for name in [
            "README",
            "README.md",
            "readme.txt",
            "SOURCE.txt",
            "LICENSE-MIT",
            "licence",
            "COPYING",
        ] {
            assert!(is_folder_note(Path::new(name)), "{name}");
        }
        for name in [
            "essay.txt",
            "source_code_review.html",
            "readmefirst.txt",
            "001.txt",
            "source-document01234.txt",
            "source-00001.txt",
        ] {
            assert!(!is_folder_note(Path::new(name)), "{name}");
        }
    }

    #[test]
    fn hidden_files_and_folders_are_listed_as_left_out_and_not_walked_into() {
        let dir = tempfile::tempdir().expect("temp dir");
        let named = |n: &str| dir.path().join(n);
        std::fs::create_dir_all(named(".git/objects")).expect("mkdir");
        std::fs::write(named(".git/objects/a.txt"), "text").expect("write");
        std::fs::write(named(".DS_Store"), "text").expect("write");
        std::fs::write(named("essay.txt"), "text").expect("write");
        let listed = FileSelection::default()
            .list(&[dir.path().to_path_buf()])
            .expect("list");
        assert_eq!(listed.files, vec![named("essay.txt")]);
        assert_eq!(
            listed.skipped,
            vec![
                (named(".DS_Store"), SkipReason::Hidden),
                (named(".git"), SkipReason::Hidden)
            ]
        );
    }

    #[test]
    fn folders_are_filtered_and_named_files_always_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        for name in ["a.txt", "b.html", "README.md", "SOURCE.txt", "draft-c.txt"] {
            std::fs::write(dir.path().join(name), "text").expect("write");
        }
        let named = |n: &str| dir.path().join(n);
        let all = FileSelection::default()
            .list(&[dir.path().to_path_buf()])
            .expect("list");
        assert_eq!(
            all.files,
            vec![named("a.txt"), named("b.html"), named("draft-c.txt")]
        );
        assert_eq!(
            all.skipped,
            vec![
                (named("README.md"), SkipReason::FolderNote),
                (named("SOURCE.txt"), SkipReason::FolderNote)
            ]
        );
        let some = FileSelection::new(&["*.txt".into()], &["draft-*".into()])
            .expect("globs")
            .list(&[dir.path().to_path_buf(), named("SOURCE.txt")])
            .expect("list");
        assert_eq!(some.files, vec![named("a.txt"), named("SOURCE.txt")]);
        assert_eq!(
            some.skipped,
            vec![
                (named("README.md"), SkipReason::FolderNote),
                (named("SOURCE.txt"), SkipReason::FolderNote),
                (named("b.html"), SkipReason::NotIncluded),
                (named("draft-c.txt"), SkipReason::Excluded),
            ]
        );
        assert!(FileSelection::new(&["a[".into()], &[]).is_err());
    }

    #[test]
    fn orders_by_list_then_by_name() {
        let dir = tempfile::tempdir().expect("temp dir");
        let named = |n: &str| dir.path().join(n);
        for name in ["a.txt", "b.txt", "c.txt"] {
            std::fs::write(named(name), "text").expect("write");
        }
        std::fs::write(named("order.lst"), "# newest last\nc.txt\n\na.txt\n").expect("write");
        let order = Order::from_list_file(&named("order.lst")).expect("list");
        let mut files = vec![named("a.txt"), named("b.txt"), named("c.txt")];
        order.apply(&mut files);
        assert_eq!(files, vec![named("c.txt"), named("a.txt"), named("b.txt")]);
        let mut same = files.clone();
        Order::Name.apply(&mut same);
        assert_eq!(same, files);
        // By modification time: b oldest, then c, then a.
        let base = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000);
        for (name, offset) in [("a.txt", 30), ("b.txt", 10), ("c.txt", 20)] {
            std::fs::File::options()
                .write(true)
                .open(named(name))
                .and_then(|f| f.set_modified(base + std::time::Duration::from_secs(offset)))
                .expect("set the time");
        }
        Order::Mtime.apply(&mut files);
        assert_eq!(files, vec![named("b.txt"), named("c.txt"), named("a.txt")]);
    }
}

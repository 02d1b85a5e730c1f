//! Helpers shared by the integration tests; each test file that needs them says `mod common;`.
// Each test crate uses only some of these.
#![allow(dead_code)]

pub mod hand_edited;
pub mod revised;

use std::path::PathBuf;
use std::process::{Command, Output};

/// The shared data folder named by `SIMDOC_DATA`. The tests that call it are marked
/// `#[cfg_attr(not(simdoc_data), ignore = "needs SIMDOC_DATA ...")]` (build.rs sets `simdoc_data`
/// when the variable is set at build time), so without the data they show as ignored; run with
/// `--ignored` and no data, they fail here rather than pass having read nothing.
pub fn data_dir() -> PathBuf {
    let data = std::env::var_os("SIMDOC_DATA")
        .filter(|data| !data.is_empty())
        .expect("SIMDOC_DATA names the shared data folder (see README, \"Start\")");
    PathBuf::from(data)
}

/// Runs the `simdoc` binary built for these tests.
pub fn simdoc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_simdoc"))
        .args(args)
        .output()
        .expect("the simdoc binary runs")
}

/// A temporary path as a command-line argument (the tests' temporary paths are UTF-8).
pub fn arg(path: &std::path::Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

/// Process output as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs the binary, which must succeed, and parses what it prints as JSON.
pub fn json_of(args: &[&str]) -> serde_json::Value {
    let out = simdoc(args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

/// What a bounded run of the binary did.
#[derive(Debug)]
pub struct BoundedRun {
    /// The exit code (`None` when a signal ended it).
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// The child's peak resident memory from the kernel's accounting (`wait4`). An upper bound:
    /// Linux carries the spawning process's own resident high-water mark into the child's
    /// across `exec`, so a test that holds much memory itself inflates it (keep test processes
    /// small where this is asserted).
    pub peak_rss_mb: f64,
    /// The child's processor time, user and system, in seconds (`wait4`): steadier than wall
    /// time on a loaded machine, for bounds that tell linear work from quadratic.
    pub cpu_seconds: f64,
}

/// Runs the `simdoc` binary with `args`, failing the test if it is still running after
/// `time_limit`: a regression that makes it hang fails here instead of hanging the suite. The
/// limit is a guard against hangs, far above the expected time, not a timing assertion.
#[cfg(unix)]
pub fn simdoc_bounded(args: &[&str], time_limit: std::time::Duration) -> BoundedRun {
    simdoc_bounded_in(std::path::Path::new("."), args, time_limit)
}

/// [`simdoc_bounded`] that must succeed (exit 0) and stay under `memory_limit_mb` of peak resident
/// memory: the bounds of README's bad-input catalogue.
#[cfg(unix)]
pub fn simdoc_succeeds_within(
    args: &[&str],
    time_limit: std::time::Duration,
    memory_limit_mb: f64,
) -> BoundedRun {
    let out = simdoc_bounded(args, time_limit);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.peak_rss_mb < memory_limit_mb,
        "{:.0} MB, over the bound of {memory_limit_mb:.0} MB",
        out.peak_rss_mb
    );
    out
}

/// [`simdoc_bounded`] run in the folder `dir` (relative paths in `args` are read from there).
#[cfg(unix)]
pub fn simdoc_bounded_in(
    dir: &std::path::Path,
    args: &[&str],
    time_limit: std::time::Duration,
) -> BoundedRun {
    bounded(dir, args, time_limit, None)
}

/// [`simdoc_bounded`] with the child's address space limited to `address_space_mb`: a
/// regression that would grow without end (reading `/dev/zero`) fails there instead of taking
/// the machine's memory.
#[cfg(unix)]
pub fn simdoc_bounded_in_memory(
    args: &[&str],
    time_limit: std::time::Duration,
    address_space_mb: u64,
) -> BoundedRun {
    bounded(
        std::path::Path::new("."),
        args,
        time_limit,
        Some(address_space_mb << 20),
    )
}

#[cfg(unix)]
// The child is reaped by `wait4` below (which also gives its peak memory), not `Child::wait`.
#[allow(clippy::zombie_processes)]
fn bounded(
    dir: &std::path::Path,
    args: &[&str],
    time_limit: std::time::Duration,
    address_space: Option<u64>,
) -> BoundedRun {
    use std::io::Read;
    use std::process::Stdio;
    let mut command = Command::new(env!("CARGO_BIN_EXE_simdoc"));
    command
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(bytes) = address_space {
        let limit = libc::rlimit {
            rlim_cur: bytes as libc::rlim_t,
            rlim_max: bytes as libc::rlim_t,
        };
        // SAFETY: only setrlimit, which is async-signal-safe, runs between fork and exec.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut command, move || {
                if libc::setrlimit(libc::RLIMIT_AS, &limit) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
    }
    let mut child = command.spawn().expect("the simdoc binary starts");
    // Drain both pipes while waiting, so a chatty child cannot block on a full pipe.
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let pid = child.id() as libc::pid_t;
    let deadline = std::time::Instant::now() + time_limit;
    // wait4 rather than Child::wait: it also reports this child's own peak memory.
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: plain syscall on our own child with valid out-pointers; zeroed rusage is valid.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let reaped = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        assert!(
            reaped >= 0,
            "wait4 failed: {}",
            std::io::Error::last_os_error()
        );
        if reaped == pid {
            break (status, usage);
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            // SAFETY: as above; reaps the killed child.
            unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
            panic!("simdoc {args:?} still running after {time_limit:?}: killed");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    BoundedRun {
        code,
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
        // Linux reports ru_maxrss in kilobytes.
        peak_rss_mb: usage.ru_maxrss as f64 / 1024.0,
        cpu_seconds: [usage.ru_utime, usage.ru_stime]
            .iter()
            .map(|t| t.tv_sec as f64 + t.tv_usec as f64 / 1e6)
            .sum(),
    }
}

/// A file of `tests/fixtures/formats` (see its README).
pub fn format_fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/formats")
        .join(name)
}

/// The Markdown the format fixtures were made from.
pub fn format_fixture_source() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/examples/guinea.md");
    std::fs::read_to_string(path).expect("the source text")
}

/// Share of the word 5-grams of `source` (lowercased words of letters and digits) found in the
/// document's content sentences (boilerplate left out), read in order: how much of a known text
/// a front end reads.
pub fn five_gram_recall(doc: &simdoc::document::Document, source: &str) -> f64 {
    use std::collections::HashSet;
    fn words(text: &str) -> Vec<String> {
        text.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    }
    fn five_grams(words: &[String]) -> HashSet<String> {
        words.windows(5).map(|w| w.join(" ")).collect()
    }
    let mask = doc.boilerplate_mask();
    let text: Vec<&str> = doc
        .sentences
        .iter()
        .zip(&mask)
        .filter(|(_, bp)| !**bp)
        .map(|(s, _)| s.text.as_str())
        .collect();
    let have = five_grams(&words(&text.join(" ")));
    let want = five_grams(&words(source));
    want.iter().filter(|g| have.contains(*g)).count() as f64 / want.len() as f64
}

/// A PDF of `objects` (numbered from 1, the first being the catalog), with a correct
/// cross-reference table: the shape of every crafted PDF of the tests.
pub fn pdf_of(objects: &[Vec<u8>]) -> Vec<u8> {
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

/// A stream object: `dict` entries (without `<<`, `>>` and `/Length`) and `content`, deflated
/// when `deflate`.
pub fn pdf_stream(dict: &str, content: &[u8], deflate: bool) -> Vec<u8> {
    use std::io::Write;
    let (data, filter) = if deflate {
        let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(content).expect("in memory");
        (
            encoder.finish().expect("in memory"),
            " /Filter /FlateDecode",
        )
    } else {
        (content.to_vec(), "")
    };
    [
        format!("<< {dict} /Length {}{filter} >>\nstream\n", data.len()).as_bytes(),
        &data,
        b"\nendstream",
    ]
    .concat()
}

/// A one-page PDF that reads "Hello there, this is a sentence." in Helvetica, with `page`
/// entries added to its page dictionary and its content prefixed by `before` (deflated), and
/// `extra` objects numbered from 6 on (1 catalog, 2 pages, 3 page, 4 content, 5 font).
pub fn hello_pdf(page: &str, before: &[u8], extra: &[Vec<u8>]) -> Vec<u8> {
    let content = [
        before,
        b"BT /F1 12 Tf 72 720 Td (Hello there, this is a sentence.) Tj ET",
    ]
    .concat();
    let mut objects = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>".to_vec(),
        format!("<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> {page} >>")
            .into_bytes(),
        pdf_stream("", &content, true),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
    ];
    objects.extend(extra.iter().cloned());
    pdf_of(&objects)
}

/// Reads a packaged document (PDF, DOCX, ODT, EPUB) with the library's own in-process code, but
/// in a child process (the binary's worker, `simdoc read-worker`) under generous limits: a
/// regression that loops or allocates without end fails the test with
/// [`simdoc::document::LoadError::Stopped`] instead of hanging or exhausting the test process.
pub fn parse_in_child(
    bytes: &[u8],
    name: &str,
    format: simdoc::document::SourceFormat,
) -> Result<simdoc::document::Document, simdoc::document::LoadError> {
    use simdoc::document::worker::{Limits, WorkerCommand, parse_with};
    let command = WorkerCommand {
        program: PathBuf::from(env!("CARGO_BIN_EXE_simdoc")),
        args: vec!["read-worker".into()],
    };
    let limits = Limits {
        memory: 2 << 30,
        cpu_seconds: 60,
        wall: std::time::Duration::from_secs(120),
    };
    parse_with(&command, limits, bytes, std::path::Path::new(name), format)
}

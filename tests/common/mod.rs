//! Helpers shared by the integration tests; each test file that needs them says `mod common;`.
// Each test crate uses only some of these.
#![allow(dead_code)]

pub mod class;
pub mod hand_edited;
pub mod revised;
pub mod stories;

use std::path::{Path, PathBuf};
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
    /// The child's peak resident memory from the kernel's accounting (`wait4`), its own: it is
    /// started by a small shell, not by the test process ([`bounded`]).
    pub peak_rss_mb: f64,
    /// The child's processor time, user and system, in seconds (`wait4`): steadier than wall
    /// time on a loaded machine, for bounds that tell linear work from quadratic.
    pub cpu_seconds: f64,
}

/// Runs the `simdoc` binary with `args`, failing the test if it is still running after
/// `time_limit`: a regression that makes it hang fails here instead of hanging the suite. The
/// limit is a guard against hangs, far above the expected time, not a timing assertion.
#[cfg(target_os = "linux")]
pub fn simdoc_bounded(args: &[&str], time_limit: std::time::Duration) -> BoundedRun {
    simdoc_bounded_in(std::path::Path::new("."), args, time_limit)
}

/// [`simdoc_bounded`] that must succeed (exit 0) and stay under `memory_limit_mb` of peak resident
/// memory: the bounds of README's bad-input catalogue.
#[cfg(target_os = "linux")]
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
#[cfg(target_os = "linux")]
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
#[cfg(target_os = "linux")]
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

/// What [`bounded`] tells its middle process, in the environment variable of this name (JSON).
const MIDDLE_REQUEST: &str = "SIMDOC_TEST_BOUNDED_RUN";

/// A run of `simdoc` that [`bounded`] asks its middle process for.
#[derive(serde::Serialize, serde::Deserialize)]
struct MiddleRequest {
    dir: PathBuf,
    args: Vec<String>,
    time_limit_ms: u64,
    address_space: Option<u64>,
    stdout: PathBuf,
    stderr: PathBuf,
    /// Where the middle writes what it measured: [`MiddleReport`] as JSON.
    report: PathBuf,
}

/// What the middle process measured of its `simdoc` child.
#[derive(serde::Serialize, serde::Deserialize)]
struct MiddleReport {
    /// The exit code, `None` when a signal ended it.
    code: Option<i32>,
    killed_at_deadline: bool,
    peak_rss_kb: i64,
    cpu_seconds: f64,
}

/// Not a test: the middle process of [`bounded`], run as this test binary with
/// `--exact common::bounded_middle --ignored` and a [`MiddleRequest`] in the environment.
/// Started fresh (a small process), it starts `simdoc`, waits for it with `wait4` (killing it
/// at the deadline) and writes its peak memory and processor time, which are then simdoc's
/// own: see [`bounded`] for why the test process cannot start it itself.
#[cfg(target_os = "linux")]
#[test]
#[ignore = "the middle process of common::bounded, run by it; not a test"]
fn bounded_middle() {
    let Some(request) = std::env::var_os(MIDDLE_REQUEST) else {
        return;
    };
    let request: MiddleRequest =
        serde_json::from_str(&request.to_string_lossy()).expect("a bounded run's request");
    let report = run_and_measure(&request);
    std::fs::write(
        &request.report,
        serde_json::to_vec(&report).expect("a report"),
    )
    .expect("the report written");
}

#[cfg(target_os = "linux")]
// The child is reaped by `wait4` below (which also gives its peak memory), not `Child::wait`.
#[allow(clippy::zombie_processes)]
fn run_and_measure(request: &MiddleRequest) -> MiddleReport {
    use std::process::Stdio;
    let file = |path: &Path| std::fs::File::create(path).expect("an output file");
    let mut command = Command::new(env!("CARGO_BIN_EXE_simdoc"));
    command
        .current_dir(&request.dir)
        .args(&request.args)
        .env_remove(MIDDLE_REQUEST)
        .stdin(Stdio::null())
        .stdout(file(&request.stdout))
        .stderr(file(&request.stderr));
    if let Some(bytes) = request.address_space {
        let limit = libc::rlimit {
            rlim_cur: bytes as libc::rlim_t,
            rlim_max: bytes as libc::rlim_t,
        };
        // SAFETY: only setrlimit, which is async-signal-safe, runs between fork and exec.
        #[allow(unsafe_code, reason = "a pre_exec hook is unsafe by definition")]
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
    let pid = child.id() as libc::pid_t;
    let deadline =
        std::time::Instant::now() + std::time::Duration::from_millis(request.time_limit_ms);
    let mut killed_at_deadline = false;
    #[allow(
        unsafe_code,
        reason = "libc::wait4 has no safe wrapper that gives the rusage"
    )]
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: plain syscall on our own child with valid out-pointers; a zeroed rusage is
        // valid.
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
        if !killed_at_deadline && std::time::Instant::now() > deadline {
            let _ = child.kill();
            killed_at_deadline = true;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    MiddleReport {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        killed_at_deadline,
        // Linux reports ru_maxrss in kilobytes.
        peak_rss_kb: usage.ru_maxrss,
        cpu_seconds: [usage.ru_utime, usage.ru_stime]
            .iter()
            .map(|t| t.tv_sec as f64 + t.tv_usec as f64 / 1e6)
            .sum(),
    }
}

/// Runs `simdoc args` in `dir` under `time_limit` (and an address-space limit), measuring its
/// own peak memory and processor time.
///
/// Linux carries the starting process's resident high-water mark into a child across `exec`
/// (the mark of the memory `exec` replaces), so a child started by this test process would
/// report at least this process's own peak: with the integration tests gathered into a few
/// binaries, the biggest in-process test of a binary (hundreds of MB) inflated every child's
/// figure, and which children it inflated depended on the order the tests ran in. So `simdoc`
/// is started by a middle process, this test binary run afresh ([`bounded_middle`]), which
/// is small when it starts it.
#[cfg(target_os = "linux")]
fn bounded(
    dir: &std::path::Path,
    args: &[&str],
    time_limit: std::time::Duration,
    address_space: Option<u64>,
) -> BoundedRun {
    let scratch = tempfile::tempdir().expect("a folder for the run's outputs");
    let request = MiddleRequest {
        dir: std::path::absolute(dir).expect("the run's folder"),
        args: args.iter().map(|a| a.to_string()).collect(),
        time_limit_ms: time_limit.as_millis() as u64,
        address_space,
        stdout: scratch.path().join("stdout"),
        stderr: scratch.path().join("stderr"),
        report: scratch.path().join("report.json"),
    };
    let middle = Command::new(std::env::current_exe().expect("this test binary"))
        .args([
            "--exact",
            "common::bounded_middle",
            "--ignored",
            "--test-threads=1",
        ])
        .env(
            MIDDLE_REQUEST,
            serde_json::to_string(&request).expect("a request"),
        )
        .output()
        .expect("the middle process runs");
    let report: MiddleReport = std::fs::read(&request.report)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_else(|| {
            panic!(
                "the middle process of simdoc {args:?} reported nothing: {}",
                String::from_utf8_lossy(&middle.stdout)
            )
        });
    assert!(
        !report.killed_at_deadline,
        "simdoc {args:?} still running after {time_limit:?}: killed"
    );
    let read = |path: &Path| {
        String::from_utf8_lossy(&std::fs::read(path).expect("an output")).into_owned()
    };
    BoundedRun {
        code: report.code,
        stdout: read(&request.stdout),
        stderr: read(&request.stderr),
        peak_rss_mb: report.peak_rss_kb as f64 / 1024.0,
        cpu_seconds: report.cpu_seconds,
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

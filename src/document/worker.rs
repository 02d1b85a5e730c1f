//! Untrusted PDFs read in a worker process with limits on its time and memory.
//!
//! The PDF crates are not hardened: `pdf-extract` (on `lopdf`) loops, recurses or allocates
//! without bound on some damaged or crafted files, and inside one process nothing stops that:
//! `catch_unwind` catches a panic, not a loop, a stack overflow or an allocation past memory
//! (which aborts the process: the viewer with its open documents, a collection run of thousands
//! of files). [`super::formats::pdf`] checks what is known before `pdf-extract` runs; this
//! module stops the rest. A program that can serve as a worker (the `simdoc` binary, with a
//! hidden command that calls [`serve`]) says so once with [`read_pdfs_in_workers`]; from then
//! on every PDF this process reads, in the command line and in the viewer alike, is parsed by a
//! fresh worker: the file's bytes go to its standard input, the document (or the error) comes
//! back as JSON on its standard output, and the worker runs under [`Limits::for_size`] (an
//! address-space limit, a processor-time limit, no core file) and a wall-clock deadline, after
//! which it is killed. A worker that passes a limit or crashes is a clear error naming the file
//! ([`LoadError::Stopped`]); this process is unharmed. The library alone (tests, fuzzing,
//! simdoc-spark's executors) reads PDFs in its own process, with the checks only.
//!
//! The limits are set from outside (`prlimit` on the child, before it is sent a byte), so they
//! hold whatever the worker program is. On systems other than Linux only the deadline applies.

use std::ffi::OsString;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{Document, LoadError, SourceFormat};

/// How to start a worker: a program and its arguments; the request arrives on its standard input.
#[derive(Clone, Debug)]
pub struct WorkerCommand {
    pub program: PathBuf,
    pub args: Vec<OsString>,
}

static WORKER: OnceLock<WorkerCommand> = OnceLock::new();

/// From now on, this process reads PDFs in workers started by `command` (see the module
/// docs). Only the first call counts; it says whether it was the first.
pub fn read_pdfs_in_workers(command: WorkerCommand) -> bool {
    WORKER.set(command).is_ok()
}

/// The limits of one worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Address space, in bytes.
    pub memory: u64,
    /// Processor time, in seconds.
    pub cpu_seconds: u64,
    /// Wall-clock time, after which the worker is killed.
    pub wall: Duration,
}

/// The memory a worker may use whatever the file's size.
pub const BASE_MEMORY: u64 = 512 << 20;
/// The memory a worker may use per byte of the file, on top of [`BASE_MEMORY`].
pub const MEMORY_PER_BYTE: u64 = 16;
/// The processor time a worker may use whatever the file's size, in seconds.
pub const BASE_CPU_SECONDS: u64 = 20;
/// The processor time a worker may use per MiB of the file, in seconds.
pub const CPU_SECONDS_PER_MIB: u64 = 4;

impl Limits {
    /// The limits for a file of `size` bytes: [`BASE_MEMORY`] plus [`MEMORY_PER_BYTE`] times its
    /// size of memory (a 1 MB PDF: 528 MB; the largest, 64 MiB: 1.5 GiB), [`BASE_CPU_SECONDS`]
    /// plus [`CPU_SECONDS_PER_MIB`] per MiB of processor time, and twice that plus ten seconds
    /// of wall-clock time (the machine may be busy). The PDFs of the tests need under 50 MB and
    /// a tenth of a second.
    pub fn for_size(size: u64) -> Limits {
        let cpu_seconds = BASE_CPU_SECONDS + CPU_SECONDS_PER_MIB * size.div_ceil(1 << 20);
        Limits {
            memory: BASE_MEMORY.saturating_add(MEMORY_PER_BYTE.saturating_mul(size)),
            cpu_seconds,
            wall: Duration::from_secs(2 * cpu_seconds + 10),
        }
    }
}

/// What a worker is asked: the first line of its standard input (the file's bytes follow).
#[derive(Serialize, Deserialize)]
struct Request {
    format: SourceFormat,
    /// The file's name, for the document's title and nothing else.
    name: String,
}

/// Why a worker could not read the file: [`LoadError`] without the path (the caller has it).
#[derive(Debug, Serialize, Deserialize)]
enum Failure {
    Corrupt { problem: String },
    MissingPart { part: String },
    Encrypted,
    NoTextLayer { pages: usize },
    OverLimit { what: String, limit: u64 },
    NoText,
    Binary,
    Other { message: String },
}

impl Failure {
    fn of(error: LoadError) -> Failure {
        match error {
            LoadError::Corrupt { problem, .. } => Failure::Corrupt { problem },
            LoadError::MissingPart { part, .. } => Failure::MissingPart { part },
            LoadError::Encrypted { .. } => Failure::Encrypted,
            LoadError::NoTextLayer { pages, .. } => Failure::NoTextLayer { pages },
            LoadError::OverLimit { what, limit, .. } => Failure::OverLimit { what, limit },
            LoadError::NoText { .. } => Failure::NoText,
            LoadError::Binary { .. } => Failure::Binary,
            other => Failure::Other {
                message: other.to_string(),
            },
        }
    }

    fn into_error(self, path: &Path, format: SourceFormat) -> LoadError {
        let path = path.to_path_buf();
        match self {
            Failure::Corrupt { problem } => LoadError::Corrupt {
                path,
                format,
                problem,
            },
            Failure::MissingPart { part } => LoadError::MissingPart { path, format, part },
            Failure::Encrypted => LoadError::Encrypted { path },
            Failure::NoTextLayer { pages } => LoadError::NoTextLayer { path, pages },
            Failure::OverLimit { what, limit } => LoadError::OverLimit { path, what, limit },
            Failure::NoText => LoadError::NoText { path },
            Failure::Binary => LoadError::Binary { path },
            Failure::Other { message } => LoadError::Corrupt {
                path,
                format,
                problem: message,
            },
        }
    }
}

/// The worker's answer, the only line of its standard output.
#[derive(Serialize, Deserialize)]
enum Reply {
    Read(Document),
    Failed(Failure),
}

/// Reads the packaged document in `bytes` in a worker, when this process reads PDFs so and
/// `format` is PDF; `None` otherwise (the caller reads it itself).
pub(crate) fn parse(
    bytes: &[u8],
    path: &Path,
    format: SourceFormat,
) -> Option<Result<Document, LoadError>> {
    let command = WORKER.get().filter(|_| format == SourceFormat::Pdf)?;
    Some(parse_with(
        command,
        Limits::for_size(bytes.len() as u64),
        bytes,
        path,
        format,
    ))
}

/// Reads `bytes` (a `format` file from `path`) in a worker started by `command` under
/// `limits`.
pub fn parse_with(
    command: &WorkerCommand,
    limits: Limits,
    bytes: &[u8],
    path: &Path,
    format: SourceFormat,
) -> Result<Document, LoadError> {
    let stopped = |reason: String| LoadError::Stopped {
        path: path.to_path_buf(),
        format,
        reason,
    };
    let mut child = Command::new(&command.program)
        .args(&command.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| stopped(format!("its worker process could not start ({e})")))?;
    // Before the worker has its first byte: until then it only waits for input.
    limit(&child, limits);
    let request = Request {
        format,
        name: super::file_name(path),
    };
    let mut header = serde_json::to_vec(&request).unwrap_or_default();
    header.push(b'\n');
    let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
    let reply = std::thread::scope(|scope| {
        scope.spawn(move || {
            if let Some(mut stdin) = stdin {
                // A worker that stops reading (it failed, or was killed) closes the pipe.
                let _ = stdin
                    .write_all(&header)
                    .and_then(|()| stdin.write_all(bytes));
            }
        });
        let out = scope.spawn(move || read_at_most(stdout, limits.memory));
        let err = scope.spawn(move || read_at_most(stderr, 64 << 10));
        let status = wait_timeout::ChildExt::wait_timeout(&mut child, limits.wall);
        let status = match status {
            Ok(Some(status)) => Ok(status),
            Ok(None) | Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                Err(())
            }
        };
        let out = out.join().unwrap_or_default();
        let err = err.join().unwrap_or_default();
        (status, out, err)
    });
    let (status, out, err) = reply;
    let Ok(status) = status else {
        return Err(stopped(format!(
            "it took longer than {} s, the time limit for a file of its size",
            limits.wall.as_secs()
        )));
    };
    if status.success()
        && let Ok(reply) = serde_json::from_slice::<Reply>(&out)
    {
        return match reply {
            Reply::Read(doc) => Ok(doc),
            Reply::Failed(failure) => Err(failure.into_error(path, format)),
        };
    }
    Err(stopped(why_stopped(status, &err, limits)))
}

/// Puts `limits` on the child (see the module docs); where that fails, the deadline still holds.
fn limit(child: &std::process::Child, limits: Limits) {
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{Pid, Resource, Rlimit, prlimit};
        let pid = Some(Pid::from_child(child));
        let set = |resource, soft: u64, hard: u64| {
            let _ = prlimit(
                pid,
                resource,
                Rlimit {
                    current: Some(soft),
                    maximum: Some(hard),
                },
            );
        };
        set(Resource::As, limits.memory, limits.memory);
        // SIGXCPU at the soft limit, SIGKILL at the hard one.
        set(Resource::Cpu, limits.cpu_seconds, limits.cpu_seconds + 5);
        set(Resource::Core, 0, 0);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (child, limits);
}

fn read_at_most(pipe: Option<impl Read>, limit: u64) -> Vec<u8> {
    let mut bytes = Vec::new();
    if let Some(pipe) = pipe {
        let _ = pipe.take(limit).read_to_end(&mut bytes);
    }
    bytes
}

/// Why a worker ended without a reply, in words, from its exit status and what it printed.
fn why_stopped(status: std::process::ExitStatus, stderr: &[u8], limits: Limits) -> String {
    let said = String::from_utf8_lossy(stderr);
    let memory = || {
        format!(
            "it needed more memory than {} MB, the limit for a file of its size",
            limits.memory >> 20
        )
    };
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        match status.signal() {
            Some(libc::SIGXCPU) | Some(libc::SIGKILL) => {
                return format!(
                    "it took more than {} s of processor time, the limit for a file of its size",
                    limits.cpu_seconds
                );
            }
            Some(_) if said.contains("memory allocation of") => return memory(),
            Some(_) if said.contains("overflowed its stack") => {
                return "its reader crashed (a stack overflow: structures nested too deep?)".into();
            }
            Some(signal) => return format!("its reader crashed (signal {signal})"),
            None => {}
        }
    }
    if said.contains("memory allocation of") {
        return memory();
    }
    match status.code() {
        Some(code) => format!("its reader failed (exit status {code})"),
        None => "its reader failed".into(),
    }
}

/// The worker's side: reads a request and the file's bytes from `input`, reads the document in
/// this process, and writes the reply to `output`.
pub fn serve(input: impl Read, mut output: impl Write) -> std::io::Result<()> {
    let mut input = std::io::BufReader::new(input);
    let mut line = String::new();
    input.read_line(&mut line)?;
    let request: Request = serde_json::from_str(&line)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes)?;
    let path = PathBuf::from(&request.name);
    let reply = match super::formats::parse_here(&bytes, &path, request.format) {
        Ok(doc) => Reply::Read(doc),
        Err(error) => Reply::Failed(Failure::of(error)),
    };
    serde_json::to_writer(&mut output, &reply)?;
    output.write_all(b"\n")?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_grow_with_the_file() {
        let small = Limits::for_size(88_000);
        assert_eq!(small.memory, (512 << 20) + 16 * 88_000);
        assert_eq!((small.cpu_seconds, small.wall.as_secs()), (24, 58));
        let largest = Limits::for_size(64 << 20);
        assert_eq!(largest.memory, (512 << 20) + (1 << 30));
        assert_eq!(largest.cpu_seconds, 20 + 4 * 64);
    }

    /// The worker side, in this process: a PDF read, and a failure carried with its kind.
    #[test]
    fn a_request_is_answered_with_the_document_or_the_failure() {
        let pdf = std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats/lincoln-1861.pdf"),
        )
        .unwrap();
        let mut input = b"{\"format\":\"pdf\",\"name\":\"lincoln.pdf\"}\n".to_vec();
        input.extend_from_slice(&pdf);
        let mut out = Vec::new();
        serve(input.as_slice(), &mut out).unwrap();
        let Reply::Read(doc) = serde_json::from_slice(&out).unwrap() else {
            panic!("not read");
        };
        let here =
            super::super::formats::parse_here(&pdf, Path::new("lincoln.pdf"), SourceFormat::Pdf)
                .unwrap();
        assert_eq!(doc, here);
        let mut out = Vec::new();
        serve(
            &b"{\"format\":\"pdf\",\"name\":\"x.pdf\"}\n%PDF-1.4 junk"[..],
            &mut out,
        )
        .unwrap();
        let Reply::Failed(failure) = serde_json::from_slice(&out).unwrap() else {
            panic!("read junk");
        };
        let error = failure.into_error(Path::new("dir/x.pdf"), SourceFormat::Pdf);
        assert!(
            error
                .to_string()
                .starts_with("dir/x.pdf: is not a readable PDF file: "),
            "{error}"
        );
    }

    /// A stand-in worker: this test binary, running one of the ignored tests below.
    fn stand_in(test: &str) -> WorkerCommand {
        WorkerCommand {
            program: std::env::current_exe().unwrap(),
            args: [
                "--ignored",
                "--exact",
                test,
                "--nocapture",
                "--test-threads=1",
            ]
            .map(OsString::from)
            .to_vec(),
        }
    }

    fn small_limits() -> Limits {
        Limits {
            memory: 256 << 20,
            cpu_seconds: 2,
            wall: Duration::from_secs(30),
        }
    }

    #[test]
    #[ignore = "a stand-in worker for the tests below, not a test"]
    fn worker_that_allocates_without_end() {
        let mut held: Vec<Vec<u8>> = Vec::new();
        loop {
            held.push(vec![1u8; 16 << 20]);
        }
    }

    #[test]
    #[ignore = "a stand-in worker for the tests below, not a test"]
    fn worker_that_spins_without_end() {
        let mut x = 0u64;
        loop {
            x = std::hint::black_box(x.wrapping_add(1));
        }
    }

    #[test]
    #[ignore = "a stand-in worker for the tests below, not a test"]
    fn worker_that_sleeps_without_end() {
        loop {
            std::thread::sleep(Duration::from_secs(60));
        }
    }

    /// The error of reading a PDF with the stand-in worker `test` under `limits`.
    #[cfg(target_os = "linux")]
    fn stopped_by(test: &str, limits: Limits) -> String {
        let worker = stand_in(&format!("document::worker::tests::{test}"));
        parse_with(
            &worker,
            limits,
            b"%PDF-1.4",
            Path::new("hostile.pdf"),
            SourceFormat::Pdf,
        )
        .map(|_| "read".to_string())
        .unwrap_or_else(|error| error.to_string())
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_worker_past_its_memory_or_time_is_stopped_with_a_clear_error() {
        let started = std::time::Instant::now();
        let stopped = "hostile.pdf: reading this PDF file was stopped:";
        assert_eq!(
            stopped_by("worker_that_allocates_without_end", small_limits()),
            format!(
                "{stopped} it needed more memory than 256 MB, the limit for a file of its size"
            )
        );
        assert_eq!(
            stopped_by("worker_that_spins_without_end", small_limits()),
            format!(
                "{stopped} it took more than 2 s of processor time, the limit for a file of its \
                 size"
            )
        );
        let limits = Limits {
            wall: Duration::from_secs(1),
            ..small_limits()
        };
        assert_eq!(
            stopped_by("worker_that_sleeps_without_end", limits),
            format!("{stopped} it took longer than 1 s, the time limit for a file of its size")
        );
        // A generous guard: the three stop in about 4 s together.
        assert!(started.elapsed() < Duration::from_secs(60));
    }
}

//! Output paths of every kind, written the way a shell's `>` would (src/write/target.rs), end to
//! end through the binary and each run under a time limit: a new file, a regular file and the
//! file a symbolic link leads to by transaction; a FIFO, a process substitution and a character
//! device streamed to (never replaced: as root, `--json /dev/null` replaced the system's
//! `/dev/null` with a regular file); a read-only file refused as the shell refuses it; a missing
//! output folder refused before any work. Nothing here touches a real device: the character
//! device is made in the test's own folder, where the system allows it.
#![cfg(unix)]

use crate::common;

use std::io::Read;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{BoundedRun, arg, simdoc_bounded};

const TIME_LIMIT: Duration = Duration::from_secs(60);

/// Two short documents sharing a sentence, in `dir`.
fn documents(dir: &Path) -> (PathBuf, PathBuf) {
    let a = dir.join("a.txt");
    let b = dir.join("b.txt");
    std::fs::write(
        &a,
        "The harbour froze early that winter. Boats stayed in for weeks.",
    )
    .unwrap();
    std::fs::write(
        &b,
        "The harbour froze early that winter. Nobody fished until March.",
    )
    .unwrap();
    (a, b)
}

/// `compare a b --json target` under the time limit.
fn compare_to(a: &Path, b: &Path, target: &Path) -> BoundedRun {
    simdoc_bounded(
        &["compare", "-q", arg(a), arg(b), "--json", arg(target)],
        TIME_LIMIT,
    )
}

fn is_report(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| v["figures"].is_object())
}

fn mkfifo(path: &Path) {
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .unwrap();
}

/// Reads a FIFO to its end in a thread, and a handle that keeps it open for writing: neither
/// the reader's `open` nor a writer's blocks, and the reader gets its end of file only once
/// that handle is dropped, after the run (a run that replaced the FIFO instead of writing to
/// it leaves the reader with nothing, not waiting for ever).
fn read_fifo(fifo: &Path) -> (std::thread::JoinHandle<String>, std::fs::File) {
    // Read and write: a FIFO opened so on Linux neither blocks nor waits for the other end.
    let keep = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(fifo)
        .unwrap();
    // Opened here, before the run: a run that put a file in the FIFO's place must not have the
    // reader read that file.
    let mut end = std::fs::File::open(fifo).unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = end.read_to_string(&mut text);
        text
    });
    (reader, keep)
}

/// A new file, a regular file (its mode kept), the file a symbolic link leads to (the link
/// stays a link; it was replaced by a regular file), and the file a dangling link names (made).
#[test]
fn files_new_existing_and_behind_links_are_written_by_transaction() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = documents(dir.path());
    let fresh = dir.path().join("fresh.json");
    let out = compare_to(&a, &b, &fresh);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(is_report(&std::fs::read_to_string(&fresh).unwrap()));

    let existing = dir.path().join("existing.json");
    std::fs::write(&existing, "old").unwrap();
    std::fs::set_permissions(&existing, std::fs::Permissions::from_mode(0o640)).unwrap();
    let out = compare_to(&a, &b, &existing);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(is_report(&std::fs::read_to_string(&existing).unwrap()));
    let mode = std::fs::metadata(&existing).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o640);

    let real = dir.path().join("real.json");
    std::fs::write(&real, "old").unwrap();
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink("real.json", &link).unwrap();
    let out = compare_to(&a, &b, &link);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link was replaced"
    );
    assert!(is_report(&std::fs::read_to_string(&real).unwrap()));

    let dangling = dir.path().join("dangling.json");
    std::os::unix::fs::symlink("made.json", &dangling).unwrap();
    let out = compare_to(&a, &b, &dangling);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        std::fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(is_report(
        &std::fs::read_to_string(dir.path().join("made.json")).unwrap()
    ));
}

/// A FIFO's reader gets the report (it got nothing: the FIFO was replaced by a file), and the
/// FIFO stays a FIFO; likewise `--csv` and `--html`.
#[test]
fn a_fifo_is_streamed_to_its_reader() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = documents(dir.path());
    for flag in ["--json", "--csv", "--html"] {
        let fifo = dir.path().join("pipe");
        mkfifo(&fifo);
        let (reader, keep) = read_fifo(&fifo);
        let out = simdoc_bounded(
            &["compare", "-q", arg(&a), arg(&b), flag, arg(&fifo)],
            TIME_LIMIT,
        );
        drop(keep);
        let text = reader.join().unwrap();
        assert_eq!(out.code, Some(0), "{flag}: {out:?}");
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "{flag}: the FIFO was replaced");
        match flag {
            "--json" => assert!(is_report(&text), "{flag}: {text:?}"),
            "--csv" => assert!(text.contains("harbour froze"), "{flag}: {text:?}"),
            _ => assert!(text.contains("<html"), "{flag}: {text:?}"),
        }
        std::fs::remove_file(&fifo).unwrap();
    }
}

/// `--json >(cat)`: bash's process substitution, a pipe at `/dev/fd/N` (it failed: a temporary
/// file could not be made in /dev/fd).
#[test]
fn a_process_substitution_is_streamed_to() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = documents(dir.path());
    if Command::new("bash").arg("-c").arg("true").status().is_err() {
        println!("skipped: no bash to make a process substitution");
        return;
    }
    let script = format!(
        "exec \"$0\" compare -q '{}' '{}' --json >(cat)",
        arg(&a),
        arg(&b)
    );
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_simdoc"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let status = wait_timeout::ChildExt::wait_timeout(&mut child, TIME_LIMIT).unwrap();
    let Some(status) = status else {
        let _ = child.kill();
        panic!("still running after {TIME_LIMIT:?}: killed");
    };
    // `cat` holds the pipe until it has copied the report.
    let mut text = String::new();
    stdout.read_to_string(&mut text).unwrap();
    let err = err.join().unwrap();
    assert!(status.success(), "{err}");
    assert!(is_report(&text), "{text:?} {err}");
}

/// A character device made in the test's folder (`mknod`, as root, where the folder's file
/// system allows devices) stands in for `/dev/null`: written to, still a device afterwards.
#[test]
fn a_character_device_is_written_to_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = documents(dir.path());
    let null = dir.path().join("null");
    let made = rustix::fs::mknodat(
        rustix::fs::CWD,
        &null,
        rustix::fs::FileType::CharacterDevice,
        rustix::fs::Mode::from_raw_mode(0o666),
        rustix::fs::makedev(1, 3),
    );
    if let Err(error) = made {
        println!("skipped: cannot make a character device here ({error}; needs root)");
        return;
    }
    if let Err(error) = std::fs::OpenOptions::new().write(true).open(&null) {
        println!("skipped: the folder's file system refuses devices ({error})");
        return;
    }
    for flag in ["--json", "--csv", "--html", "--dotplot"] {
        let target = if flag == "--dotplot" {
            // The dotplot's format comes from its name: a link named .svg to the device.
            let link = dir.path().join("null.svg");
            let _ = std::os::unix::fs::symlink(&null, &link);
            link
        } else {
            null.clone()
        };
        let out = simdoc_bounded(
            &["compare", "-q", arg(&a), arg(&b), flag, arg(&target)],
            TIME_LIMIT,
        );
        assert_eq!(out.code, Some(0), "{flag}: {out:?}");
        let kind = std::fs::symlink_metadata(&null).unwrap().file_type();
        assert!(kind.is_char_device(), "{flag}: the device was replaced");
    }
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".partial")), "{names:?}");
}

/// Whether `sh -c ': > FILE'`, run as `user` (or as this process's user), may write `file`.
fn shell_may_write(file: &Path, user: Option<u32>) -> bool {
    let mut shell = Command::new("sh");
    shell.arg("-c").arg(": > \"$0\"").arg(file);
    if let Some(id) = user {
        std::os::unix::process::CommandExt::uid(&mut shell, id);
        std::os::unix::process::CommandExt::gid(&mut shell, id);
    }
    shell.output().unwrap().status.success()
}

/// A read-only (mode 444) report owned by someone else, in a folder anyone may write: the
/// shell's `>` refuses it, and so does simdoc, before any work, with the system's words (it
/// was replaced: a rename needs only the folder's permission). Run as user `nobody` when the
/// test runs as root (root may write any file, as the shell would let it), else as the test's
/// own user.
#[test]
fn a_read_only_file_is_refused_as_the_shell_refuses_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let (a, b) = documents(dir.path());
    let report = dir.path().join("report.json");
    std::fs::write(&report, "old").unwrap();
    std::fs::set_permissions(&report, std::fs::Permissions::from_mode(0o444)).unwrap();
    let root = rustix::process::geteuid().is_root();
    let user = root.then_some(65534);
    // Not the binary's own check: a user the shell lets write there is let by simdoc too.
    assert!(!shell_may_write(&report, user), "the shell may write it");
    let mut command = Command::new(env!("CARGO_BIN_EXE_simdoc"));
    command.args(["compare", "-q", arg(&a), arg(&b), "--json", arg(&report)]);
    if let Some(id) = user {
        std::os::unix::process::CommandExt::uid(&mut command, id);
        std::os::unix::process::CommandExt::gid(&mut command, id);
    }
    let out = command.stdin(Stdio::null()).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("report.json: cannot write: Permission denied"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&report).unwrap(), "old");
    let mode = std::fs::metadata(&report).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o444);
    // Root may write it, as with the shell: replaced, still read-only, still root's.
    if root {
        assert!(shell_may_write(&report, None));
        std::fs::write(&report, "old").unwrap();
        let out = compare_to(&a, &b, &report);
        assert_eq!(out.code, Some(0), "{out:?}");
        assert!(is_report(&std::fs::read_to_string(&report).unwrap()));
        let mode = std::fs::metadata(&report).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o444);
    }
}

/// An output in a folder that does not exist is refused before any work (it was reported only
/// once the whole comparison was done): the error is the folder's even when an input is bad,
/// which reading the documents would have found first; `collection` likewise.
#[test]
fn a_missing_output_folder_is_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _) = documents(dir.path());
    let binary = dir.path().join("binary.txt");
    std::fs::write(&binary, [0u8, 1, 2, 3, 0, 0, 0, 9].repeat(100)).unwrap();
    let missing = dir.path().join("no such folder");
    for flag in ["--json", "--csv", "--html", "--dotplot"] {
        let target = missing.join("report.svg");
        let out = simdoc_bounded(
            &["compare", arg(&a), arg(&binary), flag, arg(&target)],
            TIME_LIMIT,
        );
        assert_eq!(out.code, Some(1), "{flag}: {out:?}");
        assert_eq!(
            out.stderr,
            format!(
                "simdoc: {}: cannot write: its folder {} does not exist\n",
                arg(&target),
                arg(&missing)
            ),
            "{flag}"
        );
    }
    let folder = dir.path().join("documents");
    std::fs::create_dir(&folder).unwrap();
    std::fs::copy(&a, folder.join("a.txt")).unwrap();
    std::fs::copy(&a, folder.join("b.txt")).unwrap();
    for flag in ["--json", "--csv", "--html"] {
        let target = missing.join("report");
        let out = simdoc_bounded(
            &["collection", arg(&folder), flag, arg(&target)],
            TIME_LIMIT,
        );
        assert_eq!(out.code, Some(1), "{flag}: {out:?}");
        assert!(
            out.stderr.contains("does not exist") && out.stdout.is_empty(),
            "{flag}: {out:?}"
        );
    }
}

/// How many `write` system calls a run of the binary made: its `/proc/PID/io` read once it has
/// exited but before it is reaped (`waitid` with `WNOWAIT`). Killed past the time limit.
// The child is reaped by `Child::wait` at the end, after its counters are read.
#[allow(clippy::zombie_processes)]
fn write_calls_of(args: &[&str]) -> (u64, Vec<u8>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_simdoc"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        // Its messages go to an unnamed temporary file, never to a device.
        .stderr(tempfile::tempfile().unwrap())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let drain = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        bytes
    });
    let pid = child.id();
    let deadline = std::time::Instant::now() + TIME_LIMIT;
    #[allow(
        unsafe_code,
        reason = "libc::waitid with WNOWAIT has no safe wrapper here"
    )]
    loop {
        // SAFETY: a plain system call on our own child with a zeroed out-structure.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let done = unsafe {
            libc::waitid(
                libc::P_PID,
                pid,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            )
        };
        assert_eq!(done, 0, "waitid: {}", std::io::Error::last_os_error());
        // SAFETY: filled by waitid; 0 while the child runs.
        if unsafe { info.si_pid() } != 0 {
            break;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("simdoc {args:?} still running after {TIME_LIMIT:?}: killed");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let io = std::fs::read_to_string(format!("/proc/{pid}/io")).unwrap();
    let calls = io
        .lines()
        .find_map(|line| line.strip_prefix("syscw:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
    (calls, drain.join().unwrap())
}

/// `inspect --json` to a pipe writes in large pieces (it made one system call per line: 2.75
/// million for 250,000 sentences, 10 s of system time against 1.5 s of user time). Here 20,000
/// sentences print about 220,000 lines of JSON (20,000 of outline), in at most one call per
/// 100 lines.
#[test]
fn inspect_json_to_standard_output_is_written_in_large_pieces() {
    let dir = tempfile::tempdir().unwrap();
    let text: String = (0..20_000)
        .map(|i| format!("Sentence number {i} is about the harbour. "))
        .collect();
    let path = dir.path().join("long.txt");
    std::fs::write(&path, text).unwrap();
    for args in [
        vec!["inspect", "--json", arg(&path)],
        vec!["inspect", arg(&path)],
    ] {
        let (calls, out) = write_calls_of(&args);
        let lines = out.iter().filter(|&&b| b == b'\n').count() as u64;
        assert!(lines >= 20_000, "{args:?}: {lines} lines");
        assert!(
            calls * 100 <= lines,
            "{args:?}: {calls} write calls for {lines} lines"
        );
    }
}

//! The layers of ARCHITECTURE.md as a check: no module of `src/` names a module above its own
//! (a `crate::` path in code, doc comments and test modules aside), so that the arrows between
//! layers run one way only.

use std::path::{Path, PathBuf};

/// The top-level modules from the bottom layer up, in the order ARCHITECTURE.md lists them: a
/// module may use those before it.
const LAYERS: [&str; 17] = [
    "escape",
    "read",
    "write",
    "linalg",
    "text",
    "document",
    "corpus",
    "selection",
    "model",
    "similarity",
    "compare",
    "sources",
    "collection",
    "render",
    "eval",
    "app",
    "cli",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a source file without its comments and its `#[cfg(test)] mod tests` (tests may
/// use anything).
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn no_module_uses_a_module_above_its_own() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let rank = |name: &str| LAYERS.iter().position(|m| *m == name);
    let mut upward = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src");
        let top = relative
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .expect("a name")
            .trim_end_matches(".rs");
        if top == "lib" || top == "main" || relative.ends_with("tests.rs") {
            continue;
        }
        let own = rank(top).unwrap_or_else(|| panic!("{top} is not in LAYERS"));
        let code = code_of(&std::fs::read_to_string(file).expect("a source file"));
        for prefix in ["crate::", "simdoc::"] {
            for (at, _) in code.match_indices(prefix) {
                let name: String = code[at + prefix.len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                if let Some(used) = rank(&name)
                    && used > own
                {
                    upward.push(format!("{} uses {name}", relative.display()));
                }
            }
        }
    }
    upward.sort();
    upward.dedup();
    assert!(upward.is_empty(), "upward uses:\n{}", upward.join("\n"));
    // Every top-level module is placed.
    for entry in std::fs::read_dir(&src).expect("src") {
        let name = entry.expect("an entry").file_name();
        let name = name.to_string_lossy();
        let name = name.trim_end_matches(".rs");
        if name != "lib" && name != "main" {
            assert!(rank(name).is_some(), "{name} is not in LAYERS");
        }
    }
}

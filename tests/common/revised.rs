//! A long text and a revised copy of it, from the Wikipedia articles of the shared data: the
//! researcher's case of issue 29 ("5 MB against a revised copy"), made the same way every time.
//! Used by the export tests and by `examples/revised_pair.rs`, which writes the pair for the
//! export measurements (scripts/bench-exports.sh).

use std::path::Path;

/// The paragraphs of the WikiExtractor files `wiki_00`, `wiki_01`, ... under
/// `reference/enwiki-2015/text/AA` of `data`, in order, until they hold `bytes` bytes; then
/// `extra` more paragraphs (the text a revision adds).
fn paragraphs(data: &Path, bytes: usize, extra: usize) -> (Vec<String>, Vec<String>) {
    let folder = data.join("reference/enwiki-2015/text/AA");
    let (mut kept, mut added, mut size) = (Vec::new(), Vec::new(), 0usize);
    for file in 0..100 {
        let path = folder.join(format!("wiki_{file:02}"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!("{}: {e} (is SIMDOC_DATA the shared data?)", path.display())
        });
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with("<doc ") || line == "</doc>" {
                continue;
            }
            if size < bytes {
                size += line.len() + 2;
                kept.push(line.to_string());
            } else if added.len() < extra {
                added.push(line.to_string());
            } else {
                return (kept, added);
            }
        }
    }
    (kept, added)
}

/// A text of about `bytes` bytes (paragraphs of Wikipedia articles) and its revision: of every
/// 20 paragraphs, one is deleted, one replaced by a paragraph from further on (added text), one
/// moved three paragraphs down, and a third of the rest edited (every ninth word dropped).
pub fn revised_pair(data: &Path, bytes: usize) -> (String, String) {
    let (original, mut fresh) = paragraphs(data, bytes, bytes / 20_000 + 1);
    fresh.reverse();
    let mut revised: Vec<String> = Vec::with_capacity(original.len());
    let mut moved: Vec<(usize, String)> = Vec::new();
    for (i, paragraph) in original.iter().enumerate() {
        match i % 20 {
            5 => {}
            11 => revised.push(fresh.pop().unwrap_or_default()),
            15 => moved.push((i + 3, paragraph.clone())),
            _ if i % 3 == 0 => revised.push(
                paragraph
                    .split(' ')
                    .enumerate()
                    .filter(|(n, _)| n % 9 != 8)
                    .map(|(_, word)| word)
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            _ => revised.push(paragraph.clone()),
        }
        while moved.first().is_some_and(|(at, _)| *at == i) {
            revised.push(moved.remove(0).1);
        }
    }
    revised.extend(moved.into_iter().map(|(_, p)| p));
    (original.join("\n\n"), revised.join("\n\n"))
}

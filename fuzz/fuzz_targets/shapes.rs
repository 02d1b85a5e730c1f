//! The structures the format targets build from fuzzer bytes, shared with the regression tests
//! (`tests/fuzz_findings.rs` includes this file): mutations land inside the parts a reader
//! parses instead of in the bookkeeping around them (a zip's checksums, a PDF's byte offsets),
//! which a random change breaks at once and which readers check first.
//!
//! - [`pdf_from_objects`]: a PDF from a list of object bodies, numbered from 1 (the first is the
//!   catalog), each stream's `/Length` set to its data and, on request, its data deflated, with a
//!   correct cross-reference table;
//! - [`zip_from_parts`]: a zip container (stored, uncompressed) from named parts.
#![allow(dead_code)]

use std::io::Write;

/// The separator of objects in a PDF target input.
pub const OBJECT_SEPARATOR: &[u8] = b"\nendobj\n";
/// The separator of a part's name from its content, and of parts, in a package target input.
pub const PART_SEPARATOR: u8 = 0;

/// A stream object's dictionary and data, if `body` is one (`... stream\n DATA \nendstream`).
fn split_stream(body: &[u8]) -> Option<(&[u8], &[u8])> {
    let at = memchr::memmem::find(body, b"stream\n")?;
    let data = &body[at + b"stream\n".len()..];
    let data = data.strip_suffix(b"\nendstream").unwrap_or(data);
    Some((&body[..at], data))
}

/// A PDF from `input`: object bodies separated by [`OBJECT_SEPARATOR`] (see the module docs).
/// With `deflate`, every stream's data is deflated and marked so.
pub fn pdf_from_objects(input: &[u8], deflate: bool) -> Vec<u8> {
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in memchr::memmem::find_iter(input, OBJECT_SEPARATOR)
        .chain(std::iter::once(input.len()))
        .scan(0, |start, end| {
            let part = &input[*start..end];
            *start = (end + OBJECT_SEPARATOR.len()).min(input.len());
            Some(part)
        })
        .enumerate()
    {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        match split_stream(body) {
            Some((dict, data)) => {
                let data = if deflate {
                    let mut encoder =
                        flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
                    let _ = encoder.write_all(data);
                    encoder.finish().unwrap_or_default()
                } else {
                    data.to_vec()
                };
                // The entries added last win over any the dictionary has.
                let close = memchr::memmem::rfind(dict, b">>").unwrap_or(dict.len());
                out.extend_from_slice(&dict[..close]);
                out.extend_from_slice(format!(" /Length {}", data.len()).as_bytes());
                if deflate {
                    out.extend_from_slice(b" /Filter /FlateDecode");
                }
                out.extend_from_slice(&dict[close..]);
                out.extend_from_slice(b"stream\n");
                out.extend_from_slice(&data);
                out.extend_from_slice(b"\nendstream");
            }
            None => out.extend_from_slice(body),
        }
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", offsets.len() + 1).as_bytes(),
    );
    for offset in &offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            offsets.len() + 1
        )
        .as_bytes(),
    );
    out
}

/// A zip container from `input`: `name NUL content NUL name NUL content ...` (a last name
/// without content is an empty part), every part stored as it is.
pub fn zip_from_parts(input: &[u8]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let mut fields = input.split(|&b| b == PART_SEPARATOR);
    while let Some(name) = fields.next() {
        let content = fields.next().unwrap_or_default();
        let name = String::from_utf8_lossy(name);
        if writer.start_file(name.as_ref(), options).is_err() {
            continue;
        }
        let _ = writer.write_all(content);
    }
    writer
        .finish()
        .map(std::io::Cursor::into_inner)
        .unwrap_or_default()
}

/// Every document a target reads must be consistent: sentence spans index its text on
/// character boundaries, nodes point at existing sentences.
pub fn check_document(doc: &simdoc::document::Document) {
    for sentence in &doc.sentences {
        assert_eq!(
            doc.text.get(sentence.span.clone()),
            Some(sentence.text.as_str())
        );
        assert!(sentence.node < doc.nodes.len());
    }
    for node in &doc.nodes {
        assert!(node.own_sentences.end <= doc.sentences.len());
        assert!(node.subtree_sentences.start <= node.own_sentences.start);
        assert!(node.own_sentences.end <= node.subtree_sentences.end);
    }
}

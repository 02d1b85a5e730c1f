//! Streams whose `/Length` is wrong, read up to their `endstream`, as viewers read them.
//!
//! `lopdf` reads exactly `/Length` bytes of a stream and wants `endstream` right after them (an
//! end of line between allowed). Where the length is wrong (too short, too long, past the end
//! of the file, negative, or an indirect number that is wrong) the whole object fails to load and
//! is left out of the document; where it is missing or unreadable, the stream loads empty. A page
//! whose content stream is lost has no text, and a file whose pages all lost theirs was called a
//! scan (issue 44, item 10).
//!
//! [`recover`] finds both after `lopdf` has loaded the file: objects the cross-reference table
//! places in the file that did not load, and streams loaded empty without a usable length. It
//! reads each one's stream data from the raw bytes, from the end of line after `stream` to the
//! first `endstream` (less the end of line before it), and its dictionary with `lopdf`'s own
//! parser: every such dictionary, unchanged, becomes an object of one small PDF built for the
//! purpose, which `lopdf` loads. The data gets its true `/Length`.
//!
//! Bounds: each object's header is checked against the number the table gives it, so no offset
//! is read for two objects; the `endstream` keywords are found in one pass over the file and each
//! stream's end by a binary search among them, so the work is linear in the file whatever it
//! holds; what is recovered is a part of the file (its unpacked size is counted later with every
//! other stream's). Not recovered: streams of an encrypted file (their data would need
//! decrypting as `lopdf` decrypts what it loads) and object streams (`/Type /ObjStm`, unpacked by
//! `lopdf` only while it loads).

use pdf_extract::xref::XrefEntry;
use pdf_extract::{Document, Object, ObjectId, Stream};

/// A stream in the raw file: its object id, and where its dictionary's text and its data are.
struct Lost {
    id: ObjectId,
    dictionary: std::ops::Range<usize>,
    data: std::ops::Range<usize>,
}

/// Where the keywords that bound objects and streams are in a file, each list in order.
struct Keywords {
    /// `stream` (not as the end of `endstream`).
    stream: Vec<usize>,
    endstream: Vec<usize>,
    /// `obj` (not as the end of `endobj`): where objects start.
    obj: Vec<usize>,
    endobj: Vec<usize>,
}

impl Keywords {
    fn of(bytes: &[u8]) -> Keywords {
        let find = |keyword: &[u8]| memchr::memmem::find_iter(bytes, keyword).collect::<Vec<_>>();
        let not_an_end = |at: &usize| *at < 3 || &bytes[at - 3..*at] != b"end";
        Keywords {
            stream: find(b"stream").into_iter().filter(not_an_end).collect(),
            endstream: find(b"endstream"),
            obj: find(b"obj").into_iter().filter(not_an_end).collect(),
            endobj: find(b"endobj"),
        }
    }

    /// The first position in `list` at or after `from`.
    fn next(list: &[usize], from: usize) -> Option<usize> {
        list.get(list.partition_point(|&at| at < from)).copied()
    }
}

/// The streams of `doc` (loaded from `bytes`) that a wrong `/Length` lost or emptied, read to
/// their `endstream` (see the module docs); empty for an encrypted file.
pub fn recover(doc: &Document, bytes: &[u8]) -> Vec<(ObjectId, Stream)> {
    if doc.is_encrypted() || doc.encryption_state.is_some() {
        return Vec::new();
    }
    // Found once, when the first object that may have lost its stream needs them.
    let mut keywords: Option<Keywords> = None;
    let mut lost: Vec<Lost> = Vec::new();
    let mut recovered: Vec<(ObjectId, Stream)> = Vec::new();
    for (&number, entry) in &doc.reference_table.entries {
        let &XrefEntry::Normal { offset, generation } = entry else {
            continue;
        };
        let id = (number, generation);
        let mut raw_stream = || {
            let keywords = keywords.get_or_insert_with(|| Keywords::of(bytes));
            stream_at(bytes, keywords, offset as usize, id)
        };
        match doc.objects.get(&id) {
            // `lopdf` gave up on the object (a negative length).
            None => lost.extend(raw_stream()),
            // `lopdf` read the dictionary alone when the data did not end at its length.
            Some(Object::Dictionary(dict)) => {
                if let Some(found) = raw_stream() {
                    let content = bytes[found.data].to_vec();
                    recovered.push((id, Stream::new(dict.clone(), content)));
                }
            }
            // `lopdf` loads a stream without a usable length empty.
            Some(Object::Stream(stream)) if stream.content.is_empty() => {
                let Some(start) = stream.start_position else {
                    continue;
                };
                let length = stream
                    .dict
                    .get(b"Length")
                    .and_then(|length| doc.dereference(length))
                    .and_then(|(_, length)| length.as_i64());
                if length.is_ok_and(|length| length >= 0) {
                    continue;
                }
                let keywords = keywords.get_or_insert_with(|| Keywords::of(bytes));
                if let Some(end) = Keywords::next(&keywords.endstream, start) {
                    let content = bytes[start..data_end(bytes, start, end)].to_vec();
                    recovered.push((id, Stream::new(stream.dict.clone(), content)));
                }
            }
            Some(_) => {}
        }
    }
    let dictionaries = dictionaries_of(bytes, &lost);
    for found in lost {
        if let Some(Object::Dictionary(dict)) = dictionaries.objects.get(&found.id) {
            let content = bytes[found.data].to_vec();
            recovered.push((found.id, Stream::new(dict.clone(), content)));
        }
    }
    recovered.retain(|(_, stream)| !stream.dict.has_type(b"ObjStm"));
    recovered.sort_unstable_by_key(|(id, _)| *id);
    recovered
}

/// The object `id` that the table places at `offset` of `bytes`, if it is a stream: its header
/// names `id`, a `stream` keyword follows its dictionary (`>>`, white space, `stream`) before
/// any `endobj` or other object's header, and an `endstream` follows that.
fn stream_at(bytes: &[u8], keywords: &Keywords, offset: usize, id: ObjectId) -> Option<Lost> {
    let after_header = offset + header_length(bytes.get(offset..)?, id)?;
    let keyword = Keywords::next(&keywords.stream, after_header)?;
    let before = |list: &[usize]| Keywords::next(list, after_header).is_some_and(|at| at < keyword);
    // Another object's stream: this object ended first, with its `endobj` or without.
    if before(&keywords.endobj) || before(&keywords.obj) {
        return None;
    }
    let dictionary = bytes[after_header..keyword].trim_ascii_end();
    if !dictionary.ends_with(b">>") {
        return None;
    }
    let start = data_start(bytes, keyword)?;
    let end = Keywords::next(&keywords.endstream, start)?;
    Some(Lost {
        id,
        dictionary: after_header..after_header + dictionary.len(),
        data: start..data_end(bytes, start, end),
    })
}

/// Where the data of the stream whose `stream` keyword is at `keyword` starts, as `lopdf` finds
/// it: after spaces or tabs and one end of line.
fn data_start(bytes: &[u8], keyword: usize) -> Option<usize> {
    let mut at = keyword + b"stream".len();
    while matches!(bytes.get(at), Some(b' ' | b'\t')) {
        at += 1;
    }
    match bytes.get(at..at + 2) {
        Some(b"\r\n") => Some(at + 2),
        _ if matches!(bytes.get(at), Some(b'\n' | b'\r')) => Some(at + 1),
        _ => None,
    }
}

/// Where the data of a stream whose data starts at `start` and whose `endstream` keyword is at
/// `keyword` ends: before the end of line in front of the keyword, if there is one.
fn data_end(bytes: &[u8], start: usize, keyword: usize) -> usize {
    let before = &bytes[start..keyword];
    let eol = if before.ends_with(b"\r\n") {
        2
    } else if before.ends_with(b"\n") || before.ends_with(b"\r") {
        1
    } else {
        0
    };
    keyword - eol
}

/// The length of the header `N G obj` of the object `id` at the start of `bytes`, with the
/// white space after it; `None` unless it is there and names `id`. Runs of digits and of white
/// space are read up to [`MAX_RUN`] bytes, so that a header is read in constant time wherever
/// the table points.
fn header_length(bytes: &[u8], (number, generation): ObjectId) -> Option<usize> {
    let run = |from: usize, take: fn(&u8) -> bool| {
        bytes.get(from..).map_or(0, |rest| {
            rest.iter().take(MAX_RUN).take_while(|b| take(b)).count()
        })
    };
    let number_at = |from: usize| {
        let digits = run(from, u8::is_ascii_digit);
        let text = std::str::from_utf8(bytes.get(from..from + digits)?).ok()?;
        Some((text.parse::<u64>().ok()?, from + digits))
    };
    let white = |from: usize| from + run(from, |b| b" \t\r\n\x0c\x00".contains(b));
    let (found_number, at) = number_at(0)?;
    let (found_generation, at) = number_at(white(at))?;
    let at = white(at);
    if !bytes.get(at..)?.starts_with(b"obj") {
        return None;
    }
    (found_number == u64::from(number) && found_generation == u64::from(generation))
        .then_some(white(at + 3))
}

/// Longest run of digits or white space read in an object's header.
const MAX_RUN: usize = 64;

/// The dictionaries of `lost`, read by `lopdf`: each dictionary's text, unchanged, as an object
/// of a small PDF (with its own cross-reference table), which `lopdf` loads.
fn dictionaries_of(bytes: &[u8], lost: &[Lost]) -> Document {
    if lost.is_empty() {
        return Document::new();
    }
    let mut pdf = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::with_capacity(lost.len());
    for found in lost {
        offsets.push((found.id, pdf.len()));
        pdf.extend_from_slice(format!("{} {} obj\n", found.id.0, found.id.1).as_bytes());
        pdf.extend_from_slice(&bytes[found.dictionary.clone()]);
        pdf.extend_from_slice(b"\nendobj\n");
    }
    let table = pdf.len();
    pdf.extend_from_slice(b"xref\n0 1\n0000000000 65535 f \n");
    for ((number, generation), offset) in &offsets {
        pdf.extend_from_slice(format!("{number} 1\n{offset:010} {generation:05} n \n").as_bytes());
    }
    let size = offsets.iter().map(|((n, _), _)| *n).max().unwrap_or(0) + 1;
    pdf.extend_from_slice(
        format!("trailer\n<< /Size {size} >>\nstartxref\n{table}\n%%EOF\n").as_bytes(),
    );
    Document::load_mem(&pdf).unwrap_or_else(|_| Document::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdf_extract::Dictionary;

    /// A recovered stream: its id, data and dictionary's entries.
    type Recovered = (ObjectId, Vec<u8>, Vec<(String, String)>);

    /// A dictionary's entries as a stream's, for the tests.
    fn entries(dict: &Dictionary) -> Vec<(String, String)> {
        dict.iter()
            .map(|(k, v)| (String::from_utf8_lossy(k).into_owned(), format!("{v:?}")))
            .collect()
    }

    /// A PDF of the object bodies `objects` (numbered from 1), with a correct table.
    fn pdf_of(objects: &[&[u8]]) -> Vec<u8> {
        let mut out = b"%PDF-1.4\n".to_vec();
        let mut offsets = Vec::new();
        for (i, body) in objects.iter().enumerate() {
            offsets.push(out.len());
            out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
            out.extend_from_slice(body);
            out.extend_from_slice(b"\nendobj\n");
        }
        let table = out.len();
        out.extend_from_slice(
            format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
        );
        for offset in offsets {
            out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
        }
        out.extend_from_slice(
            format!(
                "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{table}\n%%EOF\n",
                objects.len() + 1
            )
            .as_bytes(),
        );
        out
    }

    fn recovered(objects: &[&[u8]]) -> Vec<Recovered> {
        let bytes = pdf_of(objects);
        let doc = Document::load_mem(&bytes).expect("loads");
        recover(&doc, &bytes)
            .into_iter()
            .map(|(id, stream)| (id, stream.content.clone(), entries(&stream.dict)))
            .collect()
    }

    #[test]
    fn streams_with_a_wrong_or_missing_length_are_read_to_endstream() {
        let found = recovered(&[
            b"<< /Type /Catalog >>",
            b"<< /Length 3 /Resources << /Font 9 0 R >> >>\nstream\nq Q and more\nendstream",
            b"<< /Length 99999 >>stream\r\nabc\r\nendstream",
            b"<< /Length -1 >>\nstream\nxyz endstream",
            b"<< /Filter /FlateDecode >>\nstream\nmissing\nendstream",
            b"<< /Length 4 >>\nstream\nfine\nendstream",
        ]);
        let ids: Vec<ObjectId> = found.iter().map(|(id, _, _)| *id).collect();
        assert_eq!(ids, [(2, 0), (3, 0), (4, 0), (5, 0)]);
        assert_eq!(found[0].1, b"q Q and more");
        assert_eq!(
            found[0].2,
            [
                ("Length".to_string(), "12".to_string()),
                ("Resources".to_string(), "<</Font 9 0 R>>".to_string())
            ]
        );
        assert_eq!(found[1].1, b"abc");
        assert_eq!(found[2].1, b"xyz ");
        assert_eq!(found[3].1, b"missing");
        assert!(
            found[3]
                .2
                .contains(&("Length".to_string(), "7".to_string()))
        );
    }

    #[test]
    fn several_dropped_streams_are_read_together() {
        let found = recovered(&[
            b"<< /Type /Catalog >>",
            b"<< /Length -1 /N 1 >>\nstream\none\nendstream",
            b"<< /Type /Page >>",
            b"<< /Length -2 /N 2 >>\nstream\ntwo\nendstream",
        ]);
        let found: Vec<(ObjectId, &[u8])> = found
            .iter()
            .map(|(id, data, _)| (*id, data.as_slice()))
            .collect();
        assert_eq!(found, [((2, 0), b"one".as_slice()), ((4, 0), b"two")]);
    }

    #[test]
    fn objects_that_are_not_streams_or_not_where_the_table_says_are_left() {
        // A broken dictionary (not a stream), a stream without `endstream`.
        let found = recovered(&[
            b"<< /Type /Catalog >>",
            b"<< /A [1 2 >>",
            b"<< /Length 1 >>\nstream\nno end",
        ]);
        assert!(found.is_empty(), "{found:?}");
        // A dictionary whose `endobj` is missing does not take the next object's stream.
        let mut bytes = pdf_of(&[
            b"<< /Type /Catalog >>",
            b"<< /Type /Page >>",
            b"<< /Length 99 >>\nstream\ndata\nendstream",
        ]);
        let at = memchr::memmem::find(&bytes, b">>\nendobj\n3 0 obj").expect("object 2's end") + 3;
        bytes[at..at + 6].copy_from_slice(b"      ");
        let doc = Document::load_mem(&bytes).expect("loads");
        let ids: Vec<ObjectId> = recover(&doc, &bytes)
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        assert_eq!(ids, [(3, 0)]);
        // The header must name the object the table places there.
        assert_eq!(header_length(b"12 0 obj\n<<", (12, 0)), Some(9));
        assert_eq!(header_length(b"12 0 obj<<", (13, 0)), None);
        assert_eq!(header_length(b"12 1 obj", (12, 0)), None);
        assert_eq!(header_length(b"12 0 ob", (12, 0)), None);
    }
}

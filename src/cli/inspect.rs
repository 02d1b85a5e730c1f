//! `simdoc inspect FILE [--json]`: the hierarchy and sentences of one document.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use serde::Serialize;

use simdoc::document::{self, Document};

#[derive(Debug, Args)]
pub struct InspectArgs {
    /// The document to read: HTML, text, DOCX, ODT, PDF or EPUB.
    pub file: PathBuf,
    /// Print JSON instead of an indented outline.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub read_limit: super::MaxBytesArg,
}

/// Bytes gathered before one write to standard output.
const STDOUT_BUFFER: usize = 64 << 10;

pub fn run(args: &InspectArgs) -> anyhow::Result<()> {
    let options = args.read_limit.load_options();
    let doc = document::load(&args.file, &options)?;
    super::inputs::print_warnings(&args.file.display().to_string(), &doc);
    // Standard output is line-buffered: unbuffered here, a large document's JSON took one
    // system call per line (2.75 million for 250,000 sentences).
    let mut out = std::io::BufWriter::with_capacity(STDOUT_BUFFER, std::io::stdout().lock());
    if args.json {
        serde_json::to_writer_pretty(&mut out, &InspectJson::new(&doc))?;
        writeln!(out)?;
    } else {
        write_outline(&mut out, &doc)?;
    }
    out.flush().context("writing to standard output")
}

/// The outline for a terminal: titles, labels and sentences come from the file, so they are
/// escaped ([`simdoc::escape::terminal`]).
fn write_outline(out: &mut impl Write, doc: &Document) -> std::io::Result<()> {
    use simdoc::escape::terminal;
    writeln!(
        out,
        "{} ({} sentences)",
        terminal(&doc.title),
        doc.sentences.len()
    )?;
    for (id, node) in doc.nodes.iter().enumerate() {
        let indent = "  ".repeat(doc.depth(id));
        let boilerplate = if node.boilerplate {
            " [boilerplate]"
        } else {
            ""
        };
        let label = if node.label.is_empty() || id == 0 {
            String::new()
        } else {
            format!(" \"{}\"", terminal(&node.label))
        };
        writeln!(
            out,
            "{indent}#{id} {}{label}{boilerplate}",
            node.kind.name()
        )?;
        for sentence in &doc.sentences[node.own_sentences.clone()] {
            writeln!(
                out,
                "{indent}  [{}] {}",
                sentence.position,
                terminal(&sentence.text)
            )?;
        }
    }
    Ok(())
}

/// The JSON shape of `inspect --json`.
#[derive(Serialize)]
struct InspectJson<'a> {
    title: &'a str,
    format: document::SourceFormat,
    /// What the sentences' `offset` and `length` count characters of: `file` (the decoded file,
    /// plain text) or `extracted_text` (the `text` below, for HTML and packaged formats).
    offsets_into: document::offsets::OffsetsInto,
    /// simdoc's extracted text, when offsets point into it.
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<&'a str>,
    nodes: Vec<NodeJson<'a>>,
    sentences: Vec<SentenceJson<'a>>,
}

#[derive(Serialize)]
struct NodeJson<'a> {
    id: usize,
    parent: Option<usize>,
    kind: &'static str,
    label: &'a str,
    /// First and last sentence position of the node's subtree (inclusive).
    sentences: [usize; 2],
    /// How many of those, from the first, are the node's own.
    own: usize,
    boilerplate: bool,
}

#[derive(Serialize)]
struct SentenceJson<'a> {
    position: usize,
    node: usize,
    text: &'a str,
    /// Byte range in simdoc's extracted text.
    span: [usize; 2],
    /// Character offset and length of the sentence in the document as read (`offsets_into`).
    offset: usize,
    length: usize,
}

impl<'a> InspectJson<'a> {
    fn new(doc: &'a Document) -> Self {
        InspectJson {
            title: &doc.title,
            format: doc.format,
            offsets_into: doc.offsets_into,
            text: (doc.offsets_into == document::offsets::OffsetsInto::ExtractedText)
                .then_some(doc.text.as_str()),
            nodes: doc
                .nodes
                .iter()
                .enumerate()
                .map(|(id, n)| NodeJson {
                    id,
                    parent: n.parent,
                    kind: n.kind.name(),
                    label: &n.label,
                    sentences: [
                        n.subtree_sentences.start,
                        n.subtree_sentences.end.saturating_sub(1),
                    ],
                    own: n.own_sentences.len(),
                    boilerplate: n.boilerplate,
                })
                .collect(),
            sentences: doc
                .sentences
                .iter()
                .map(|s| SentenceJson {
                    position: s.position,
                    node: s.node,
                    text: &s.text,
                    span: [s.span.start, s.span.end],
                    offset: s.offsets.start,
                    length: s.offsets.len(),
                })
                .collect(),
        }
    }
}

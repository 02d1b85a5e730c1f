//! The first pass: files (or texts) to documents prepared as `simdoc collection` prepares them,
//! one output row per document with what the detector needs from it alone.
//!
//! Output columns: `file_index` and `entry_index` (the document's place in the stream: the
//! file's position in the sorted listing, the entry's inside a container file), `name`,
//! `length` (bytes of text, for "keep the longest"), `warning` (e.g. bytes that were not valid
//! UTF-8 and were read as Windows-1252, as on one machine), `error` (the document could not be
//! read: it has no id and takes no part), `terms` (distinct terms, for the idf-ranked
//! detectors), `hashes` (distinct shingle hashes, for FFP and DSC; u64 bits as i64),
//! `sentences` (each sentence's terms in order, for CoDet) and `sentence_count` (the document's
//! sentences, which the evidence stage's budget counts as `simdoc collection` does).

use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{Int32Builder, Int64Builder, ListBuilder, StringBuilder};
use arrow_array::{
    Array, ArrayRef, BinaryArray, Int64Array, LargeStringArray, RecordBatch, StringArray,
};
use arrow_schema::{DataType, Field, Schema};
use simdoc::collection::prepare::document_sentences;
use simdoc::collection::{dsc, shingling};
use simdoc::corpus;
use simdoc::document::{self, LoadOptions, SourceFormat, decode};

use crate::options::{MethodName, Options};

/// Rows being built.
struct Rows {
    file_index: Int64Builder,
    entry_index: Int32Builder,
    name: StringBuilder,
    length: Int64Builder,
    warning: StringBuilder,
    error: StringBuilder,
    terms: ListBuilder<StringBuilder>,
    hashes: ListBuilder<Int64Builder>,
    sentences: ListBuilder<ListBuilder<StringBuilder>>,
    sentence_count: Int64Builder,
}

impl Rows {
    fn new() -> Self {
        Rows {
            file_index: Int64Builder::new(),
            entry_index: Int32Builder::new(),
            name: StringBuilder::new(),
            length: Int64Builder::new(),
            warning: StringBuilder::new(),
            error: StringBuilder::new(),
            terms: ListBuilder::new(StringBuilder::new()),
            hashes: ListBuilder::new(Int64Builder::new()),
            sentences: ListBuilder::new(ListBuilder::new(StringBuilder::new())),
            sentence_count: Int64Builder::new(),
        }
    }

    fn failed(&mut self, file_index: i64, name: &str, error: String) {
        self.file_index.append_value(file_index);
        self.entry_index.append_value(0);
        self.name.append_value(name);
        self.length.append_value(0);
        self.warning.append_null();
        self.error.append_value(error);
        self.terms.append(true);
        self.hashes.append(true);
        self.sentences.append(true);
        self.sentence_count.append_value(0);
    }

    #[allow(clippy::too_many_arguments)]
    fn document(
        &mut self,
        file_index: i64,
        entry_index: i32,
        name: &str,
        text: &str,
        format: SourceFormat,
        encoding: &str,
        options: &Options,
    ) -> Result<(), String> {
        let doc = document::parse_text(text, name, format);
        let sentences = document_sentences(&doc, options.normaliser()?);
        let words: Vec<&str> = sentences.iter().flatten().map(String::as_str).collect();
        self.file_index.append_value(file_index);
        self.entry_index.append_value(entry_index);
        self.name.append_value(name);
        self.length
            .append_value(i64::try_from(doc.text.len()).unwrap_or(i64::MAX));
        if encoding == "UTF-8" || encoding.starts_with("UTF-16") {
            self.warning.append_null();
        } else {
            self.warning
                .append_value(format!("not valid UTF-8: read as {encoding}"));
        }
        self.error.append_null();
        match options.method {
            MethodName::Imatch | MethodName::Simhash | MethodName::Codet => {
                let mut distinct = words.clone();
                distinct.sort_unstable();
                distinct.dedup();
                for word in distinct {
                    self.terms.values().append_value(word);
                }
            }
            MethodName::Ffp | MethodName::Dsc => {}
        }
        self.terms.append(true);
        let mut hashes = match options.method {
            MethodName::Ffp => shingling::shingle_hashes_of_words(&words, options.shingle_size),
            MethodName::Dsc => dsc::sample(
                &shingling::shingle_hashes_of_words(&words, options.shingle_size),
                options.step,
                options.sampling()?,
            ),
            MethodName::Imatch | MethodName::Simhash | MethodName::Codet => Vec::new(),
        };
        hashes.sort_unstable();
        hashes.dedup();
        for hash in hashes {
            // The u64's bits as an i64: Spark has no unsigned type; only equality matters.
            self.hashes.values().append_value(hash as i64);
        }
        self.hashes.append(true);
        if options.method == MethodName::Codet {
            // Empty sentences are dropped, as Collection::from_terms drops them.
            for sentence in sentences.iter().filter(|s| !s.is_empty()) {
                let list = self.sentences.values();
                for word in sentence {
                    list.values().append_value(word);
                }
                list.append(true);
            }
        }
        self.sentences.append(true);
        self.sentence_count
            .append_value(i64::try_from(doc.sentences.len()).unwrap_or(i64::MAX));
        Ok(())
    }

    fn finish(mut self) -> Result<RecordBatch, String> {
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.file_index.finish()),
            Arc::new(self.entry_index.finish()),
            Arc::new(self.name.finish()),
            Arc::new(self.length.finish()),
            Arc::new(self.warning.finish()),
            Arc::new(self.error.finish()),
            Arc::new(self.terms.finish()),
            Arc::new(self.hashes.finish()),
            Arc::new(self.sentences.finish()),
            Arc::new(self.sentence_count.finish()),
        ];
        RecordBatch::try_new(Arc::new(schema()), columns).map_err(|e| e.to_string())
    }
}

/// The schema of the prepared rows (the driver declares the same in Spark's DDL).
pub fn schema() -> Schema {
    Schema::new(vec![
        Field::new("file_index", DataType::Int64, false),
        Field::new("entry_index", DataType::Int32, false),
        Field::new("name", DataType::Utf8, false),
        Field::new("length", DataType::Int64, false),
        Field::new("warning", DataType::Utf8, true),
        Field::new("error", DataType::Utf8, true),
        Field::new(
            "terms",
            DataType::List(Arc::new(Field::new("item", DataType::Utf8, true))),
            false,
        ),
        Field::new(
            "hashes",
            DataType::List(Arc::new(Field::new("item", DataType::Int64, true))),
            false,
        ),
        Field::new(
            "sentences",
            DataType::List(Arc::new(Field::new(
                "item",
                DataType::List(Arc::new(Field::new("item", DataType::Utf8, true))),
                true,
            ))),
            false,
        ),
        Field::new("sentence_count", DataType::Int64, false),
    ])
}

pub fn int64_column<'b>(batch: &'b RecordBatch, name: &str) -> Result<&'b Int64Array, String> {
    batch
        .column_by_name(name)
        .and_then(|c| c.as_any().downcast_ref::<Int64Array>())
        .ok_or_else(|| format!("column {name} (bigint) missing"))
}

/// A document id read from a `bigint` column (ids count from 0).
pub fn doc_id(value: i64) -> Result<simdoc::collection::DocId, String> {
    simdoc::collection::DocId::try_from(value).map_err(|_| format!("negative document id {value}"))
}

/// A string column, whichever of Arrow's two string layouts Spark sent.
pub fn strings(batch: &RecordBatch, name: &str) -> Result<Vec<Option<String>>, String> {
    let column = batch
        .column_by_name(name)
        .ok_or_else(|| format!("column {name} missing"))?;
    if let Some(a) = column.as_any().downcast_ref::<StringArray>() {
        return Ok(a.iter().map(|v| v.map(str::to_string)).collect());
    }
    if let Some(a) = column.as_any().downcast_ref::<LargeStringArray>() {
        return Ok(a.iter().map(|v| v.map(str::to_string)).collect());
    }
    Err(format!("column {name} is not a string column"))
}

/// Reads each file as `simdoc collection` does ([`corpus::read_entries`]): one row per entry.
pub fn prepare_files(batch: &RecordBatch, options: &Options) -> Result<RecordBatch, String> {
    let index = int64_column(batch, "file_index")?;
    let paths = strings(batch, "path")?;
    let load = load_options(options);
    let mut rows = Rows::new();
    for (row, path) in paths.iter().enumerate() {
        let file_index = index.value(row);
        let path = path.as_deref().unwrap_or_default();
        match corpus::read_entries(Path::new(path), &load) {
            Err(error) => rows.failed(file_index, path, error.to_string()),
            Ok(entries) => {
                for (entry_index, entry) in entries.iter().enumerate() {
                    let entry_index = i32::try_from(entry_index).unwrap_or(i32::MAX);
                    rows.document(
                        file_index,
                        entry_index,
                        &entry.name,
                        &entry.text,
                        entry.format,
                        entry.encoding,
                        options,
                    )?;
                }
            }
        }
    }
    rows.finish()
}

/// The bytes of a table's text column `name`, a string or a binary column.
pub fn text_bytes(batch: &RecordBatch, name: &str) -> Result<Vec<Option<Vec<u8>>>, String> {
    let column = batch
        .column_by_name(name)
        .ok_or_else(|| format!("column {name} missing"))?;
    Ok(
        if let Some(a) = column.as_any().downcast_ref::<BinaryArray>() {
            a.iter().map(|v| v.map(<[u8]>::to_vec)).collect()
        } else {
            strings(batch, name)?
                .into_iter()
                .map(|v| v.map(String::into_bytes))
                .collect()
        },
    )
}

/// Prepares texts from a table (`row`, `name`, `text` as a string or binary column): HTML when
/// the text looks like HTML, plain text otherwise; binary text is decoded as files are.
pub fn prepare_texts(batch: &RecordBatch, options: &Options) -> Result<RecordBatch, String> {
    let index = int64_column(batch, "row")?;
    let names = strings(batch, "name")?;
    let texts = text_bytes(batch, "text")?;
    let mut rows = Rows::new();
    for (row, (name, bytes)) in names.iter().zip(&texts).enumerate() {
        let file_index = index.value(row);
        let name = name.as_deref().unwrap_or_default();
        match table_text(name, bytes.as_deref(), options.max_bytes) {
            Err(error) => rows.failed(file_index, name, error),
            Ok(text) => rows.document(
                file_index,
                0,
                name,
                &text.text,
                text.format,
                text.encoding,
                options,
            )?,
        }
    }
    rows.finish()
}

/// A table's text, decoded and typed.
pub struct TableText {
    pub text: String,
    pub format: SourceFormat,
    pub encoding: &'static str,
}

/// How a table's text (`bytes`, None for a null) is read, by this pass and again by the
/// evidence stage: decoded as a file's bytes are, HTML when it looks like HTML, plain text
/// otherwise; over `max_bytes` or binary, an error naming the document.
pub fn table_text(name: &str, bytes: Option<&[u8]>, max_bytes: u64) -> Result<TableText, String> {
    let Some(bytes) = bytes else {
        return Err(format!("{name}: no text"));
    };
    if bytes.len() as u64 > max_bytes {
        return Err(format!(
            "{name}: {} bytes is over the limit of {max_bytes} bytes",
            bytes.len()
        ));
    }
    let Ok(decoded) = decode::decode(bytes, true) else {
        return Err(format!("{name}: binary data, not text"));
    };
    let format = if document::sniff_html(decoded.text.as_bytes()) {
        SourceFormat::Html
    } else {
        SourceFormat::Text
    };
    Ok(TableText {
        text: decoded.text,
        format,
        encoding: decoded.encoding,
    })
}

/// The load options of the first pass, with which the evidence stage reads files again.
pub fn load_options(options: &Options) -> LoadOptions {
    LoadOptions {
        max_bytes: options.max_bytes,
        ..LoadOptions::default()
    }
}

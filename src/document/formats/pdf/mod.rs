//! PDF: the text layer in reading order, with paragraphs, headings, running headers and footers
//! inferred from where the glyphs sit ([`layout`]).
//!
//! The crate was chosen by measurement (EVALUATION.md, "PDF text extraction":
//! `scripts/compare-pdf-crates.sh`): `pdf-extract` (on `lopdf`) reads LibreOffice's PDFs as
//! completely as `pdf_oxide` and `lopdf`'s own extraction (word 5-gram recall 0.99 to 1.00), and
//! unlike `lopdf`'s it hands out every glyph with its position and size, which paragraphs,
//! headings and page furniture need; `pdf_oxide` gives that too, but builds several times
//! longer with many more dependencies. `pdf-extract` has `unwrap`s on malformed input, so its
//! work runs under `catch_unwind` (`quiet`, which keeps the panic message from the user) and a
//! panic becomes [`LoadError::Corrupt`].
//!
//! Bounds, all checked before or while the glyphs are collected: at most [`MAX_OBJECTS`]
//! objects (counted in the raw file before it is parsed, so a file of a million tiny objects is
//! refused at once, and in object streams as they load: [`bounds`]), at most [`MAX_PAGES`]
//! pages, at most [`MAX_INFLATED_BYTES`] of unpacked stream data (each compressed stream is
//! unpacked through a counter first, in the raw file before it loads and again once loaded,
//! so a deflate bomb stops at the limit), at most [`MAX_GLYPHS`] glyphs, and the work
//! `pdf-extract` would do, measured page by page before it runs ([`budget`]): a page tree that
//! ends, drawings (XObjects) that do not paint themselves, nest at most
//! [`budget::MAX_DRAWING_DEPTH`] deep and whose operations and saved states fit in memory, fonts
//! whose character maps do. `pdf-extract`'s walk cannot be stopped once it runs (`catch_unwind` catches its
//! panics, not its loops or an allocation past memory), so these checks come first; the
//! `simdoc` binary also reads every PDF in a worker process with limits on its time and memory
//! ([`crate::document::worker`]), which stops what no check here foresaw.
//!
//! A stream whose `/Length` is wrong is read up to its `endstream`, as viewers read it
//! ([`lengths`]); content streams are rewritten where `lopdf` would stop reading them and
//! viewers read on, an integer beyond 64 bits among them ([`repair`]). Each page is read once, in the order the page tree first lists it, whatever
//! the tree repeats or however it loops ([`pages`]).
//!
//! Reading order is the order in which each page's content draws its lines ([`layout`]): a
//! two-column page drawn column by column, as word processors write them, reads column by
//! column; a page whose content jumps about reads in the order it jumps.
//!
//! An encrypted PDF that opens with the empty user password (permissions only) is read; one
//! that needs a password is [`LoadError::Encrypted`]. A PDF whose pages have no text at all is a
//! scan: [`LoadError::NoTextLayer`].

pub(crate) mod bounds;
pub(crate) mod budget;
pub(crate) mod cmap;
pub(crate) mod content;
pub(crate) mod layout;
pub(crate) mod lengths;
pub(crate) mod pages;
pub(crate) mod painted;
mod quiet;
pub(crate) mod repair;
pub(crate) mod tokens;

use std::io::Read;
use std::path::Path;

use pdf_extract::{MediaBox, Object, OutputDev, OutputError, Transform};

use crate::document::LoadError;
use crate::document::builder::{HierarchyBuilder, SentenceSplitter, collapse_whitespace};
use crate::document::tree::{Document, SourceFormat};
use layout::{Glyph, Page};

/// Most indirect objects a PDF may have: a 1,000-page book has a few hundred thousand.
pub const MAX_OBJECTS: usize = 1_000_000;
/// Most pages read.
pub const MAX_PAGES: usize = 20_000;
/// Most bytes all compressed streams may unpack to together: four times the 64 MiB text limit
/// (fonts and images are streams too).
pub const MAX_INFLATED_BYTES: u64 = 256 * 1024 * 1024;
/// Most glyphs collected: about 4,000 dense pages.
pub const MAX_GLYPHS: usize = 8_000_000;

/// Reads a PDF into a document named `file_name`.
pub fn parse(
    bytes: &[u8],
    path: &Path,
    file_name: &str,
    split: SentenceSplitter,
) -> Result<Document, LoadError> {
    let corrupt = |problem: String| LoadError::Corrupt {
        path: path.to_path_buf(),
        format: SourceFormat::Pdf,
        problem,
    };
    let over = |what: String, limit: u64| LoadError::OverLimit {
        path: path.to_path_buf(),
        what,
        limit,
    };
    let objects = memchr::memmem::find_iter(bytes, b" obj").count();
    if objects > MAX_OBJECTS {
        return Err(over(
            format!("it has {objects} objects"),
            MAX_OBJECTS as u64,
        ));
    }
    let too_large = || {
        over(
            format!("its compressed streams unpack to more than {MAX_INFLATED_BYTES} bytes"),
            MAX_INFLATED_BYTES,
        )
    };
    bounds::inflated_size_within(bytes, MAX_INFLATED_BYTES).map_err(|_| too_large())?;
    let loaded = quiet::catch_quietly(|| bounds::load(bytes, objects, MAX_OBJECTS));
    let loaded = match loaded {
        Ok(Err(bounds::LoadRefusal::Inflates)) => return Err(too_large()),
        Ok(Err(bounds::LoadRefusal::TooManyObjects)) => {
            return Err(over(
                format!("it has more than {MAX_OBJECTS} objects"),
                MAX_OBJECTS as u64,
            ));
        }
        Ok(Err(bounds::LoadRefusal::PackedObjects)) => {
            return Err(corrupt(
                "an object stream in it is packed with more than one filter".into(),
            ));
        }
        Ok(Ok(loaded)) => Ok(loaded),
        Err(()) => Err(()),
    };
    let mut doc = match loaded {
        Ok(Ok(doc)) => doc,
        Ok(Err(pdf_extract::Error::Decryption(_))) => {
            return Err(LoadError::Encrypted {
                path: path.to_path_buf(),
            });
        }
        Ok(Err(e)) => return Err(corrupt(format!("{e} (a truncated or damaged file?)"))),
        Err(_) => return Err(corrupt("its structure cannot be read".into())),
    };
    // Streams a wrong `/Length` lost, read to their `endstream` (a panic in `lopdf` while
    // reading their dictionaries leaves them lost).
    if let Ok(recovered) = quiet::catch_quietly(|| lengths::recover(&doc, bytes)) {
        doc.objects.extend(
            recovered
                .into_iter()
                .map(|(id, stream)| (id, Object::Stream(stream))),
        );
    }
    if doc.is_encrypted() && doc.decrypt("").is_err() {
        return Err(LoadError::Encrypted {
            path: path.to_path_buf(),
        });
    }
    // Before the pages are counted: a page listed twice would count twice.
    pages::read_each_page_once(&mut doc);
    let pages = doc.get_pages().len();
    if pages == 0 {
        return Err(corrupt("it has no pages".into()));
    }
    if pages > MAX_PAGES {
        return Err(over(format!("it has {pages} pages"), MAX_PAGES as u64));
    }
    // Again on the loaded streams: an encrypted file's streams are only readable now.
    if !inflated_size_fits(&doc) {
        return Err(too_large());
    }
    // After the size check (it unpacks content streams), before the budget, which must measure
    // what `pdf-extract` will run.
    repair::repair_contents(&mut doc);
    // After the size check: the budget unpacks every content stream it runs.
    match budget::check(&doc) {
        Ok(()) => {}
        Err(budget::BudgetProblem::Broken(problem)) => return Err(corrupt(problem)),
        Err(budget::BudgetProblem::Over { what, limit }) => return Err(over(what, limit)),
    }

    let mut collector = Collector::default();
    let result = quiet::catch_quietly(|| pdf_extract::output_doc(&doc, &mut collector));
    if collector.over_limit {
        return Err(over(
            format!("it has more than {MAX_GLYPHS} glyphs"),
            MAX_GLYPHS as u64,
        ));
    }
    match result {
        Ok(Ok(())) => {}
        Ok(Err(e)) => return Err(corrupt(format!("its text cannot be read ({e})"))),
        Err(_) => {
            return Err(corrupt(
                "its text cannot be read (malformed content)".into(),
            ));
        }
    }
    let glyph_text = collector
        .pages
        .iter()
        .flat_map(|p| &p.glyphs)
        .any(|g| g.text.chars().any(char::is_alphanumeric));
    if !glyph_text {
        return Err(LoadError::NoTextLayer {
            path: path.to_path_buf(),
            pages,
        });
    }
    let mut builder =
        HierarchyBuilder::new(info_title(&doc).unwrap_or_else(|| file_name.to_string()));
    layout::build(&collector.pages, &mut builder);
    Ok(builder.finish(SourceFormat::Pdf, split))
}

/// Unpacks every deflate-compressed stream through a counter; whether the total stays within
/// [`MAX_INFLATED_BYTES`]. Streams that fail to unpack are left for the reader to skip.
fn inflated_size_fits(doc: &pdf_extract::Document) -> bool {
    let mut budget = MAX_INFLATED_BYTES;
    for object in doc.objects.values() {
        let Object::Stream(stream) = object else {
            continue;
        };
        let deflated = stream
            .filters()
            .is_ok_and(|f| f.iter().any(|f| *f == b"FlateDecode"));
        if !deflated {
            continue;
        }
        let mut reader = flate2::read::ZlibDecoder::new(stream.content.as_slice())
            .take(budget.saturating_add(1));
        // Up to the first error: a bomb with a broken tail still counts what it unpacked.
        let unpacked = bounds::copy_counting(&mut reader);
        if unpacked > budget {
            return false;
        }
        budget -= unpacked;
    }
    true
}

/// The document information dictionary's `/Title`, when it says something.
fn info_title(doc: &pdf_extract::Document) -> Option<String> {
    let info = doc.trailer.get(b"Info").ok()?;
    let info = match info {
        Object::Reference(id) => doc.get_dictionary(*id).ok()?,
        Object::Dictionary(dict) => dict,
        _ => return None,
    };
    let Object::String(bytes, _) = info.get(b"Title").ok()? else {
        return None;
    };
    let text = pdf_text_string(bytes);
    let title = collapse_whitespace(&text);
    (title.chars().any(char::is_alphanumeric)).then_some(title)
}

/// A PDF text string: UTF-16BE with a byte-order mark, else PDFDocEncoding (read as Latin-1,
/// which it equals for the printable characters titles use).
fn pdf_text_string(bytes: &[u8]) -> String {
    if let Some(utf16) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        let units: Vec<u16> = utf16
            .chunks_exact(2)
            .map(|pair| u16::from_be_bytes([pair[0], pair[1]]))
            .collect();
        return String::from_utf16_lossy(&units);
    }
    bytes.iter().map(|&b| char::from(b)).collect()
}

/// Collects the glyphs `pdf-extract` draws, page by page.
#[derive(Default)]
struct Collector {
    pages: Vec<Page>,
    glyphs: usize,
    over_limit: bool,
}

impl OutputDev for Collector {
    fn begin_page(
        &mut self,
        _page_num: u32,
        _media_box: &MediaBox,
        _art_box: Option<(f64, f64, f64, f64)>,
    ) -> Result<(), OutputError> {
        self.pages.push(Page::default());
        Ok(())
    }

    fn end_page(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn output_character(
        &mut self,
        trm: &Transform,
        width: f64,
        _spacing: f64,
        font_size: f64,
        char: &str,
    ) -> Result<(), OutputError> {
        self.glyphs += 1;
        if self.glyphs > MAX_GLYPHS {
            self.over_limit = true;
            // Any error ends the walk; the flag says why.
            return Err(OutputError::FormatError(std::fmt::Error));
        }
        // The rendering matrix maps text space to the page: its scale (the square root of the
        // area factor, as pdf-extract's own text output does) turns the font size and the
        // glyph width (in text space units) into points.
        let scale = (trm.m11 * trm.m22 - trm.m12 * trm.m21).abs().sqrt();
        let size = (font_size * scale) as f32;
        let glyph = Glyph {
            x: trm.m31 as f32,
            y: trm.m32 as f32,
            size,
            advance: (width * font_size * scale) as f32,
            text: char.to_string(),
        };
        if let Some(page) = self.pages.last_mut() {
            page.glyphs.push(glyph);
        }
        Ok(())
    }

    fn begin_word(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn end_word(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn end_line(&mut self) -> Result<(), OutputError> {
        Ok(())
    }
}

//! The work `pdf-extract` would do on a loaded PDF, measured before it does any (its walk
//! cannot be stopped from outside: a loop spins forever, an allocation past memory aborts the
//! process). Three things are checked, page by page, as `pdf-extract` will meet them:
//!
//! - the page tree: each page's chain of `/Parent`s, which `pdf-extract` climbs for inherited
//!   attributes (`/Resources`, `/MediaBox`) with no end of its own, must end without meeting a
//!   page tree node twice and within [`MAX_TREE_DEPTH`] levels (`lopdf` lists pages down to
//!   the same depth). A page that is its own `/Parent` hung simdoc forever;
//! - the drawings: each content stream runs as one list of operations held in memory, and each
//!   `q` holds a copy of the graphics state until its `Q`. A page may hold at most
//!   [`MAX_MB_HELD`] of parsed operations at once (its own and those of the drawings, form or
//!   image XObjects, it paints with `Do`, which run nested; each operation weighed at
//!   [`BYTES_PER_OPERATION`] and each operand at [`BYTES_PER_OPERAND`]), save the state at most
//!   [`MAX_STATE_DEPTH`] levels deep in one stream, and the whole file may run at most
//!   [`MAX_OPERATIONS_RUN`] operations and [`MAX_CONTENT_BYTES_RUN`] bytes of content (a drawing
//!   painted a thousand times runs a thousand times). A content stream of two million `q` took
//!   2.27 GB; a drawing that paints itself (an image XObject's bytes can hold `Do` too) would
//!   recurse without end. The walk follows the names each content gives `Do`, read as
//!   `pdf-extract` reads them ([`super::painted`]), each looked up where `pdf-extract` looks it
//!   up (a drawing's own `/Resources`, or those of what paints it, as PDF 1.1 allowed): only a
//!   drawing painted again under the same resources inside itself paints itself without end,
//!   and is refused; any other tree of drawings is measured, each drawing once for each
//!   resources it runs under;
//! - the fonts' `/ToUnicode` maps ([`super::cmap`]): one map may expand to at most
//!   [`MAX_CMAP_ENTRIES`] entries and nest at most [`MAX_CMAP_DEPTH`] levels, and as
//!   `pdf-extract` builds the maps of the fonts a page selects (`Tf`) again for every page, all
//!   pages together at most [`MAX_CMAP_ENTRIES_BUILT`]. An 800-byte map with one range of four
//!   billion codes grew past 4.7 GB.
//!
//! The limits are far above real documents (Acrobat's own limit on `q` nesting is 28, PDF
//! 32000-1 annex C; a dense page holds tens of thousands of operations; a font's character
//! codes have at most two bytes in practice, so its map at most 65,536 entries) and bound what a
//! file can make `pdf-extract` hold at once to a few hundred megabytes.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use pdf_extract::{Dictionary, Document, Object, ObjectId};

use super::cmap;
use super::content::{self, ContentScan};
use super::painted::{self, Named};

/// Deepest page tree (levels of `/Parent` above a page).
pub const MAX_TREE_DEPTH: usize = 256;
/// Most memory, in MB, that the parsed operations of one page and the drawings it paints may
/// hold at once. A dense real page holds tens of thousands of operations (a few tens of MB).
pub const MAX_MB_HELD: u64 = 384;
/// What one parsed operation holds while its stream runs, operands aside: measured at about 580
/// bytes (`lopdf` 0.42's operation and what `pdf-extract` 0.12 keeps per operation: pages of
/// 500,000 `n` and of 1,000,000 `q Q` took 0.29 and 1.14 GB). It was taken as 100 bytes, so a
/// page within the old limit of 2,097,152 operations held 1.2 GB (found by fuzzing
/// `document_bytes`: 6 KB of deflated `q Q`). The weights are checked against a page the tests
/// read: `cargo test --release --test hostile_input an_integer -- --nocapture` prints the peak
/// for 600,000 operations with 200,000 operands (342 MB; the weights estimate 361 MB).
pub const BYTES_PER_OPERATION: u64 = 600;
/// What one parsed operand holds: measured at 82 bytes (500,000 `1 0 0 1 0 0 cm` took 0.54 GB,
/// 0.24 GB more than as many `n`).
pub const BYTES_PER_OPERAND: u64 = 90;

/// The memory the parsed operations of `scan` hold, in bytes.
fn bytes_held(scan: &ContentScan) -> u64 {
    scan.operations
        .saturating_mul(BYTES_PER_OPERATION)
        .saturating_add(scan.operands.saturating_mul(BYTES_PER_OPERAND))
}

/// The refusal of a page or drawing `what` holding `held` bytes of `operations` operations.
fn held_too_much(what: &str, operations: u64, held: u64) -> BudgetProblem {
    over(
        format!(
            "its {what} holds {operations} drawing operations at once, {} MB once parsed",
            held.div_ceil(1 << 20)
        ),
        MAX_MB_HELD,
    )
}
/// Deepest nesting of `q` in one content stream (each level a copy of the graphics state).
pub const MAX_STATE_DEPTH: u32 = 1_024;
/// Most operations run over the whole file, drawings counted each time they are painted.
pub const MAX_OPERATIONS_RUN: u64 = 1 << 26;
/// Most bytes of content parsed over the whole file, drawings counted each time painted.
pub const MAX_CONTENT_BYTES_RUN: u64 = 1 << 30;
/// Deepest nesting of drawings painting drawings.
pub const MAX_DRAWING_DEPTH: usize = 64;
/// Most entries one `/ToUnicode` map may expand to: twice the two-byte code space.
pub const MAX_CMAP_ENTRIES: u64 = 1 << 17;
/// Deepest nesting inside a `/ToUnicode` map (its parser recurses).
pub const MAX_CMAP_DEPTH: u32 = 64;
/// Most map entries built over all pages (each page builds its fonts' maps again).
pub const MAX_CMAP_ENTRIES_BUILT: u64 = 1 << 26;

/// What is wrong, in words for an error message, and whether it is damage or excess.
#[derive(Debug, PartialEq, Eq)]
pub enum BudgetProblem {
    /// The file's structure is broken (a loop): [`crate::document::LoadError::Corrupt`].
    Broken(String),
    /// Past a limit: [`crate::document::LoadError::OverLimit`].
    Over { what: String, limit: u64 },
}

fn over(what: impl Into<String>, limit: u64) -> BudgetProblem {
    BudgetProblem::Over {
        what: what.into(),
        limit,
    }
}

fn resolve<'a>(doc: &'a Document, object: &'a Object) -> Option<&'a Object> {
    doc.dereference(object).ok().map(|(_, o)| o)
}

fn dict_at<'a>(doc: &'a Document, dict: &'a Dictionary, key: &[u8]) -> Option<&'a Dictionary> {
    dict.get(key)
        .ok()
        .and_then(|o| resolve(doc, o))
        .and_then(|o| o.as_dict().ok())
}

/// A stream's content as `pdf-extract` reads it: unpacked when its filters allow, else raw.
pub(super) fn content_of(stream: &pdf_extract::Stream) -> Vec<u8> {
    if stream.filters().is_ok() {
        stream
            .decompressed_content()
            .unwrap_or_else(|_| stream.content.clone())
    } else {
        stream.content.clone()
    }
}

/// What running one content stream and everything it paints costs.
#[derive(Clone, Debug, Default)]
struct Cost {
    operations_run: u64,
    bytes_run: u64,
    /// Most bytes of parsed operations held at once (a stream's own, plus the deepest chain
    /// below it), and how many operations those are.
    held: u64,
    operations_held: u64,
    /// The `/ToUnicode` streams of the fonts selected.
    maps: Vec<ObjectId>,
}

/// Checks the work `doc` would ask of `pdf-extract` (see the module docs).
pub fn check(doc: &Document) -> Result<(), BudgetProblem> {
    let mut walk = Walk {
        doc,
        costs: HashMap::new(),
        drawings: HashMap::new(),
        map_entries: HashMap::new(),
        path: Vec::new(),
    };
    let (mut operations, mut bytes, mut maps_built) = (0u64, 0u64, 0u64);
    for (number, page_id) in doc.get_pages() {
        let page = doc
            .get_dictionary(page_id)
            .map_err(|_| BudgetProblem::Broken(format!("its page {number} is not a page")))?;
        let resources = inherited_resources(doc, page, number)?;
        let mut content = Vec::new();
        for id in doc.get_page_contents(page_id) {
            if let Ok(Object::Stream(stream)) = doc.get_object(id) {
                content.extend_from_slice(&content_of(stream));
                content.push(b'\n');
            }
            if content.len() as u64 > MAX_CONTENT_BYTES_RUN {
                return Err(over(
                    format!("its page {number} draws more bytes than allowed"),
                    MAX_CONTENT_BYTES_RUN,
                ));
            }
        }
        let cost = walk.run(&content, resources, &format!("page {number}"))?;
        operations = operations.saturating_add(cost.operations_run);
        bytes = bytes.saturating_add(cost.bytes_run);
        if cost.held > MAX_MB_HELD << 20 {
            return Err(held_too_much(
                &format!("page {number}"),
                cost.operations_held,
                cost.held,
            ));
        }
        if operations > MAX_OPERATIONS_RUN {
            return Err(over(
                "its pages run more drawing operations than allowed",
                MAX_OPERATIONS_RUN,
            ));
        }
        if bytes > MAX_CONTENT_BYTES_RUN {
            return Err(over(
                "its pages draw more bytes than allowed",
                MAX_CONTENT_BYTES_RUN,
            ));
        }
        let distinct: HashSet<ObjectId> = cost.maps.into_iter().collect();
        for map in distinct {
            maps_built = maps_built.saturating_add(walk.map_entries(map)?);
        }
        if maps_built > MAX_CMAP_ENTRIES_BUILT {
            return Err(over(
                "its pages' fonts build larger character maps than allowed",
                MAX_CMAP_ENTRIES_BUILT,
            ));
        }
    }
    Ok(())
}

/// The page's `/Resources`, found as `pdf-extract` finds it: on the page or up its `/Parent`
/// chain, which must end (see the module docs).
fn inherited_resources<'a>(
    doc: &'a Document,
    page: &'a Dictionary,
    number: u32,
) -> Result<Option<&'a Dictionary>, BudgetProblem> {
    let mut seen: HashSet<*const Dictionary> = HashSet::new();
    let mut node = page;
    let mut resources = None;
    loop {
        if !seen.insert(node as *const Dictionary) {
            return Err(BudgetProblem::Broken(format!(
                "its page tree loops (page {number} is its own ancestor)"
            )));
        }
        if seen.len() > MAX_TREE_DEPTH + 1 {
            return Err(over(
                format!("its page tree is deeper than allowed above page {number}"),
                MAX_TREE_DEPTH as u64,
            ));
        }
        if resources.is_none() {
            resources = dict_at(doc, node, b"Resources");
        }
        let parent = node
            .get(b"Parent")
            .and_then(Object::as_reference)
            .and_then(|id| doc.get_dictionary(id));
        match parent {
            Ok(parent) => node = parent,
            Err(_) => return Ok(resources),
        }
    }
}

/// A drawing as it runs: the drawing, and the resources its names are looked up in (its own,
/// or, for a drawing without resources of its own, those of what paints it), by address.
type Painting = (ObjectId, *const Dictionary);

/// What running one drawing's content asks, whatever paints it.
struct Drawing {
    scan: ContentScan,
    named: Named,
    bytes: u64,
}

/// The walk over content streams, with what it has measured.
struct Walk<'a> {
    doc: &'a Document,
    /// Costs of drawings run, by painting (a drawing that inherits its resources may paint
    /// other drawings under other resources).
    costs: HashMap<Painting, Cost>,
    /// Each drawing's content, measured once.
    drawings: HashMap<ObjectId, Rc<Drawing>>,
    /// Entries of each `/ToUnicode` stream measured.
    map_entries: HashMap<ObjectId, u64>,
    /// The drawings being run, outermost first: a painting met again on its own path is a
    /// drawing that paints itself without end (the same drawing under the same resources paints
    /// the same again).
    path: Vec<Painting>,
}

impl<'a> Walk<'a> {
    /// The cost of running `content` with `resources` (`what` names it in messages).
    fn run(
        &mut self,
        content: &[u8],
        resources: Option<&'a Dictionary>,
        what: &str,
    ) -> Result<Cost, BudgetProblem> {
        let scan = content::scan(content);
        Self::within_limits(&scan, what)?;
        let drawing = Drawing {
            named: painted::named(content),
            scan,
            bytes: content.len() as u64,
        };
        self.run_measured(&drawing, resources)
    }

    /// Refuses a stream that saves the state too deep, or holds too many operations to be
    /// parsed (before it is: [`painted::named`] holds them all).
    fn within_limits(scan: &ContentScan, what: &str) -> Result<(), BudgetProblem> {
        if scan.max_depth > MAX_STATE_DEPTH {
            return Err(over(
                format!(
                    "its {what} saves the graphics state {} levels deep",
                    scan.max_depth
                ),
                u64::from(MAX_STATE_DEPTH),
            ));
        }
        let held = bytes_held(scan);
        if held > MAX_MB_HELD << 20 {
            return Err(held_too_much(what, scan.operations, held));
        }
        Ok(())
    }

    /// The cost of running the measured `drawing` with `resources`.
    fn run_measured(
        &mut self,
        drawing: &Drawing,
        resources: Option<&'a Dictionary>,
    ) -> Result<Cost, BudgetProblem> {
        let mut cost = Cost {
            operations_run: drawing.scan.operations,
            bytes_run: drawing.bytes,
            held: bytes_held(&drawing.scan),
            operations_held: drawing.scan.operations,
            maps: Vec::new(),
        };
        let fonts = resources.and_then(|r| dict_at(self.doc, r, b"Font"));
        let mut fonts_seen = HashSet::new();
        for name in &drawing.named.fonts {
            if !fonts_seen.insert(name) {
                continue;
            }
            let map = fonts
                .and_then(|f| dict_at(self.doc, f, name))
                .and_then(|font| font.get(b"ToUnicode").ok())
                .and_then(|o| o.as_reference().ok());
            cost.maps.extend(map);
        }
        let drawings = resources.and_then(|r| dict_at(self.doc, r, b"XObject"));
        let (mut deepest, mut deepest_operations) = (0u64, 0u64);
        for name in &drawing.named.drawings {
            let Some(id) = drawings
                .and_then(|d| d.get(name).ok())
                .and_then(|o| o.as_reference().ok())
            else {
                continue;
            };
            let inner = self.drawing(id, resources)?;
            cost.operations_run = cost.operations_run.saturating_add(inner.operations_run);
            cost.bytes_run = cost.bytes_run.saturating_add(inner.bytes_run);
            if inner.held > deepest {
                (deepest, deepest_operations) = (inner.held, inner.operations_held);
            }
            cost.maps.extend(inner.maps);
            cost.maps.sort_unstable();
            cost.maps.dedup();
            if cost.operations_run > MAX_OPERATIONS_RUN || cost.bytes_run > MAX_CONTENT_BYTES_RUN {
                // Past the file's budget already: the caller reports it.
                break;
            }
        }
        cost.held = cost.held.saturating_add(deepest);
        cost.operations_held = cost.operations_held.saturating_add(deepest_operations);
        Ok(cost)
    }

    /// The cost of painting the drawing `id` from a stream with `resources`.
    fn drawing(
        &mut self,
        id: ObjectId,
        resources: Option<&'a Dictionary>,
    ) -> Result<Cost, BudgetProblem> {
        let Ok(Object::Stream(stream)) = self.doc.get_object(id) else {
            return Ok(Cost::default());
        };
        let resources = dict_at(self.doc, &stream.dict, b"Resources").or(resources);
        let painting: Painting = (id, resources.map_or(std::ptr::null(), std::ptr::from_ref));
        if self.path.contains(&painting) {
            return Err(BudgetProblem::Broken(
                "a drawing in it (an XObject) paints itself".into(),
            ));
        }
        if self.path.len() >= MAX_DRAWING_DEPTH {
            return Err(over(
                "its drawings (XObjects) nest too deep",
                MAX_DRAWING_DEPTH as u64,
            ));
        }
        if let Some(cost) = self.costs.get(&painting) {
            return Ok(cost.clone());
        }
        let drawing = match self.drawings.get(&id) {
            Some(drawing) => Rc::clone(drawing),
            None => {
                let content = content_of(stream);
                let scan = content::scan(&content);
                Self::within_limits(&scan, "drawing (an XObject)")?;
                let drawing = Rc::new(Drawing {
                    named: painted::named(&content),
                    scan,
                    bytes: content.len() as u64,
                });
                self.drawings.insert(id, Rc::clone(&drawing));
                drawing
            }
        };
        self.path.push(painting);
        let cost = self.run_measured(&drawing, resources);
        self.path.pop();
        let cost = cost?;
        self.costs.insert(painting, cost.clone());
        Ok(cost)
    }

    /// The entries the `/ToUnicode` stream `id` expands to; a map past the limits is the error.
    fn map_entries(&mut self, id: ObjectId) -> Result<u64, BudgetProblem> {
        if let Some(&entries) = self.map_entries.get(&id) {
            return Ok(entries);
        }
        let Ok(Object::Stream(stream)) = self.doc.get_object(id) else {
            return Ok(0);
        };
        let size = cmap::measure(&content_of(stream));
        if size.depth > MAX_CMAP_DEPTH {
            return Err(over(
                format!("a font's character map nests {} levels deep", size.depth),
                u64::from(MAX_CMAP_DEPTH),
            ));
        }
        if size.entries > MAX_CMAP_ENTRIES {
            return Err(over(
                format!("a font's character map has {} entries", size.entries),
                MAX_CMAP_ENTRIES,
            ));
        }
        self.map_entries.insert(id, size.entries);
        Ok(size.entries)
    }
}

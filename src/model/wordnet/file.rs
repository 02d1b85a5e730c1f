//! The lexicon's part of a model file (format version 3, [`crate::model::format`]):
//!
//! 1. source note: string;
//! 2. lemmas: sorted strings, front-coded ([`crate::model::codec`]);
//! 3. parts of speech: one byte per lemma, the bits of [`PartOfSpeech::bit`] (1 to 15);
//! 4. exceptions: their count, then each as its form (string), its part of speech (u8, the
//!    index in [`PartOfSpeech::ALL`]), its number of bases and the bases' lemma ids (varints);
//!    sorted by (form, part of speech);
//! 5. relations, each pair once (`a < b`): the number of lemmas with a pair to a larger id,
//!    then per such lemma the gap to it from the previous one (the first: its id), its number
//!    of pairs, the deltas of the larger ids (from `a`, then from the previous; all `>= 1`) and
//!    each pair's relation from `a` (a byte of [`Relation`] bits).

use super::{Exception, LemmaId, Lexicon, Relation};
use crate::model::codec::{Reader, Writer};
use crate::text::morphy::PartOfSpeech;

/// Appends the lexicon to a model payload.
pub(crate) fn encode(lexicon: &Lexicon, w: &mut Writer) {
    w.string(lexicon.source());
    w.sorted_strings(lexicon.lemma_vocabulary());
    w.bytes(lexicon.part_bits());
    w.varint(lexicon.exceptions().len() as u64);
    for e in lexicon.exceptions() {
        w.string(&e.form);
        w.u8(e.pos as u8);
        w.varint(e.bases.len() as u64);
        for &b in &e.bases {
            w.varint(u64::from(b));
        }
    }
    let pairs: Vec<(LemmaId, LemmaId, Relation)> = lexicon.upper_pairs().collect();
    let rows: Vec<&[(LemmaId, LemmaId, Relation)]> = pairs.chunk_by(|x, y| x.0 == y.0).collect();
    w.varint(rows.len() as u64);
    let mut previous_row = 0;
    for row in rows {
        let a = row[0].0;
        w.varint(u64::from(a - previous_row));
        previous_row = a;
        w.varint(row.len() as u64);
        let mut previous = a;
        for &(_, b, _) in row {
            w.varint(u64::from(b - previous));
            previous = b;
        }
        for &(_, _, r) in row {
            w.u8(r.bits());
        }
    }
}

/// Reads a lexicon written by [`encode`]; the error says what is wrong.
pub(crate) fn decode(r: &mut Reader<'_>) -> Result<Lexicon, String> {
    let source = r.string("the lexicon's source note")?.to_string();
    let lemmas = r.sorted_strings("lemmas")?;
    let n = lemmas.len();
    let parts = r.take(n)?.to_vec();
    let exception_count = r.count("exceptions", 3)?;
    let mut exceptions = Vec::with_capacity(exception_count);
    for _ in 0..exception_count {
        let form = r.string("an exception's form")?.to_string();
        let pos = PartOfSpeech::from_index(r.u8()?)
            .ok_or_else(|| format!("the exception {form:?} has an unknown part of speech"))?;
        let count = r.count("an exception's bases", 1)?;
        let mut bases = Vec::with_capacity(count);
        for _ in 0..count {
            bases.push(r.varint_u32("an exception's base")?);
        }
        if let Some(previous) = exceptions
            .last()
            .map(|e: &Exception| (e.form.clone(), e.pos))
            && previous >= (form.clone(), pos)
        {
            return Err(format!("exceptions are not sorted at {form:?}"));
        }
        exceptions.push(Exception { form, pos, bases });
    }
    let rows = r.count("relation rows", 3)?;
    let mut pairs = Vec::new();
    let mut row: u64 = 0;
    for k in 0..rows {
        let gap = r.varint()?;
        if k > 0 && gap == 0 {
            return Err("relation rows are not increasing".to_string());
        }
        row = row.saturating_add(gap);
        let a = LemmaId::try_from(row)
            .ok()
            .filter(|&a| (a as usize) < n)
            .ok_or_else(|| format!("relation row {row} is outside the {n} lemmas"))?;
        let len = r.count("a relation row", 2)?;
        if len == 0 {
            return Err(format!("relation row {a} is listed but empty"));
        }
        let start = pairs.len();
        let mut b = u64::from(a);
        for _ in 0..len {
            let delta = r.varint()?;
            if delta == 0 {
                return Err(format!("relation row {a} is not increasing"));
            }
            b = b.saturating_add(delta);
            let id = LemmaId::try_from(b)
                .ok()
                .filter(|&id| (id as usize) < n)
                .ok_or_else(|| format!("relation row {a} names lemma {b}, outside"))?;
            pairs.push((a, id, Relation::default()));
        }
        for pair in &mut pairs[start..] {
            let bits = r.u8()?;
            pair.2 = Relation::from_bits(bits)
                .ok_or_else(|| format!("a relation has unknown bits {bits:#x}"))?;
        }
    }
    Lexicon::new(source, lemmas, parts, exceptions, pairs).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lexicon_round_trips_and_damage_is_refused() {
        let lexicon = super::super::sample();
        let mut w = Writer::default();
        encode(&lexicon, &mut w);
        let bytes = w.out;
        let mut r = Reader::new(&bytes);
        assert_eq!(decode(&mut r).unwrap(), lexicon);
        assert!(r.is_at_end());
        // Every truncation is an error, never a panic.
        for end in 0..bytes.len() {
            assert!(decode(&mut Reader::new(&bytes[..end])).is_err(), "{end}");
        }
        // A relation byte with an unknown bit.
        let mut bad = bytes.clone();
        let last = bad.len() - 1;
        bad[last] = 0x80;
        let err = decode(&mut Reader::new(&bad)).unwrap_err();
        assert!(err.contains("unknown bits"), "{err}");
    }
}

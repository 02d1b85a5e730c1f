//! Model file bytes: nothing may panic and every failure is a clear error. The first byte
//! chooses how the rest is read: as a whole file (0), or as a payload sealed behind a valid
//! header (format version 1 for 1, the current version for any other value) and checksum, so that mutations reach the decoder instead of
//! stopping at the checksum. A model that decodes is then used: its statistics and a lookup of
//! every term must stay in range.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use simdoc::model::ReferenceModel;
use simdoc::model::format::{MAGIC, VERSION};
use simdoc::similarity::ModelView;

/// Header (magic, version, payload length), payload, CRC-32 of all but the magic.
fn sealed(payload: &[u8], version: u32) -> Vec<u8> {
    let mut file = Vec::with_capacity(payload.len() + 24);
    file.extend_from_slice(&MAGIC);
    file.extend_from_slice(&version.to_le_bytes());
    file.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    file.extend_from_slice(payload);
    let crc = crc32fast::hash(&file[MAGIC.len()..]);
    file.extend_from_slice(&crc.to_le_bytes());
    file
}

fuzz_target!(|bytes: &[u8]| {
    let Some((&selector, rest)) = bytes.split_first() else {
        return;
    };
    let file = match selector {
        0 => rest.to_vec(),
        1 => sealed(rest, 1),
        _ => sealed(rest, VERSION),
    };
    match ReferenceModel::from_bytes(&file, Path::new("m")) {
        Ok(model) => {
            let size = model.vocabulary_size();
            for id in 0..size.min(64) {
                assert!(
                    model
                        .correlates(id)
                        .all(|(k, c)| k < size && c > 0.0 && c <= 1.0)
                );
            }
            model.fourgram_count(['a', 'b', 'c', 'd']);
        }
        Err(error) => assert!(error.to_string().starts_with("m: ")),
    }
});

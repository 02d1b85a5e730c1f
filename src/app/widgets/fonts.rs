//! Chinese, Japanese and Korean text: egui's bundled fonts have no CJK glyphs, so such text
//! showed as boxes. A CJK font installed on the system is added behind the bundled ones (they
//! keep drawing Latin text); when none is found, the text pane says what is missing instead of
//! leaving the reader with boxes.

use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where common Linux, macOS and Windows installs keep a font with CJK glyphs, best first.
const CJK_FONT_PATHS: &[&str] = &[
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/arphic/uming.ttc",
    "/System/Library/Fonts/PingFang.ttc",
    "/System/Library/Fonts/Hiragino Sans GB.ttc",
    "C:\\Windows\\Fonts\\msyh.ttc",
    "C:\\Windows\\Fonts\\msgothic.ttc",
];

/// Fonts larger than this are not loaded (a font file is read whole into memory).
const MAX_FONT_BYTES: u64 = 64 * 1024 * 1024;

/// The first CJK font among `candidates` that exists and is of a sensible size.
pub fn find_cjk_font<'p>(candidates: impl IntoIterator<Item = &'p Path>) -> Option<PathBuf> {
    candidates.into_iter().find_map(|path| {
        let size = std::fs::metadata(path).ok().filter(|m| m.is_file())?.len();
        (size > 0 && size <= MAX_FONT_BYTES).then(|| path.to_path_buf())
    })
}

/// Adds a system CJK font behind egui's own fonts; returns the font's path, or `None` when no
/// CJK font was found (or it could not be read).
pub fn install_cjk_fallback(ctx: &egui::Context) -> Option<PathBuf> {
    let path = find_cjk_font(CJK_FONT_PATHS.iter().map(Path::new))?;
    let bytes = std::fs::read(&path).ok()?;
    let mut fonts = egui::FontDefinitions::default();
    fonts.font_data.insert(
        "cjk-fallback".to_owned(),
        Arc::new(egui::FontData::from_owned(bytes)),
    );
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        fonts
            .families
            .entry(family)
            .or_default()
            .push("cjk-fallback".to_owned());
    }
    ctx.set_fonts(fonts);
    Some(path)
}

/// Whether `text` holds Chinese, Japanese or Korean characters (CJK ideographs, kana, hangul).
pub fn has_cjk(text: &str) -> bool {
    text.chars().any(|c| {
        matches!(c as u32,
            0x3040..=0x30FF      // hiragana, katakana
            | 0x3400..=0x4DBF    // CJK extension A
            | 0x4E00..=0x9FFF    // CJK unified ideographs
            | 0xAC00..=0xD7AF    // hangul syllables
            | 0xF900..=0xFAFF    // CJK compatibility ideographs
            | 0x20000..=0x2FFFF) // CJK extensions B and later
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cjk_text_is_recognised() {
        assert!(has_cjk("北京是中国的首都。"));
        assert!(has_cjk("東京は日本の首都です。"));
        assert!(has_cjk("서울은 한국의 수도입니다."));
        assert!(!has_cjk("Paris is the capital of France, déjà vu."));
    }

    #[test]
    fn the_first_existing_font_of_a_sensible_size_is_chosen() {
        let dir = tempfile::tempdir().expect("temp dir");
        let empty = dir.path().join("empty.ttf");
        let font = dir.path().join("font.ttc");
        std::fs::write(&empty, b"").expect("write");
        std::fs::write(&font, b"not really a font, but a file").expect("write");
        let missing = dir.path().join("missing.ttf");
        let candidates = [
            missing.as_path(),
            empty.as_path(),
            dir.path(),
            font.as_path(),
        ];
        assert_eq!(find_cjk_font(candidates), Some(font.clone()));
        assert_eq!(find_cjk_font([missing.as_path()]), None);
    }
}

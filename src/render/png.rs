//! PNG output: the SVG pictures rasterised with resvg, with egui's bundled Ubuntu font so the
//! PNG shows the same text on every machine (no system fonts are consulted).

use std::sync::{Arc, LazyLock};

use resvg::{tiny_skia, usvg};

/// Why a picture could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("the picture could not be read back as SVG: {0}")]
    Svg(String),
    #[error("the picture is too large to rasterise ({0} x {1} pixels)")]
    TooLarge(u32, u32),
    #[error("the PNG could not be encoded: {0}")]
    Encode(String),
}

/// The largest PNG side simdoc will allocate.
const MAX_SIDE: u32 = 16_384;

static FONTS: LazyLock<Arc<usvg::fontdb::Database>> = LazyLock::new(|| {
    let mut db = usvg::fontdb::Database::new();
    db.load_font_data(epaint_default_fonts::UBUNTU_LIGHT.to_vec());
    db.set_sans_serif_family("Ubuntu");
    Arc::new(db)
});

/// Rasterises an SVG document to PNG bytes, `scale` times its own size.
pub fn svg_to_png(svg: &str, scale: f32) -> Result<Vec<u8>, RenderError> {
    let options = usvg::Options {
        fontdb: Arc::clone(&FONTS),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| RenderError::Svg(e.to_string()))?;
    let size = tree.size();
    let width = (size.width() * scale).ceil() as u32;
    let height = (size.height() * scale).ceil() as u32;
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
        return Err(RenderError::TooLarge(width, height));
    }
    let mut pixmap =
        tiny_skia::Pixmap::new(width, height).ok_or(RenderError::TooLarge(width, height))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| RenderError::Encode(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_text_and_shapes_to_png() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#ff0000"/><text x="2" y="15" font-family="sans-serif" font-size="12">Hi</text></svg>"##;
        let png = svg_to_png(svg, 1.0).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert!(svg_to_png("not svg", 1.0).is_err());
    }
}

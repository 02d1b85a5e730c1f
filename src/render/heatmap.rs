//! The odds-ratio matrix of a collection as a heatmap (thesis Fig. 4.3 and Table 4.1): one cell
//! per document pair, darker for a higher odds ratio on a log scale (odds ratios span 0.001 to
//! 100), the documents numbered along both axes with a legend of names for small collections.

use std::fmt::Write;

use super::dotplot::escape;

/// Above this many documents the names are not listed (the numbers remain in tooltips).
const MAX_LISTED: usize = 60;

/// Fill colour for an odds ratio: white at 0, deep blue at 100 (log scale from 0.001).
fn color(odds: f64) -> String {
    let t = if odds <= 0.0 {
        0.0
    } else {
        ((odds.log10() + 3.0) / 5.0).clamp(0.0, 1.0)
    };
    let lerp = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        lerp(255.0, 0x1a as f64),
        lerp(255.0, 0x3c as f64),
        lerp(255.0, 0x8c as f64)
    )
}

/// The heatmap SVG of `odds` (square, `odds[a][b]`), with `names` in the legend.
pub fn odds_heatmap_svg(names: &[String], odds: &[Vec<f64>]) -> String {
    let n = odds.len();
    let cell = if n == 0 {
        10.0
    } else {
        (640.0 / n as f64).clamp(2.0, 28.0)
    };
    let margin = 48.0;
    let grid = cell * n as f64;
    let listed = n <= MAX_LISTED;
    let legend_width = if listed { 420.0 } else { 0.0 };
    let width = margin * 2.0 + grid + legend_width;
    let height = (margin * 2.0 + grid).max(if listed { 40.0 + 16.0 * n as f64 } else { 0.0 });
    let mut svg = String::new();
    let _ = write!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="Ubuntu, sans-serif"><rect width="100%" height="100%" fill="#ffffff"/>"##
    );
    let _ = write!(
        svg,
        r##"<text x="{margin}" y="24" font-size="14" fill="#222222">Odds ratios between documents (thesis eq. 4.3; 100 = identical)</text>"##
    );
    for (a, row) in odds.iter().enumerate() {
        for (b, &value) in row.iter().enumerate() {
            let _ = write!(
                svg,
                r#"<rect class="cell" x="{:.2}" y="{:.2}" width="{cell:.2}" height="{cell:.2}" fill="{}"><title>{} × {}: {value:.3}</title></rect>"#,
                margin + b as f64 * cell,
                margin + a as f64 * cell,
                color(value),
                a + 1,
                b + 1
            );
        }
    }
    if n <= 40 {
        for i in 0..n {
            let c = margin + (i as f64 + 0.5) * cell;
            let _ = write!(
                svg,
                r##"<text x="{c:.1}" y="{:.1}" font-size="9" text-anchor="middle" fill="#444444">{}</text><text x="{:.1}" y="{:.1}" font-size="9" text-anchor="end" fill="#444444">{}</text>"##,
                margin - 4.0,
                i + 1,
                margin - 4.0,
                c + 3.0,
                i + 1
            );
        }
    }
    if listed {
        let x = margin * 1.5 + grid;
        for (i, name) in names.iter().enumerate().take(n) {
            let short: String = name
                .chars()
                .rev()
                .take(60)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let _ = write!(
                svg,
                r##"<text x="{x:.1}" y="{:.1}" font-size="11" fill="#222222">{}. {}</text>"##,
                margin + 12.0 + 16.0 * i as f64,
                i + 1,
                escape(&short)
            );
        }
    }
    svg.push_str("</svg>\n");
    svg
}

/// The matrix as CSV: a header of document names, then one row per document.
pub fn odds_csv(
    names: &[String],
    odds: &[Vec<f64>],
    out: impl std::io::Write,
) -> Result<(), csv::Error> {
    let mut writer = crate::escape::CsvWriter::new(out);
    let mut header = vec![String::new()];
    header.extend(names.iter().cloned());
    writer.write_record(&header)?;
    for (name, row) in names.iter().zip(odds) {
        let mut record = vec![name.clone()];
        record.extend(row.iter().map(|v| format!("{v:.4}")));
        writer.write_record(&record)?;
    }
    writer.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_cell_per_pair_and_a_legend() {
        let names = vec!["a.txt".to_string(), "b & c.txt".to_string()];
        let odds = vec![vec![100.0, 0.5], vec![0.5, 100.0]];
        let svg = odds_heatmap_svg(&names, &odds);
        assert_eq!(svg.matches(r#"class="cell""#).count(), 4);
        assert!(svg.contains("2. b &amp; c.txt"));
        assert_eq!(color(0.0), "#ffffff");
        assert_eq!(color(100.0), "#1a3c8c");
        let mut csv = Vec::new();
        odds_csv(&names, &odds, &mut csv).unwrap();
        assert_eq!(
            String::from_utf8(csv).unwrap(),
            ",a.txt,b & c.txt\na.txt,100.0000,0.5000\nb & c.txt,0.5000,100.0000\n"
        );
    }
}

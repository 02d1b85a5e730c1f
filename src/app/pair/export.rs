//! Export through a save dialog, in the background, with the same renderers as the command line.

use std::path::{Path, PathBuf};

use crate::app::{JobOutput, Pick, SimdocApp};
use crate::render::report::{Report, Side as ReportSide};
use crate::render::{html, png};
use crate::similarity::{ModelView, Thresholds};

/// Size of exported dotplots, in pixels.
pub const DOTPLOT_SIZE: (u32, u32) = (900, 900);

/// What can be exported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportKind {
    DotplotPng,
    DotplotSvg,
    ReportJson,
    ReportCsv,
    ReportHtml,
}

impl ExportKind {
    pub const ALL: [ExportKind; 5] = [
        ExportKind::DotplotPng,
        ExportKind::DotplotSvg,
        ExportKind::ReportJson,
        ExportKind::ReportCsv,
        ExportKind::ReportHtml,
    ];

    pub fn title(self) -> &'static str {
        match self {
            ExportKind::DotplotPng => "Dotplot as PNG…",
            ExportKind::DotplotSvg => "Dotplot as SVG…",
            ExportKind::ReportJson => "Report as JSON…",
            ExportKind::ReportCsv => "Matched pairs as CSV…",
            ExportKind::ReportHtml => "Report as HTML…",
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            ExportKind::DotplotPng => "png",
            ExportKind::DotplotSvg => "svg",
            ExportKind::ReportJson => "json",
            ExportKind::ReportCsv => "csv",
            ExportKind::ReportHtml => "html",
        }
    }
}

impl SimdocApp {
    /// Opens a save dialog for an export (off the UI thread).
    pub fn pick_export(&mut self, kind: ExportKind) {
        if self.analysis.is_none() {
            return;
        }
        let name = self.export_file_name(kind);
        self.ask_where_to_save(
            Pick::Export(kind),
            kind.title().trim_end_matches('…'),
            name,
            kind.extension(),
        );
    }

    fn export_file_name(&self, kind: ExportKind) -> String {
        let stem = |i: usize| {
            self.docs[i]
                .as_ref()
                .and_then(|d| d.path.file_stem().map(|s| s.to_string_lossy().into_owned()))
                .unwrap_or_else(|| ["a", "b"][i].to_string())
        };
        let what = match kind {
            ExportKind::DotplotPng | ExportKind::DotplotSvg => "dotplot",
            _ => "report",
        };
        format!("{}-vs-{}-{what}.{}", stem(0), stem(1), kind.extension())
    }

    /// Writes an export to `path` in the background.
    pub fn export(&mut self, kind: ExportKind, path: PathBuf) {
        let Some(analysis) = self.analysis.clone() else {
            return;
        };
        let thresholds = self.settings.thresholds;
        let model = std::sync::Arc::clone(&self.model);
        let repaint = self.repainter();
        self.jobs.spawn(
            format!("Exporting {}", path.display()),
            repaint,
            move |_| {
                let result = write_export(kind, &path, &analysis, thresholds, &model)
                    .map(|()| format!("Exported {}", path.display()))
                    .map_err(|e| format!("{}: cannot export: {e}", path.display()));
                JobOutput::Exported { result }
            },
        );
    }
}

/// Renders and writes one export (also used by tests).
pub fn write_export(
    kind: ExportKind,
    path: &Path,
    analysis: &crate::app::Analysis,
    thresholds: Thresholds,
    model: &dyn ModelView,
) -> Result<(), String> {
    let paths = analysis
        .docs
        .each_ref()
        .map(|d| d.path.display().to_string());
    let sides = [
        ReportSide {
            path: &paths[0],
            doc: &analysis.docs[0].doc,
        },
        ReportSide {
            path: &paths[1],
            doc: &analysis.docs[1].doc,
        },
    ];
    let report = Report::new(sides, &analysis.comparison, thresholds);
    let report = match kind {
        ExportKind::ReportJson | ExportKind::ReportCsv | ExportKind::ReportHtml => {
            report.with_words(model, &analysis.options)
        }
        ExportKind::DotplotPng | ExportKind::DotplotSvg => report,
    };
    let bytes = match kind {
        ExportKind::DotplotSvg => report
            .dotplot_svg(DOTPLOT_SIZE.0, DOTPLOT_SIZE.1)
            .into_bytes(),
        ExportKind::DotplotPng => {
            png::svg_to_png(&report.dotplot_svg(DOTPLOT_SIZE.0, DOTPLOT_SIZE.1), 1.0)
                .map_err(|e| e.to_string())?
        }
        ExportKind::ReportJson => {
            let mut out =
                serde_json::to_vec_pretty(&report.to_json()).map_err(|e| e.to_string())?;
            out.push(b'\n');
            out
        }
        ExportKind::ReportCsv => {
            let mut out = Vec::new();
            report.write_csv(&mut out).map_err(|e| e.to_string())?;
            out
        }
        ExportKind::ReportHtml => html::report_html(&report).into_bytes(),
    };
    // Written whole or not at all, and never over one of the two documents.
    let inputs = analysis.docs.each_ref().map(|d| d.path.clone());
    crate::write::check_targets(&[path], &[], &inputs).map_err(|e| e.to_string())?;
    crate::write::write_file(path, &bytes).map_err(|e| e.to_string())
}

//! What the viewer's test suites (app, viewer, viewer_sources) share: writing an input file, a
//! harness of the viewer's size, and stepping it until its background jobs are done.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use simdoc::app::SimdocApp;

/// Writes `contents` to `dir/name` and returns its path.
#[allow(
    dead_code,
    reason = "not every suite writes its inputs (each includes this module)"
)]
pub fn write(dir: &Path, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write test file");
    path
}

/// The viewer in a 1400 x 900 window.
pub fn harness(app: SimdocApp) -> Harness<'static, SimdocApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_ui_state(|ui, app: &mut SimdocApp| app.ui(ui), app)
}

/// Steps the UI until background jobs are done and stay done for three more frames (a finished
/// job may start the next: a comparison after a load), or fails after 60 s.
pub fn settle(harness: &mut Harness<'_, SimdocApp>) {
    let start = Instant::now();
    loop {
        harness.step();
        if !harness.state().is_busy() {
            for _ in 0..3 {
                harness.step();
            }
            if !harness.state().is_busy() {
                return;
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "jobs did not finish"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The text (label, else value) of every widget whose label contains `text`, top to bottom.
#[allow(
    dead_code,
    reason = "not every suite reads labels (each includes this module)"
)]
pub fn labels_containing(harness: &Harness<'_, SimdocApp>, text: &str) -> Vec<String> {
    harness
        .get_all_by_label_contains(text)
        .map(|n| {
            let node = n.accesskit_node();
            node.label().or_else(|| node.value()).unwrap_or_default()
        })
        .collect()
}

/// Chooses the preset `name` in the toolbar's preset menu.
#[allow(
    dead_code,
    reason = "not every suite chooses presets (each includes this module)"
)]
pub fn choose_preset(harness: &mut Harness<'_, SimdocApp>, name: &str) {
    harness.get_by_label("Preset").click();
    harness.run_ok();
    harness
        .get_all_by_label(name)
        .last()
        .expect("the preset in the open menu")
        .click();
    harness.run_ok();
}

/// The preset the toolbar's preset menu shows as active ("Custom" after a change of its own).
#[allow(
    dead_code,
    reason = "not every suite reads the preset (each includes this module)"
)]
pub fn preset_shown(harness: &Harness<'_, SimdocApp>) -> String {
    let node = harness.get_by_label("Preset");
    let node = node.accesskit_node();
    node.value().unwrap_or_default()
}

//! An editor's case (issue 43): the example text "Guinea" (assets/examples/guinea.md, 36 KB)
//! and a revision of it edited by hand with known edits, each at a known sentence of A and B.

/// The first version.
pub fn original() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/examples/guinea.md"
    ))
    .expect("the example text")
}

/// `text` with `old` (which it holds once) replaced by `new`.
fn change(text: &str, old: &str, new: &str) -> String {
    assert_eq!(text.matches(old).count(), 1, "{old}");
    text.replacen(old, new, 1)
}

/// The Nimba paragraph, moved in the revision from Geography to Oil.
pub const NIMBA: &str = "The highest point in Guinea is Mount Nimba at 1752 m. Although the Guinean and Ivorian \
sides of the Nimba Massif are a UNESCO Strict Nature Reserve, the portion of the so-called Guinean \
Backbone continues into Liberia, where it has been mined for decades; the damage is quite evident in \
the Nzérékoré Region at .\n\n";

/// The paragraph on youth unemployment, deleted in the revision (four sentences).
pub const YOUTH: &str = "Youth unemployment, however, remains a large problem. Guinea needs an adequate policy \
to address the concerns of the urban youth. The problem is the disparity between their life and what \
they see on television. As the youth cannot find jobs, seeing the economic power and consumerism of \
richer countries only serves to frustrate them further.\n\n";

/// The revision with only the paragraph on youth unemployment deleted.
pub fn youth_deleted() -> String {
    change(&original(), YOUTH, "")
}

/// The revision with only the Nimba paragraph moved, its first sentence reworded.
pub fn nimba_moved() -> String {
    let text = change(&original(), NIMBA, "");
    let moved = NIMBA.replace(
        "The highest point in Guinea is Mount Nimba at 1752 m.",
        "Mount Nimba, at 1752 m, is the highest point of Guinea.",
    );
    change(&text, "## Oil\n\n", &format!("## Oil\n\n{moved}"))
}

/// The revision: four sentences reworded in place, three deleted, the paragraph on youth
/// unemployment deleted, two sentences of another story added, the Nimba paragraph moved with
/// its first sentence reworded.
pub fn revised() -> String {
    let mut text = original();
    for (old, new) in [
        (
            "Guinea's people belong to twenty-four ethnic groups.",
            "The people of Guinea belong to some twenty-four different ethnic groups.",
        ),
        (
            "Camara went to Morocco for medical care.",
            "Camara was taken to Morocco for medical treatment.",
        ),
        (
            "Elections were finally held on 7 November.",
            "The elections were at last held on 7 November.",
        ),
        (
            "Domestic air services are intermittent.",
            "Air services within the country are intermittent.",
        ),
        (
            " It was in this period that Islam first arrived in the region.",
            "",
        ),
        // Judged by the passage around it, this deletion was "changed" (a link through the
        // words it shares with its neighbour, its own E-value far above the pair bar).
        (
            " Slavery had always been part of everyday life but the scale increased as slaves \
             were exported to work elsewhere in the triangular trade.",
            "",
        ),
        (" Currency depreciation is also a concern.", ""),
        (YOUTH, ""),
        (
            "Since the 2010 Presidential Elections, the head of state has been Alpha Condé.",
            "Since the 2010 Presidential Elections, the head of state has been Alpha Condé. A \
             fisherman from the coast told reporters that the harbour had been closed for three \
             weeks after the storm.",
        ),
        (
            "Horses and donkeys pull carts, primarily to transport construction materials.",
            "Horses and donkeys pull carts, primarily to transport construction materials. The \
             bakery on the corner sells its bread before seven in the morning, and the queue often \
             reaches the market square.",
        ),
    ] {
        text = change(&text, old, new);
    }
    let moved = NIMBA.replace(
        "The highest point in Guinea is Mount Nimba at 1752 m.",
        "Mount Nimba, at 1752 m, is the highest point of Guinea.",
    );
    text = change(&text, NIMBA, "");
    change(&text, "## Oil\n\n", &format!("## Oil\n\n{moved}"))
}

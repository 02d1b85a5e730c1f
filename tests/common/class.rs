//! A small class whose student pairs rank differently by raw score and by what they share
//! beyond the marked source (issue 41): written the same way for the command line's test
//! (`cli_collection_report`) and the viewer's (`viewer_collection`), so both rank one class.

use std::path::Path;

/// The source's five sentences.
const SOURCE: [&str; 5] = [
    "The river flooded the lower town in April.",
    "Farmers lost most of their spring wheat.",
    "The council opened the school as a shelter.",
    "Volunteers brought blankets and food from the next valley.",
    "Engineers inspected the old levee after the water went down.",
];

/// Writes `flood.txt` (the source) into `sources` and four answers into `answers`: Alice and
/// Bob quote four of the source's sentences, then write their own; Carol and Dave share two
/// sentences of their own, in no source. By raw score Alice and Bob's pair is the higher (four
/// shared sentences against two); beyond the source they share nothing.
pub fn write_flood_class(sources: &Path, answers: &Path) {
    let write = |path: &Path, text: &str| {
        std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    };
    write(&sources.join("flood.txt"), &SOURCE.join(" "));
    let quoted = SOURCE[..4].join(" ");
    write(
        &answers.join("alice.txt"),
        &format!(
            "{quoted} My aunt says the bells rang all night. Our street stayed dry. I would build \
             a higher wall."
        ),
    );
    write(
        &answers.join("bob.txt"),
        &format!(
            "{quoted} The radio kept playing old songs. I think the mayor acted too slowly. A \
             new dam is planned."
        ),
    );
    let own = "A heron nested on the drowned bus shelter for the whole of May. Children from \
               the hill farms counted its chicks every morning before school.";
    write(
        &answers.join("carol.txt"),
        &format!(
            "{own} The market moved to the church square. Prices rose for a while. My brother \
             helped to sweep the mud from the bakery. The summer was hot and dry."
        ),
    );
    write(
        &answers.join("dave.txt"),
        &format!(
            "{own} Our football pitch was closed until August. The library lost its basement \
             archive. Insurance letters arrived for months. Nobody in our family was hurt."
        ),
    );
}

#!/usr/bin/env bash
# Compares PDF text-extraction crates (eval/pdf-crates) on PDFs made from known text: the
# fixture tests/fixtures/formats/guinea.pdf (LibreOffice, running header and page numbers), and
# PDFs that LibreOffice makes here from history-of-guinea.md and from two public-domain
# addresses in $SIMDOC_DATA/reference/us-speeches-pd (long plain-text paragraphs, 2-column-free).
# Prints the table recorded in EVALUATION.md "PDF text extraction".
# Needs pandoc and LibreOffice Writer (apt-get install -y pandoc libreoffice-writer-nogui).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${SIMDOC_DATA:?set SIMDOC_DATA to the shared data folder}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
speeches="$SIMDOC_DATA/reference/us-speeches-pd/inaugural"
pandoc assets/examples/history-of-guinea.md -o "$work/history-of-guinea.docx"
cp "$speeches/2009-Obama.txt" "$work/obama-2009.txt"
cp "$speeches/1961-Kennedy.txt" "$work/kennedy-1961.txt"
for f in history-of-guinea.docx obama-2009.txt kennedy-1961.txt; do
  soffice --headless --convert-to pdf --outdir "$work" "$work/$f" >>"$work/soffice.log" 2>&1
done
cargo run --quiet --release --manifest-path eval/pdf-crates/Cargo.toml -- \
  assets/examples/guinea.md:tests/fixtures/formats/guinea.pdf \
  assets/examples/history-of-guinea.md:"$work/history-of-guinea.pdf" \
  "$work/obama-2009.txt:$work/obama-2009.pdf" \
  "$work/kennedy-1961.txt:$work/kennedy-1961.pdf"

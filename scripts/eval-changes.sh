#!/usr/bin/env bash
# The editor's change list (EVALUATION.md, "The editor's change list"): builds revisions of
# training texts with known edits (Wikipedia texts of wiki_00-49, PAN's tuning paraphrases as
# reworded sentences, Reuters sentences of reut2-000-010 added, sentences and paragraphs deleted,
# paragraphs moved), scores simdoc's change list on them with the pair-bar grid the default was
# chosen on (criterion: macro F1 over the four kinds), and the difflib peer
# (scripts/changes_difflib.py) on the same revisions.
#
#   scripts/eval-changes.sh [OUT]        # OUT defaults to target/changes
#
# Needs SIMDOC_DATA (or ../shared/data) and python3. A minute on two cores; the tables land in
# OUT as Markdown.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${SIMDOC_DATA:-../shared/data}"
OUT="${1:-target/changes}"
mkdir -p "$OUT"
cargo build --release --quiet
S=target/release/simdoc

[ -f "$OUT/tune/corpus.json" ] || "$S" eval changes build "$OUT/tune" --data "$DATA" --split tune

"$S" eval changes run "$OUT/tune" --label simdoc --detections "$OUT/simdoc" \
  --sweep-pair-bar 0.00001,0.01,0.1,1,3,10,30,100,300,1000,inf > "$OUT/simdoc.md"
python3 scripts/changes_difflib.py "$OUT/tune" "$OUT/difflib"
"$S" eval changes score "$OUT/tune" --detections "$OUT/difflib" --label difflib > "$OUT/difflib.md"
cat "$OUT/simdoc.md" "$OUT/difflib.md"

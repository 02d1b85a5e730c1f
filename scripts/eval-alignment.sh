#!/usr/bin/env bash
# Text alignment (EVALUATION.md, "Text alignment"): builds the PAN-style corpora from the PAN
# tuning pairs, scores the three presets on them, and runs the grids the documents preset's
# values were chosen on (criterion: plagdet averaged over the background sizes, subject to
# unrelated documents' containment of at most 1% at every size).
#
#   scripts/eval-alignment.sh [OUT]        # OUT defaults to target/alignment
#
# Needs SIMDOC_DATA (or ../shared/data). Takes about an hour on two cores; every table lands in
# OUT as Markdown.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${SIMDOC_DATA:-../shared/data}"
OUT="${1:-target/alignment}"
mkdir -p "$OUT"
cargo build --release --quiet
S=target/release/simdoc

[ -f "$OUT/tune/corpus.json" ] || "$S" eval alignment build "$OUT/tune" --data "$DATA" --split tune
[ -f "$OUT/tune-small/corpus.json" ] ||
  "$S" eval alignment build "$OUT/tune-small" --data "$DATA" --split tune --sizes 500 --pairs 40
[ -f "$OUT/holdout/corpus.json" ] || "$S" eval alignment build "$OUT/holdout" --data "$DATA" --split holdout

# The presets, on the tuning corpus and (once, after choosing) on the held-out one.
for preset in documents measured thesis; do
  "$S" eval alignment run "$OUT/tune" --preset "$preset" --label "$preset" > "$OUT/preset-$preset.md"
  "$S" eval alignment run "$OUT/holdout" --preset "$preset" --label "$preset" > "$OUT/holdout-$preset.md"
done

# Permission and E-value bar: one run compares once and filters every way.
"$S" eval alignment run "$OUT/tune" --label documents \
  --sweep-permission 0.2,0.3,0.4 --sweep-max-e-value 1e-4,1e-5,1e-6 > "$OUT/grid-bars.md"

# What the search is: link bar, reach, seeds per sentence, stopwords; and the reference prior,
# also on 500-byte backgrounds (the corpus's smallest size is 5 KB).
# Seeds and the links around them at one bar (the search as first built), with the reach:
for link_bar in 3 5 7 9; do
  for reach in 2 3 5; do
    "$S" eval alignment run "$OUT/tune" --link-bar "$link_bar" --seed-link-bar "$link_bar" \
      --reach "$reach" --label "link bar $link_bar, reach $reach" \
      > "$OUT/grid-link-$link_bar-reach-$reach.md"
  done
done
# The bar a seed needs to be a link apart from the bar of the links around it (reach 3), then
# the reach at the chosen bars, and the link bar past the grid's top:
for seed_bar in 0 3 5 7; do
  for link_bar in 5 7 9; do
    "$S" eval alignment run "$OUT/tune" --seed-link-bar "$seed_bar" --link-bar "$link_bar" \
      --label "seed link bar $seed_bar, link bar $link_bar" \
      > "$OUT/grid-seed-$seed_bar-link-$link_bar.md"
  done
done
for reach in 2 5; do
  "$S" eval alignment run "$OUT/tune" --reach "$reach" --label "reach $reach" \
    > "$OUT/grid-reach-$reach.md"
done
for link_bar in 11 13; do
  "$S" eval alignment run "$OUT/tune" --seed-link-bar 3 --link-bar "$link_bar" \
    --label "seed link bar 3, link bar $link_bar" > "$OUT/grid-seed-3-link-$link_bar.md"
done
for seeds in 0.25 4; do
  "$S" eval alignment run "$OUT/tune" --seeds-per-sentence "$seeds" \
    --label "seeds per sentence $seeds" > "$OUT/grid-seeds-$seeds.md"
done
"$S" eval alignment run "$OUT/tune" --keep-stopwords false --label "stopwords dropped" \
  > "$OUT/grid-stopwords-false.md"
"$S" eval alignment run "$OUT/tune" --cooccurrence-discount false \
  --label "co-occurrence discount off" > "$OUT/grid-discount-off.md"
# WordNet's relations (issue 27) in the documents preset, counted where one word replaces another.
"$S" eval alignment run "$OUT/tune" --related-words wordnet --relate aligned \
  --label "documents, WordNet where replaced" > "$OUT/grid-wordnet-aligned.md"
"$S" eval alignment run "$OUT/tune" --related-words wordnet --relate all \
  --label "documents, WordNet anywhere" > "$OUT/grid-wordnet-all.md"
"$S" eval alignment run "$OUT/tune" --relate aligned \
  --label "documents, co-occurrence where replaced" > "$OUT/grid-cooccurrence-aligned.md"
# The learned pair verdict (issue 27) deciding which pairs may be links, its bar swept.
"$S" eval alignment run "$OUT/tune" --verdict true --label "documents, verdict" \
  --sweep-permission 0,0.05,0.1,0.2,0.3,0.43,0.45 > "$OUT/grid-verdict.md"
# The discount's sample of each word's sentences (the default is 256).
for sample in 1 8 32 64 128 512 2048; do
  "$S" eval alignment run "$OUT/tune" --discount-list-cap "$sample" \
    --label "discount sample $sample" > "$OUT/grid-discount-sample-$sample.md"
done
# The discount's bar (the default is 3 nats): ties on the tuning corpus are broken by F1 on the
# even-numbered half of the BBC summaries (its summaries against their own and other articles).
even="$OUT/bbc-summaries-even.csv"
head -1 eval/bbc-summaries.csv > "$even"
awk -F, 'NR > 1 { n = $1; sub(/.*\//, "", n); gsub(/[^0-9]/, "", n); if (n % 2 == 0) print }' \
  eval/bbc-summaries.csv >> "$even"
for bar in 0 1 2 2.5 3 3.5 4 5 8; do
  "$S" eval alignment run "$OUT/tune" --discount-bar "$bar" \
    --label "discount bar $bar" > "$OUT/grid-discount-bar-$bar.md"
  "$S" eval alignment run "$OUT/tune-small" --discount-bar "$bar" \
    --label "discount bar $bar" > "$OUT/grid-small-discount-bar-$bar.md"
  "$S" eval documents --labels "$even" --root "$DATA" --discount-bar "$bar" \
    > "$OUT/bbc-even-discount-bar-$bar.txt"
done
for prior in 0 2 5 10 20; do
  "$S" eval alignment run "$OUT/tune" --prior-sentences "$prior" --label "prior $prior" \
    > "$OUT/grid-prior-$prior.md"
  "$S" eval alignment run "$OUT/tune-small" --prior-sentences "$prior" --label "prior $prior" \
    > "$OUT/grid-small-prior-$prior.md"
done
# The partners a sentence keeps at the presets scored by Sims (the default is 1; 0 keeps every
# pair), at the measured preset, and the thesis preset beside.
for kept in 1 3 10 30 0; do
  "$S" eval alignment run "$OUT/tune" --preset measured --partners "$kept" \
    --label "measured, partners $kept" > "$OUT/grid-partners-$kept.md"
done
for kept in 1 10 0; do
  "$S" eval alignment run "$OUT/tune" --preset thesis --partners "$kept" \
    --label "thesis, partners $kept" > "$OUT/grid-thesis-partners-$kept.md"
done
# The summary line of every table, for EVALUATION.md.
grep -h "mean plagdet over the sizes" "$OUT"/*.md

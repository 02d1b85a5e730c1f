#!/usr/bin/env bash
# Chooses the weights of WordNet's relations (synonym, derived form, hypernym/hyponym/"similar
# to") and the thresholds of the wordnet preset, on the training data only: MSRP train and the
# tuning part of PAN train (`tune`; the holdout pairs are never read here).
#
# Every point of the grid synonym x derived x hypernym in {0, 0.25, 0.5, 0.75, 1}^3 (the whole
# range each weight can take), and the trial's 1,0.8,0.5 (issue 27), is evaluated with `simdoc eval pairs --related-words wordnet --relate
# aligned --wordnet-weights S,D,H --sweep`; `scripts/select_wordnet_weights.py` then picks:
#   1. the weights by the mean ROC AUC of min(Sim) over the two sets (the weights shape the
#      ranking; the threshold decides afterwards);
#   2. for those weights, the content floor (0, 0.1, ..., 0.5) and the (permission, variation)
#      of the sweep grid by the best mean F1 over the two sets at one common point, with the
#      one-standard-error rule of scripts/select_defaults.py (bootstrap over pairs): among the
#      floors within one standard error of the best, the cheapest to compare documents with,
#      timed on two documents of about 1,000 sentences (the first 150 KB of the 5,000-sentence
#      pair of examples/bench_compare.rs). A content floor is what a candidate must reach with
#      content words alone; WordNet relates many more words than a sentence shares, so a low
#      floor makes many more candidates.
# It prints the tables of EVALUATION.md ("WordNet relatedness").
#
# Usage: scripts/select-wordnet-weights.sh [WORK_DIR] [-- extra simdoc flags, e.g. --model FILE]
#        (default /tmp/simdoc-wordnet-weights; results are kept and reused, so a run resumes)
# Reads the data from $SIMDOC_DATA (default: ../shared/data). About 10 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
data="${SIMDOC_DATA:-../shared/data}"
pairs="$data/pairs"
work="/tmp/simdoc-wordnet-weights"
if [ $# -gt 0 ] && [ "$1" != "--" ]; then work="$1"; shift; fi
[ "${1:-}" = "--" ] && shift
extra=("$@")
mkdir -p "$work/json"
cargo build --release --no-default-features --quiet --bin simdoc --example bench_compare
cp target/release/simdoc "$work/simdoc"
simdoc="$work/simdoc"
steps=(0 0.25 0.5 0.75 1)
points=("1,0.8,0.5")
for s in "${steps[@]}"; do
    for d in "${steps[@]}"; do
        for h in "${steps[@]}"; do
            points+=("$s,$d,$h")
        done
    done
done
for point in "${points[@]}"; do
    for set in "msrp msrp train" "pan pan10 tune"; do
        read -r format folder split <<<"$set"
        out="$work/json/$point.$format.json"
        [ -s "$out" ] && continue
        "$simdoc" eval pairs --format "$format" "$pairs/$folder" --split "$split" \
            --preset measured --method fuzzy --sweep --quiet --related-words wordnet --relate aligned \
            --wordnet-weights "$point" --json "$out.tmp" "${extra[@]}"
        mv "$out.tmp" "$out"
    done
done
# The word-overlap baseline on the same refinement and rules.
for set in "msrp msrp train" "pan pan10 tune"; do
    read -r format folder split <<<"$set"
    out="$work/json/overlap.$format.json"
    [ -s "$out" ] && continue
    "$simdoc" eval pairs --format "$format" "$pairs/$folder" --split "$split" --method overlap \
        --preset measured --sweep --quiet --json "$out.tmp" "${extra[@]}"
    mv "$out.tmp" "$out"
done
python3 scripts/select_wordnet_weights.py "$work" | tee "$work/weights.txt"
weights=$(sed -n 's/^chosen: weights \([^;]*\);.*/\1/p' "$work/weights.txt")

# 2. The content floor, for those weights.
if [ ! -s "$work/docs/b-head.txt" ]; then
    mkdir -p "$work/docs"
    target/release/examples/bench_compare --write "$work/docs" >"$work/docs/write.log"
    head -c 150000 "$work/docs/a.txt" >"$work/docs/a-head.txt"
    head -c 150000 "$work/docs/b.txt" >"$work/docs/b-head.txt"
fi
for floor in 0 0.1 0.2 0.3 0.4 0.5; do
    for set in "msrp msrp train" "pan pan10 tune"; do
        read -r format folder split <<<"$set"
        out="$work/json/floor-$floor.$format.json"
        [ -s "$out" ] && continue
        "$simdoc" eval pairs --format "$format" "$pairs/$folder" --split "$split" \
            --preset measured --method fuzzy --sweep --quiet --related-words wordnet --relate aligned \
            --wordnet-weights "$weights" --content-floor "$floor" --json "$out.tmp" \
            --scores "$work/json/floor-$floor.$format.csv" "${extra[@]}"
        mv "$out.tmp" "$out"
    done
    if [ ! -s "$work/json/floor-$floor.time" ]; then
        # User CPU seconds of the comparison (the machine is shared; wall time is not).
        /usr/bin/time -f "%U" -o "$work/json/floor-$floor.time" "$simdoc" compare \
            "$work/docs/a-head.txt" "$work/docs/b-head.txt" --quiet --related-words wordnet \
            --relate aligned --wordnet-weights "$weights" --content-floor "$floor" "${extra[@]}"
    fi
done
python3 scripts/select_wordnet_weights.py "$work" --floors

#!/usr/bin/env bash
# Chooses the reference model's parameters and the fuzzy matcher's default thresholds by
# measurement, on the training data only: MSRP train and the tuning part of PAN train (PAN's
# `tune` split: every pair but each fifth; the fifth pairs, `holdout`, are never looked at here).
#
# For every candidate (co-occurrence unit x correlation floor x per-term cap x minimum df) it
# builds a model from the English Wikipedia reference text, sweeps both thresholds on both data
# sets (`simdoc eval pairs --sweep`), and `scripts/select_defaults.py` scores each model by its
# best mean of the thesis's F (the harmonic mean of 1 - FP rate and 1 - FN rate, thesis Table 4.8)
# over the two sets and picks the smallest model within one bootstrap standard error of the best,
# with that model's best thresholds. See EVALUATION.md, "Sentence matching".
#
# Usage: scripts/select-defaults.sh [WORK_DIR]   (default /tmp/simdoc-select; models are kept
#        there and reused on a second run, so an interrupted run resumes)
# Reads the data from $SIMDOC_DATA (default: ../shared/data beside the repo). About 10-25 s per
# model build on 2 cores, well under a second per evaluation.
set -euo pipefail
cd "$(dirname "$0")/.."
data="${SIMDOC_DATA:-../shared/data}"
corpus="$data/reference/enwiki-2015/text"
pairs="$data/pairs"
work="${1:-/tmp/simdoc-select}"
for need in "$corpus" "$pairs/msrp" "$pairs/pan10"; do
    if [ ! -e "$need" ]; then
        echo "missing $need (set SIMDOC_DATA)" >&2
        exit 1
    fi
done
mkdir -p "$work/models" "$work/json"
cargo build --release --no-default-features --quiet
simdoc=target/release/simdoc

units="${UNITS:-paragraph document}"
floors="${FLOORS:-0.01 0.02 0.05 0.1}"
per_terms="${PER_TERMS:-16 32 64 128}"
min_dfs="${MIN_DFS:-3 10}"

for unit in $units; do
    for floor in $floors; do
        for per_term in $per_terms; do
            for min_df in $min_dfs; do
                name="$unit-floor$floor-per$per_term-mindf$min_df"
                model="$work/models/$name.simdoc-model"
                if [ ! -s "$model" ]; then
                    echo "building $name" >&2
                    "$simdoc" model build "$corpus" --quiet --unit "$unit" --floor "$floor" \
                        --per-term "$per_term" --min-df "$min_df" -o "$model.tmp"
                    mv "$model.tmp" "$model"
                fi
                "$simdoc" eval pairs --format msrp "$pairs/msrp" --split train --model "$model" \
                    --sweep --quiet --json "$work/json/$name.msrp-train.json" \
                    --scores "$work/json/$name.msrp-train.csv"
                "$simdoc" eval pairs --format pan "$pairs/pan10" --split tune --model "$model" \
                    --sweep --quiet --json "$work/json/$name.pan-tune.json" \
                    --scores "$work/json/$name.pan-tune.csv"
            done
        done
    done
done

python3 scripts/select_defaults.py "$work"

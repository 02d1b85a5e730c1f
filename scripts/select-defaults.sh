#!/usr/bin/env bash
# Chooses the measured matching preset (refining, rules, thresholds) and whether the reference
# model's word relatedness comes from eq. 3.1 co-occurrence or from word vectors, by F1 on the
# training data only: MSRP train and the tuning part of PAN train (`tune`: every pair but each
# fifth; the fifth pairs, `holdout`, are never looked at here).
#
# Every configuration in the factorial grid below is evaluated with `simdoc eval pairs --sweep`
# (permission 0.05..1 by 0.025, variation 0..0.5 by 0.025 and off) and its `--scores`, and timed
# on one real document comparison (two enwiki documents of 5,000 sentences, written by
# `examples/bench_compare.rs --write`). `scripts/select_defaults.py` then picks, by the
# one-standard-error rule, the cheapest configuration whose mean F1 over the two sets at one
# common (permission, variation) is within a bootstrap standard error of the best (see its
# docstring), and prints the tables of EVALUATION.md ("Word relatedness", "Operating point").
#
# Usage: scripts/select-defaults.sh [WORK_DIR]   (default /tmp/simdoc-select; models and results
#        are kept there and reused on a second run, so an interrupted run resumes)
# Reads the data from $SIMDOC_DATA (default: ../shared/data beside the repo). About 40 minutes on
# the 2-core machine, most of it the slowest configurations' document comparisons.
set -euo pipefail
cd "$(dirname "$0")/.."
data="${SIMDOC_DATA:-../shared/data}"
export SIMDOC_DATA="$data"
corpus="$data/reference/enwiki-2015/text"
pairs="$data/pairs"
work="${1:-/tmp/simdoc-select}"
for need in "$corpus" "$pairs/msrp" "$pairs/pan10"; do
    if [ ! -e "$need" ]; then
        echo "missing $need (set SIMDOC_DATA)" >&2
        exit 1
    fi
done
mkdir -p "$work/models" "$work/json" "$work/docs"
cargo build --release --no-default-features --quiet --bin simdoc --example bench_compare
# A copy of the binary, so that a build during the run cannot change what is measured.
cp target/release/simdoc "$work/simdoc"
simdoc="$work/simdoc"
if [ ! -s "$work/docs/b.txt" ]; then
    target/release/examples/bench_compare --write "$work/docs" >"$work/docs/write.log"
fi

# The reference models: the embedded one (eq. 3.1 co-occurrence, paragraph units) and word
# vectors built from the same corpus with the default vector parameters.
models=(embedded vectors)
if [ ! -s "$work/models/vectors.simdoc-model" ]; then
    echo "building the word-vector model" >&2
    "$simdoc" model build "$corpus" --quiet --relatedness vectors -o "$work/models/vectors.tmp"
    mv "$work/models/vectors.tmp" "$work/models/vectors.simdoc-model"
fi

for model in "${models[@]}"; do
    model_args=()
    [ "$model" != embedded ] && model_args=(--model "$work/models/$model.simdoc-model")
    for relate in all aligned; do
        for stop in false true; do
            for numbers in false true; do
                for min_terms in 0 3; do
                    name="$model-$relate-stop$stop-num$numbers-min$min_terms"
                    args=("${model_args[@]}" --relate "$relate" --keep-stopwords "$stop"
                        --keep-numbers "$numbers" --min-terms "$min_terms")
                    for set in "msrp msrp train" "pan pan10 tune"; do
                        read -r format folder split <<<"$set"
                        out="$work/json/$name.$format-$split"
                        if [ ! -s "$out.json" ]; then
                            "$simdoc" eval pairs --format "$format" "$pairs/$folder" \
                                --split "$split" --method fuzzy --sweep --quiet --preset measured \
                                --json "$out.json" --scores "$out.csv" "${args[@]}"
                        fi
                    done
                    if [ ! -s "$work/json/$name.time" ]; then
                        # Seconds for one comparison at permission 0.4 (near every configuration's
                        # optimum), the floor it scores down to.
                        start=$(date +%s.%N)
                        "$simdoc" compare "$work/docs/a.txt" "$work/docs/b.txt" --quiet \
                            --permission 0.4 --variation 1 "${args[@]}"
                        end=$(date +%s.%N)
                        python3 -c "print(round($end - $start, 2))" >"$work/json/$name.time"
                    fi
                done
            done
        done
    done
done

python3 scripts/select_defaults.py "$work"

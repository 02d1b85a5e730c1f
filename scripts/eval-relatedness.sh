#!/usr/bin/env bash
# Does the reference model's word relatedness help the fuzzy-set matcher? For each kind of
# relatedness (thesis eq. 3.1 co-occurrence over paragraphs or documents; word vectors) and each
# place it may count (`--relate all`, the thesis's eq. 3.2; `aligned`, only a word that replaces
# another), the fuzzy matcher against the overlap method (the same Sim with every correlation
# taken as 0), each at its own best thresholds on the training data (MSRP train, PAN tune), with
# ROC AUC of min(Sim). Prints the table of EVALUATION.md, "Word relatedness".
#
# Usage: scripts/eval-relatedness.sh [WORK_DIR] [-- extra simdoc flags, e.g. --keep-stopwords true]
#        (default /tmp/simdoc-relatedness; models are kept there and reused)
# Reads the data from $SIMDOC_DATA (default: ../shared/data). About 10 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
data="${SIMDOC_DATA:-../shared/data}"
corpus="$data/reference/enwiki-2015/text"
pairs="$data/pairs"
work="/tmp/simdoc-relatedness"
if [ $# -gt 0 ] && [ "$1" != "--" ]; then work="$1"; shift; fi
[ "${1:-}" = "--" ] && shift
extra=("$@")
mkdir -p "$work"
cargo build --release --no-default-features --quiet --bin simdoc
simdoc=target/release/simdoc
build() {
    local name=$1; shift
    if [ ! -s "$work/$name.simdoc-model" ]; then
        echo "building $name" >&2
        "$simdoc" model build "$corpus" --quiet "$@" -o "$work/$name.tmp"
        mv "$work/$name.tmp" "$work/$name.simdoc-model"
    fi
}
build cooccurrence-document --relatedness cooccurrence --unit document
build vectors --relatedness vectors
for model in embedded cooccurrence-document vectors; do
    margs=()
    [ "$model" != embedded ] && margs=(--model "$work/$model.simdoc-model")
    for relate in all aligned; do
        for set in "msrp msrp train" "pan pan10 tune"; do
            read -r format folder split <<<"$set"
            "$simdoc" eval pairs --format "$format" "$pairs/$folder" --split "$split" --preset measured \
                --method all --sweep --quiet --json "$work/$model-$relate.$format.json" \
                --relate "$relate" "${margs[@]}" "${extra[@]}"
        done
    done
done
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
names = {"embedded": "co-occurrence, paragraphs (embedded)", "cooccurrence-document": "co-occurrence, documents (the thesis's unit)", "vectors": "word vectors (PPMI + SVD)"}
print("| relatedness | relate | MSRP fuzzy F1 | MSRP overlap F1 | MSRP AUC fuzzy / overlap | PAN fuzzy F1 | PAN overlap F1 | PAN AUC fuzzy / overlap |")
print("|---|---|---|---|---|---|---|---|")
for model in names:
    for relate in ("all", "aligned"):
        cells = []
        for s in ("msrp", "pan"):
            r = json.load(open(f"{work}/{model}-{relate}.{s}.json"))
            res = {m["method"]: m for m in r["results"]}
            f, o = r["sweep"]["best_f1"]["f1"], r["overlap_sweep"]["best_f1"]["f1"]
            cells += [f"{f:.3f}", f"{o:.3f}", f"{res['fuzzy']['auc']:.3f} / {res['overlap']['auc']:.3f}"]
        print(f"| {names[model]} | {relate} | " + " | ".join(cells) + " |")
PY

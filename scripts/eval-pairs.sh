#!/usr/bin/env bash
# Evaluates the sentence matchers on every sentence-pair data set and split in the shared data
# and prints one Markdown table (the "Sentence matching" tables of EVALUATION.md).
#
# Usage: scripts/eval-pairs.sh [any `simdoc eval pairs` matching flags: --preset thesis, --model FILE,
#        --permission X, --variation Y, --keep-stopwords BOOL, ...]
#        (defaults: the embedded model and the default for sentence pairs, the verdict preset;
#        `--preset measured` gives the table "Results at the measured preset")
# Reads the data from $SIMDOC_DATA (default: ../shared/data beside the repo). Writes the JSON
# reports to $EVAL_OUT (default: a temporary folder, removed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
data="${SIMDOC_DATA:-../shared/data}"
pairs="$data/pairs"
cargo build --release --no-default-features --quiet
simdoc=target/release/simdoc
args=("$@")
out="${EVAL_OUT:-}"
if [ -z "$out" ]; then
    out="$(mktemp -d)"
    trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
for spec in "msrp msrp train" "pan pan10 tune" "pan pan10 holdout" "stsb stsb train" \
    "stsb stsb dev" "wikisplit wikisplit tune" "wikisplit wikisplit validation"; do
    set -- $spec
    "$simdoc" eval pairs --format "$1" "$pairs/$2" --split "$3" --quiet \
        --json "$out/$1-$3.json" "${args[@]}"
done
python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
order = ["msrp-train", "pan-tune", "pan-holdout", "stsb-train", "stsb-dev", "wikisplit-tune", "wikisplit-validation"]
print("| data set | split | pairs (+/-) | method | precision | recall | F1 | FP rate | FN rate | thesis F | ROC AUC | Pearson | Spearman |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
def f(x):
    return "" if x is None else f"{x:.3f}"
for name in order:
    with open(os.path.join(out, name + ".json")) as fh:
        r = json.load(fh)
    for m in r["results"]:
        graded = m["method"] in ("fuzzy", "overlap")
        print(f"| {r['dataset']} | {r['split']} | {r['positives']}/{r['negatives']} | {m['method']} "
              f"| {f(m['precision'])} | {f(m['recall'])} | {f(m['f1'])} | {f(m['fp_rate'])} "
              f"| {f(m['fn_rate'])} | {f(m['thesis_f'])} | {f(m.get('auc')) if graded else ''} "
              f"| {f(m.get('pearson'))} | {f(m.get('spearman'))} |")
    if r.get("halves"):
        h = r["halves"]
        print(f"| {r['dataset']} | {r['split']} | halves: {h['pairs']} | fuzzy, each half against its original "
              f"| | | | | | | contained {h['contained']:.3f}, min Sim >= permission {h['permission_only']:.3f}, EQ {h['eq']:.3f} | | |")
    if r.get("one_to_two"):
        j = r["one_to_two"]
        print(f"| {r['dataset']} | {r['split']} | originals: {j['rows']} | fuzzy, each original against its two halves as two sentences "
              f"| | | | | | | one-to-two {j['one_to_two']:.3f}, one half only {j['one_to_one']:.3f}, unmatched {j['unmatched']:.3f} | | |")
PY

#!/usr/bin/env bash
# WordNet relatedness and the learned pair verdict, each switched on and off (EVALUATION.md,
# "WordNet relatedness" and "A learned pair verdict"): what each configuration scores on MSRP
# train, PAN tune, PAN holdout and STS-B train/dev.
#
# Configurations (all with the measured preset's refinement: stopwords and numbers kept):
#   overlap                      no relatedness (`--method overlap`)
#   co-occurrence, all / aligned the embedded model's eq. 3.1 correlations (the measured preset)
#   WordNet, all / aligned       WordNet's relations at the chosen weights (aligned: the wordnet preset)
#   verdict                      the learned verdict (the verdict preset)
#   verdict without WordNet      the same regression trained with every WordNet weight 0
# Each relatedness configuration's (permission, variation) is its best mean F1 over MSRP train
# and PAN tune at one point of the sweep grid; PAN holdout and STS-B are scored there. A
# verdict's threshold is the one its training chose; its MSRP train and PAN tune figures are
# the training command's 10-fold cross-validated ones (it was trained on them).
#
# Usage: scripts/eval-wordnet.sh [WORK_DIR]   (default /tmp/simdoc-eval-wordnet)
# Reads the data from $SIMDOC_DATA (default: ../shared/data) and WordNet from $WORDNET_DIR
# (default /usr/share/wordnet, Debian's wordnet-base). About 5 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
data="${SIMDOC_DATA:-../shared/data}"
pairs="$data/pairs"
wordnet="${WORDNET_DIR:-/usr/share/wordnet}"
work="${1:-/tmp/simdoc-eval-wordnet}"
mkdir -p "$work/json"
cargo build --release --no-default-features --quiet --bin simdoc
cp target/release/simdoc "$work/simdoc"
simdoc="$work/simdoc"

# The verdicts: the embedded model's WordNet relations without its verdict, trained again with
# the default weights (the embedded verdict, for its cross-validated report) and with none.
"$simdoc" model build --from embedded --wordnet "$wordnet" --quiet -o "$work/wordnet.simdoc-model"
"$simdoc" model train-verdict --model "$work/wordnet.simdoc-model" --msrp "$pairs/msrp" \
    --pan "$pairs/pan10" -o "$work/verdict.simdoc-model" --report "$work/verdict.json" --quiet
"$simdoc" model train-verdict --model "$work/wordnet.simdoc-model" --msrp "$pairs/msrp" \
    --pan "$pairs/pan10" --wordnet-weights 0,0,0 -o "$work/verdict-without.simdoc-model" \
    --report "$work/verdict-without.json" --quiet

sets=("msrp msrp train" "pan pan10 tune" "pan pan10 holdout" "stsb stsb train" "stsb stsb dev")
configs=(
    "overlap|--method overlap"
    "cooccurrence-all|--related-words correlations --relate all"
    "cooccurrence-aligned|--related-words correlations --relate aligned"
    "wordnet-all|--related-words wordnet --relate all"
    "wordnet-aligned|--preset wordnet"
)
for config in "${configs[@]}"; do
    name="${config%%|*}"
    read -r -a args <<<"${config#*|}"
    [ "${args[0]}" = "--method" ] || args=(--method fuzzy "${args[@]}")
    # On the measured preset unless the configuration names one (the verdict is the default).
    [[ " ${args[*]} " == *" --preset "* ]] || args=(--preset measured "${args[@]}")
    # Thresholds from the training sets.
    for set in "${sets[@]:0:2}"; do
        read -r format folder split <<<"$set"
        out="$work/json/$name.sweep.$format-$split.json"
        [ -s "$out" ] || "$simdoc" eval pairs --format "$format" "$pairs/$folder" --split "$split" \
            --sweep --quiet --json "$out" "${args[@]}"
    done
    read -r permission variation < <(python3 - "$work/json/$name" <<'PY'
import json, sys
base = sys.argv[1]
reports = [json.load(open(f"{base}.sweep.{s}.json")) for s in ("msrp-train", "pan-tune")]
key = "overlap_sweep" if reports[0]["results"][0]["method"] == "overlap" and reports[0].get("overlap_sweep") else "sweep"
grids = [{(p["permission"], p["variation"]): p["f1"] for p in r[key]["grid"]} for r in reports]
best = max(grids[0], key=lambda k: (sum(g[k] for g in grids), -k[0]))
print(*best)
PY
)
    for set in "${sets[@]}"; do
        read -r format folder split <<<"$set"
        "$simdoc" eval pairs --format "$format" "$pairs/$folder" --split "$split" --quiet \
            --bands --json "$work/json/$name.$format-$split.json" "${args[@]}" \
            --permission "$permission" --variation "$variation"
    done
done
for verdict in verdict verdict-without; do
    threshold=$(python3 -c "import json; print(json.load(open('$work/$verdict.json'))['threshold'])")
    for set in "${sets[@]}"; do
        read -r format folder split <<<"$set"
        "$simdoc" eval pairs --format "$format" "$pairs/$folder" --split "$split" --quiet \
            --bands --json "$work/json/$verdict.$format-$split.json" --method fuzzy \
            --preset verdict --model "$work/$verdict.simdoc-model" --permission "$threshold"
    done
done
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
names = {
    "overlap": "overlap (no relatedness)",
    "cooccurrence-all": "co-occurrence (eq. 3.1), anywhere (the measured preset's)",
    "cooccurrence-aligned": "co-occurrence (eq. 3.1), where replaced",
    "wordnet-all": "WordNet, anywhere",
    "wordnet-aligned": "WordNet, where replaced (the wordnet preset)",
    "verdict": "learned verdict (the verdict preset)",
    "verdict-without": "learned verdict, WordNet weights 0",
}
sets = ["msrp-train", "pan-tune", "pan-holdout", "stsb-train", "stsb-dev"]
print("| configuration | at | MSRP train F1 / AUC | PAN tune F1 / AUC | PAN holdout F1 / AUC | STS-B train F1 / AUC / Spearman | STS-B dev F1 / AUC / Spearman |")
print("|---|---|---|---|---|---|---|")
for name, title in names.items():
    cells = []
    cv = None
    if name.startswith("verdict"):
        cv = {f["name"].replace(" ", "-"): f for f in json.load(open(f"{work}/{name}.json"))["cross_validated"]}
    at = None
    for s in sets:
        r = json.load(open(f"{work}/json/{name}.{s}.json"))
        m = r["results"][0]
        t = m.get("thresholds") or {}
        at = at or (f"{t['permission']:g}" + ("" if name.startswith("verdict") else f" / {'off' if t['variation'] >= 1 else t['variation']}"))
        if cv and s in cv:
            f1, auc, mark = cv[s]["f1"], cv[s]["auc"], " (CV)"
        else:
            f1, auc, mark = m["f1"], m["auc"], ""
        cell = f"{f1:.3f} / {auc:.3f}{mark}"
        if s.startswith("stsb"):
            cell += f" / {m['spearman']:.3f}"
        cells.append(cell)
    print(f"| {title} | {at} | " + " | ".join(cells) + " |")
print()
print("Within quartiles of pair length, PAN holdout (ROC AUC of the configuration's score; overlap's beside it):")
print()
print("| configuration | " + " | ".join(f"{b['from']:g}-{b['to']:g} terms ({b['pairs']} pairs, {b['positive_share']:.2f} positive)" for b in json.load(open(f"{work}/json/overlap.pan-holdout.json"))["bands"]["bands"]) + " |")
print("|---|---|---|---|---|")
for name in ("cooccurrence-all", "wordnet-aligned", "verdict"):
    bands = json.load(open(f"{work}/json/{name}.pan-holdout.json"))["bands"]["bands"]
    print(f"| {names[name]} | " + " | ".join(f"{b['auc']:.3f} (overlap {b['overlap_auc']:.3f}), F1 {b['f1']:.3f}" for b in bands) + " |")
print()
print("Calibration of the verdict on PAN holdout (probability bin: pairs, mean probability, share positive):")
print()
print("| bin | pairs | mean probability | positive share |")
print("|---|---|---|---|")
for c in json.load(open(f"{work}/json/verdict.pan-holdout.json"))["bands"]["calibration"]:
    print(f"| {c['from']:.1f}-{c['to']:.1f} | {c['pairs']} | {c['mean_probability']:.3f} | {c['positive_share']:.3f} |")
PY

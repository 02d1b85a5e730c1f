#!/usr/bin/env python3
"""Picks the reference model and fuzzy thresholds from the sweeps of scripts/select-defaults.sh.

Reads WORK/json/<model>.<set>.json (`simdoc eval pairs --sweep --json`) and <model>.<set>.csv
(`--scores`) for the sets msrp-train and pan-tune, and WORK/models/<model>.simdoc-model for the
file sizes.

Criterion: the thesis's F, the harmonic mean of 1 - FP rate and 1 - FN rate (thesis Table 4.8,
which calls them precision and recall). It weighs both kinds of error equally whatever the share
of positive pairs (68% in MSRP, 50% in PAN, a tiny share among the sentence pairs of a document
comparison), as the thesis's own "balance point" choice of 0.825 / 0.15 does (3.2.2, Fig. 3.2).

1. Each model's score is its best mean thesis F over the two sets at one (permission, variation)
   of the sweep grid (0.5..1 x 0..0.5, steps of 0.025).
2. The noise of that score is estimated by a bootstrap over pairs (200 resamples of each set, a
   fixed seed) for the best-scoring model at its best thresholds.
3. The "one-standard-error rule" (Breiman, Friedman, Olshen & Stone, Classification and
   Regression Trees, 1984, section 3.4.3): among the models whose score is within one standard
   error of the best and whose file fits the embedded-model budget (12 MiB, the limit the test
   `the_embedded_model_decodes` asserts), take the simplest, here the smallest file; ties go to
   the higher score. Its own best grid point gives the thresholds.

Prints Markdown tables and writes WORK/chosen.txt: `model permission variation`.

Usage: python3 scripts/select_defaults.py WORK
"""

import csv
import json
import os
import random
import sys

BUDGET = 12 * 1024 * 1024
SETS = ("msrp-train", "pan-tune")
THESIS = (0.825, 0.15)
RESAMPLES = 200
SEED = 2005


def load(work):
    models = {}
    json_dir = os.path.join(work, "json")
    for name in sorted(os.listdir(json_dir)):
        for s in SETS:
            suffix = f".{s}.json"
            if name.endswith(suffix):
                with open(os.path.join(json_dir, name)) as f:
                    models.setdefault(name[: -len(suffix)], {})[s] = json.load(f)
    return {m: r for m, r in models.items() if all(s in r for s in SETS)}


def grid(report):
    return {(p["permission"], p["variation"]): p for p in report["sweep"]["grid"]}


def fuzzy(report):
    return next(r for r in report["results"] if r["method"] == "fuzzy")


def mean(xs):
    return sum(xs) / len(xs)


def summarise(name, reports, work):
    grids = [grid(reports[s]) for s in SETS]
    keys = sorted(set(grids[0]) & set(grids[1]))

    def mean_of(key, measure):
        return mean([g[key][measure] for g in grids])

    # Best mean thesis F; ties: higher permission, then lower variation (stricter).
    best = max(keys, key=lambda k: (mean_of(k, "thesis_f"), k[0], -k[1]))
    best_f1 = max(keys, key=lambda k: (mean_of(k, "f1"), k[0], -k[1]))
    thesis_key = min(keys, key=lambda k: abs(k[0] - THESIS[0]) + abs(k[1] - THESIS[1]))
    path = os.path.join(work, "models", name + ".simdoc-model")
    return {
        "name": name,
        "path": path,
        "size": os.path.getsize(path) if os.path.exists(path) else 0,
        "auc": [fuzzy(reports[s]).get("auc") or 0.0 for s in SETS],
        "best": best,
        "score": mean_of(best, "thesis_f"),
        "best_thesis_f": [g[best]["thesis_f"] for g in grids],
        "best_rates": [(g[best]["fp_rate"], g[best]["fn_rate"]) for g in grids],
        "best_f1_at_best": [g[best]["f1"] for g in grids],
        "best_f1": best_f1,
        "best_f1_values": [g[best_f1]["f1"] for g in grids],
        "at_thesis": [g[thesis_key]["thesis_f"] for g in grids],
        "at_thesis_f1": [g[thesis_key]["f1"] for g in grids],
    }


def read_scores(path):
    with open(path, newline="") as f:
        return [
            (r["label"] == "1", float(r["sim_lr"]), float(r["sim_rl"]))
            for r in csv.DictReader(f)
        ]


def thesis_f(rows, permission, variation):
    tp = fp = tn = fn = 0
    for positive, a, b in rows:
        decided = min(a, b) >= permission and abs(a - b) <= variation
        if positive:
            tp, fn = (tp + 1, fn) if decided else (tp, fn + 1)
        else:
            fp, tn = (fp + 1, tn) if decided else (fp, tn + 1)
    tpr = tp / (tp + fn) if tp + fn else 0.0
    tnr = tn / (tn + fp) if tn + fp else 0.0
    return 2 * tpr * tnr / (tpr + tnr) if tpr + tnr else 0.0


def bootstrap_se(work, row):
    """Standard error of a model's mean thesis F at its best thresholds, over pairs."""
    sets = [read_scores(os.path.join(work, "json", f"{row['name']}.{s}.csv")) for s in SETS]
    rng = random.Random(SEED)
    permission, variation = row["best"]
    values = []
    for _ in range(RESAMPLES):
        resampled = [[rng.choice(rows) for _ in rows] for rows in sets]
        values.append(mean([thesis_f(r, permission, variation) for r in resampled]))
    m = mean(values)
    return (sum((v - m) ** 2 for v in values) / (len(values) - 1)) ** 0.5


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    work = sys.argv[1]
    reports = load(work)
    if not reports:
        sys.exit(f"no complete sweeps under {work}/json")
    rows = [summarise(n, r, work) for n, r in reports.items()]
    rows.sort(key=lambda r: (-r["score"], r["size"]))
    best = rows[0]
    se = bootstrap_se(work, best)

    print(
        "| model | MB | ROC AUC MSRP | ROC AUC PAN | best permission / variation | thesis F MSRP "
        "| thesis F PAN | mean | F1 MSRP | F1 PAN | mean thesis F at 0.825 / 0.15 |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['name']} | {r['size'] / 1e6:.1f} | {r['auc'][0]:.3f} | {r['auc'][1]:.3f} "
            f"| {r['best'][0]} / {r['best'][1]} | {r['best_thesis_f'][0]:.3f} "
            f"| {r['best_thesis_f'][1]:.3f} | {r['score']:.4f} | {r['best_f1_at_best'][0]:.3f} "
            f"| {r['best_f1_at_best'][1]:.3f} | {mean(r['at_thesis']):.3f} |"
        )
    print()
    print(
        f"best: {best['name']}, mean thesis F {best['score']:.4f}; bootstrap standard error "
        f"{se:.4f} ({RESAMPLES} resamples); within one SE: mean thesis F >= {best['score'] - se:.4f}"
    )
    within = [
        r for r in rows if r["score"] >= best["score"] - se and 0 < r["size"] <= BUDGET
    ]
    if not within:
        sys.exit("no model within one standard error fits the embedded-model budget")
    chosen = min(within, key=lambda r: (r["size"], -r["score"]))
    print(f"{len(within)} models within one SE and the {BUDGET}-byte budget; the smallest:")
    print(
        f"chosen: {chosen['name']} ({chosen['size']} bytes), permission {chosen['best'][0]}, "
        f"variation {chosen['best'][1]}: thesis F {chosen['best_thesis_f'][0]:.3f} (MSRP train) / "
        f"{chosen['best_thesis_f'][1]:.3f} (PAN tune); FP/FN rates "
        f"{chosen['best_rates'][0][0]:.3f}/{chosen['best_rates'][0][1]:.3f} and "
        f"{chosen['best_rates'][1][0]:.3f}/{chosen['best_rates'][1][1]:.3f}; F1 "
        f"{chosen['best_f1_at_best'][0]:.3f} / {chosen['best_f1_at_best'][1]:.3f}"
    )
    print(
        f"  at the thesis's 0.825 / 0.15 the same model gives thesis F {chosen['at_thesis'][0]:.3f} / "
        f"{chosen['at_thesis'][1]:.3f}, F1 {chosen['at_thesis_f1'][0]:.3f} / {chosen['at_thesis_f1'][1]:.3f}"
    )
    print(
        f"  (the best mean F1 instead would be at permission {chosen['best_f1'][0]}, variation "
        f"{chosen['best_f1'][1]}: F1 {chosen['best_f1_values'][0]:.3f} / {chosen['best_f1_values'][1]:.3f})"
    )
    with open(os.path.join(work, "chosen.txt"), "w") as f:
        f.write(f"{chosen['path']} {chosen['best'][0]} {chosen['best'][1]}\n")


if __name__ == "__main__":
    main()

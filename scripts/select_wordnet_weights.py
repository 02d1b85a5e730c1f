#!/usr/bin/env python3
"""Picks the weights of WordNet's relations and the wordnet preset's thresholds from the runs of
scripts/select-wordnet-weights.sh.

Reads WORK/json/S,D,H.msrp.json and S,D,H.pan.json (`simdoc eval pairs --method fuzzy --sweep
--json`, MSRP train and PAN tune) for every grid point, and overlap.msrp.json / overlap.pan.json.

1. Weights: the best mean ROC AUC of min(Sim) over the two sets (ties: the higher mean F1 of
   rule 2, then the smaller weights).
2. Thresholds: for the chosen weights, the (permission, variation) of the sweep grid with the
   best mean F1 over the two sets at one common point.

Prints Markdown tables (the best 15 grid points, the best point of each synonym weight, the
overlap baseline) and the choice.

With --floors: reads WORK/json/floor-F.{msrp,pan}.json and .csv (`--scores`) and floor-F.time
(user CPU seconds of one comparison) for each content floor F, and picks the floor by the
one-standard-error rule (Breiman et al. 1984), as scripts/select_defaults.py does: the best mean
F1 at one common (permission, variation); its bootstrap standard error (200 resamples of each
set's pairs, seed 2005) at the best floor's best point; among the floors within one standard
error, the cheapest.

Usage: python3 scripts/select_wordnet_weights.py WORK [--floors]
"""

import json
import os
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def common_best(reports, sweep_key="sweep"):
    """The (mean F1, permission, variation, per-set F1) of the best common grid point."""
    grids = [{(p["permission"], p["variation"]): p for p in r[sweep_key]["grid"]} for r in reports]
    best = None
    for key in grids[0]:
        f1s = [g[key]["f1"] for g in grids]
        mean = sum(f1s) / len(f1s)
        if best is None or mean > best[0] + 1e-12:
            best = (mean, key[0], key[1], f1s)
    return best


def main(work):
    d = os.path.join(work, "json")
    rows = []
    for name in os.listdir(d):
        if not name.endswith(".msrp.json") or name.startswith("overlap"):
            continue
        weights = name[: -len(".msrp.json")]
        pan = os.path.join(d, weights + ".pan.json")
        if not os.path.exists(pan):
            continue
        reports = [load(os.path.join(d, name)), load(pan)]
        aucs = [r["results"][0]["auc"] for r in reports]
        mean_f1, permission, variation, f1s = common_best(reports)
        s, dd, h = (float(x) for x in weights.split(","))
        rows.append(
            {
                "weights": (s, dd, h),
                "auc": aucs,
                "mean_auc": sum(aucs) / 2,
                "mean_f1": mean_f1,
                "at": (permission, variation),
                "f1": f1s,
            }
        )
    rows.sort(key=lambda r: (-r["mean_auc"], -r["mean_f1"], sum(r["weights"])))
    overlap = [load(os.path.join(d, f"overlap.{s}.json")) for s in ("msrp", "pan")]
    o_auc = [r["results"][0]["auc"] for r in overlap]
    o_best = common_best(overlap, "overlap_sweep")

    def fmt_at(at):
        p, v = at
        return f"({p:g}, {'off' if v >= 1 else f'{v:g}'})"

    head = ("| synonym | derived | hypernym | mean ROC AUC | AUC MSRP / PAN | mean F1 | at (permission, "
            "variation) | F1 MSRP / PAN |")
    sep = "|---|---|---|---|---|---|---|---|"

    def line(r, mark=""):
        s, dd, h = r["weights"]
        return (f"| {s:g} | {dd:g} | {h:g} | {r['mean_auc']:.4f}{mark} | {r['auc'][0]:.3f} / {r['auc'][1]:.3f} "
                f"| {r['mean_f1']:.4f} | {fmt_at(r['at'])} | {r['f1'][0]:.3f} / {r['f1'][1]:.3f} |")

    print(f"{len(rows)} grid points; the best 15 by mean ROC AUC:\n")
    print(head)
    print(sep)
    for i, r in enumerate(rows[:15]):
        print(line(r, " **chosen**" if i == 0 else ""))
    print("\nThe best point for each synonym weight, and selected others:\n")
    print(head)
    print(sep)
    for s in sorted({r["weights"][0] for r in rows}):
        best = next(r for r in rows if r["weights"][0] == s)
        print(line(best))
    for w in [(1.0, 0.8, 0.5), (0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.0, 1.0, 1.0)]:
        for r in rows:
            if r["weights"] == w:
                print(line(r))
    print(
        f"| overlap (no relatedness) | | | {sum(o_auc) / 2:.4f} | {o_auc[0]:.3f} / {o_auc[1]:.3f} "
        f"| {o_best[0]:.4f} | {fmt_at((o_best[1], o_best[2]))} | {o_best[3][0]:.3f} / {o_best[3][1]:.3f} |"
    )
    c = rows[0]
    print(
        f"\nchosen: weights {c['weights'][0]:g},{c['weights'][1]:g},{c['weights'][2]:g}; "
        f"permission {c['at'][0]:g} variation {c['at'][1]:g}"
    )


def bootstrap_se(csvs, permission, variation, resamples=200, seed=2005):
    """Standard error of the mean F1 over the sets at one point, over resampled pairs."""
    import csv
    import random

    rng = random.Random(seed)
    sets = []
    for path in csvs:
        with open(path) as f:
            rows = list(csv.DictReader(f))
        sets.append([
            (r["label"] == "1",
             r["may_match"] == "1" and float(r["min_sim"]) >= permission
             and abs(float(r["sim_lr"]) - float(r["sim_rl"])) <= variation)
            for r in rows
        ])

    def f1(pairs):
        tp = sum(1 for y, d in pairs if y and d)
        fp = sum(1 for y, d in pairs if not y and d)
        fn = sum(1 for y, d in pairs if y and not d)
        return 0.0 if tp == 0 else 2 * tp / (2 * tp + fp + fn)

    means = []
    for _ in range(resamples):
        means.append(sum(f1([s[rng.randrange(len(s))] for _ in range(len(s))]) for s in sets) / len(sets))
    mean = sum(means) / len(means)
    return (sum((m - mean) ** 2 for m in means) / (len(means) - 1)) ** 0.5


def floors(work):
    d = os.path.join(work, "json")
    rows = []
    for name in sorted(os.listdir(d)):
        if not (name.startswith("floor-") and name.endswith(".msrp.json")):
            continue
        floor = name[len("floor-"): -len(".msrp.json")]
        reports = [load(os.path.join(d, f"floor-{floor}.{s}.json")) for s in ("msrp", "pan")]
        mean_f1, permission, variation, f1s = common_best(reports)
        with open(os.path.join(d, f"floor-{floor}.time")) as f:
            seconds = float(f.read().split()[-1])
        aucs = [r["results"][0]["auc"] for r in reports]
        rows.append((float(floor), mean_f1, permission, variation, f1s, aucs, seconds))
    rows.sort(key=lambda r: -r[1])
    best = rows[0]
    se = bootstrap_se([os.path.join(d, f"floor-{best[0]:g}.{s}.csv") for s in ("msrp", "pan")], best[2], best[3])
    within = [r for r in rows if r[1] >= best[1] - se]
    chosen = min(within, key=lambda r: (r[6], -r[1]))
    print("| content floor | mean F1 | at (permission, variation) | F1 MSRP / PAN | ROC AUC MSRP / PAN | compare (user s) |")
    print("|---|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: r[0]):
        mark = " **chosen**" if r is chosen else (" (within 1 SE)" if r in within else "")
        v = "off" if r[3] >= 1 else f"{r[3]:g}"
        print(f"| {r[0]:g} | {r[1]:.4f}{mark} | ({r[2]:g}, {v}) | {r[4][0]:.3f} / {r[4][1]:.3f} "
              f"| {r[5][0]:.3f} / {r[5][1]:.3f} | {r[6]:.2f} |")
    print(f"\nbest mean F1 {best[1]:.4f} (content floor {best[0]:g}), bootstrap standard error {se:.4f}; "
          f"chosen: content floor {chosen[0]:g}, permission {chosen[2]:g}, variation {chosen[3]:g}")


if __name__ == "__main__":
    if "--floors" in sys.argv[2:]:
        floors(sys.argv[1])
    else:
        main(sys.argv[1])

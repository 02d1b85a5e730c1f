#!/usr/bin/env python3
"""Picks the measured matching preset from the runs of scripts/select-defaults.sh.

Reads WORK/json/<config>.<set>.json (`simdoc eval pairs --sweep --json`), <config>.<set>.csv
(`--scores`) and <config>.time (seconds of one document comparison) for the sets msrp-train and
pan-tune. A configuration is named model-relate-stopS-numN-minM.

Criterion: F1 (the task is a yes/no decision: is this pair the same text reworded?).

1. A configuration's score is its best mean F1 over the two sets at one common (permission,
   variation) of the sweep grid (one default must serve both).
2. The noise of that score is estimated by a bootstrap over pairs (200 resamples of each set, a
   fixed seed) for the best configuration at its best thresholds.
3. The one-standard-error rule (Breiman, Friedman, Olshen & Stone, Classification and Regression
   Trees, 1984, 3.4.3): among the configurations within one standard error of the best, take the
   cheapest, by its measured document-comparison time; ties go to the higher score. Its own best
   grid point gives the thresholds.

Also reports, per configuration, ROC AUC of min(Sim) and each set's own best F1, and for the
relatedness question the fuzzy matcher against the overlap method (same configuration, each at
its own best thresholds).

Prints Markdown tables and writes WORK/chosen.txt.

Usage: python3 scripts/select_defaults.py WORK
"""

import csv
import json
import os
import random
import sys

SETS = ("msrp-train", "pan-tune")
RESAMPLES = 200
SEED = 2005


def load(work):
    configs = {}
    d = os.path.join(work, "json")
    for name in sorted(os.listdir(d)):
        for s in SETS:
            suffix = f".{s}.json"
            if name.endswith(suffix):
                with open(os.path.join(d, name)) as f:
                    configs.setdefault(name[: -len(suffix)], {})[s] = json.load(f)
    out = {}
    for c, r in configs.items():
        t = os.path.join(d, c + ".time")
        if all(s in r for s in SETS) and os.path.exists(t):
            with open(t) as f:
                out[c] = (r, float(f.read().strip()))
    return out


def grid(report):
    return {(p["permission"], p["variation"]): p for p in report["sweep"]["grid"]}


def mean(xs):
    return sum(xs) / len(xs)


def summarise(name, reports, seconds):
    grids = [grid(reports[s]) for s in SETS]
    keys = sorted(set(grids[0]) & set(grids[1]))
    f1 = lambda k: mean([g[k]["f1"] for g in grids])
    best = max(keys, key=lambda k: (f1(k), k[0], -k[1]))
    fuzzy = {s: next(r for r in reports[s]["results"] if r["method"] == "fuzzy") for s in SETS}
    own = {s: reports[s]["sweep"]["best_f1"]["f1"] for s in SETS}
    return {
        "name": name,
        "score": f1(best),
        "thresholds": best,
        "per_set": [grids[i][best]["f1"] for i in range(len(SETS))],
        "own_best": [own[s] for s in SETS],
        "auc": [fuzzy[s]["auc"] for s in SETS],
        "seconds": seconds,
    }


def decisions(path, permission, variation):
    rows = []
    with open(path) as f:
        for row in csv.DictReader(f):
            lr, rl = float(row["sim_lr"]), float(row["sim_rl"])
            ok = row["may_match"] == "1" and min(lr, rl) >= permission and abs(lr - rl) <= variation
            rows.append((row["label"] == "1", ok))
    return rows


def f1_of(rows):
    tp = sum(1 for t, p in rows if t and p)
    fp = sum(1 for t, p in rows if not t and p)
    fn = sum(1 for t, p in rows if t and not p)
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def bootstrap_se(work, name, thresholds):
    rng = random.Random(SEED)
    sets = [decisions(os.path.join(work, "json", f"{name}.{s}.csv"), *thresholds) for s in SETS]
    scores = []
    for _ in range(RESAMPLES):
        scores.append(mean([f1_of([rows[rng.randrange(len(rows))] for _ in rows]) for rows in sets]))
    m = mean(scores)
    return (sum((x - m) ** 2 for x in scores) / (len(scores) - 1)) ** 0.5


def parse(name):
    model, relate, stop, num, minimum = name.split("-")
    return model, relate, stop[4:], num[3:], minimum[3:]


def main():
    work = sys.argv[1]
    configs = load(work)
    if not configs:
        sys.exit(f"no complete runs under {work}/json")
    rows = [summarise(n, r, t) for n, (r, t) in configs.items()]
    rows.sort(key=lambda r: -r["score"])
    top = rows[0]
    se = bootstrap_se(work, top["name"], top["thresholds"])
    within = [r for r in rows if r["score"] >= top["score"] - se]
    chosen = min(within, key=lambda r: (r["seconds"], -r["score"]))

    print("| model | relate | stopwords | numbers | min terms | mean F1 | at (permission, variation) "
          "| F1 MSRP / PAN there | each set's own best F1 | ROC AUC MSRP / PAN | compare s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        model, relate, stop, num, minimum = parse(r["name"])
        p, v = r["thresholds"]
        mark = " **chosen**" if r is chosen else (" (within 1 SE)" if r in within else "")
        print(f"| {model} | {relate} | {stop} | {num} | {minimum} | {r['score']:.3f}{mark} "
              f"| ({p:g}, {'off' if v >= 1 else f'{v:g}'}) "
              f"| {r['per_set'][0]:.3f} / {r['per_set'][1]:.3f} "
              f"| {r['own_best'][0]:.3f} / {r['own_best'][1]:.3f} "
              f"| {r['auc'][0]:.3f} / {r['auc'][1]:.3f} | {r['seconds']:.2f} |")
    print()
    print(f"best mean F1 {top['score']:.3f} ({top['name']}), bootstrap standard error {se:.4f}: "
          f"{len(within)} configurations within one standard error; the cheapest is {chosen['name']}")
    p, v = chosen["thresholds"]
    with open(os.path.join(work, "chosen.txt"), "w") as f:
        f.write(f"{chosen['name']} {p} {v}\n")
    print(f"chosen: {chosen['name']} permission {p} variation {v}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Planted partial reuse in a collection: N enwiki articles (SIMDOC_DATA's enwiki-2015 text,
files wiki_00 onwards, articles of at least 30 lines of text), with PAIRS disjoint pairs of them
where 3-6 consecutive lines of one are copied into the middle of the other. Runs `simdoc
collection` on the folder with each setting given and prints, per setting, the planted pairs
found (recall), the other pairs reported and the pairs per 10,000 that those are, and the time.

    scripts/planted-collection.py [N] [PAIRS] -- SETTING... (each a quoted list of flags)
    scripts/planted-collection.py 500 20 -- "" "--method fuzzy" "--method fuzzy --judge-chance true"

The folder is written under a temporary directory and removed; SIMDOC_BIN names the binary
(default target/release/simdoc). The choice of articles and lines is fixed (seed 7)."""
import json, os, random, re, subprocess, sys, tempfile, time
from pathlib import Path

args = sys.argv[1:]
split = args.index("--") if "--" in args else len(args)
n = int(args[0]) if split > 0 else 500
pairs_wanted = int(args[1]) if split > 1 else 20
settings = args[split + 1:] or ["", "--method fuzzy", "--method fuzzy --judge-chance true"]
data = Path(os.environ["SIMDOC_DATA"])
binary = os.environ.get("SIMDOC_BIN", "target/release/simdoc")

articles = []
for f in sorted((data / "reference/enwiki-2015/text/AA").iterdir()):
    for doc in f.read_text(encoding="utf-8").split("<doc ")[1:]:
        body = doc.split("\n", 1)[1].split("</doc>")[0]
        lines = [l for l in body.split("\n") if len(l.split()) >= 6]
        if len(lines) >= 30:
            articles.append(lines)
        if len(articles) >= n:
            break
    if len(articles) >= n:
        break
assert len(articles) == n, f"only {len(articles)} articles"
rng = random.Random(7)
order = list(range(n))
rng.shuffle(order)
planted = set()
for k in range(pairs_wanted):
    source, target = order[2 * k], order[2 * k + 1]
    length = rng.randint(3, 6)
    start = rng.randint(0, len(articles[source]) - length)
    copied = articles[source][start:start + length]
    middle = len(articles[target]) // 2
    articles[target] = articles[target][:middle] + copied + articles[target][middle:]
    planted.add(frozenset((f"{source:04}.txt", f"{target:04}.txt")))

with tempfile.TemporaryDirectory() as temp:
    folder = Path(temp) / "articles"
    folder.mkdir()
    for i, lines in enumerate(articles):
        (folder / f"{i:04}.txt").write_text("\n\n".join(lines) + "\n", encoding="utf-8")
    total_pairs = n * (n - 1) // 2
    print(f"{n} articles, {pairs_wanted} planted pairs (3-6 lines copied), {total_pairs} pairs in all")
    print("| setting | planted found | recall | other pairs | per 10,000 pairs | seconds |")
    print("|---|---|---|---|---|---|")
    for setting in settings:
        out = Path(temp) / "report.json"
        began = time.time()
        run = subprocess.run([binary, "collection", str(folder), *setting.split(), "--json", str(out),
                              "--evidence", "0", "--show", "0"], capture_output=True, text=True)
        seconds = time.time() - began
        if run.returncode != 0:
            print(f"| `{setting}` | failed: {run.stderr.strip()[:200]} |")
            continue
        report = json.loads(out.read_text(encoding="utf-8"))
        names = [Path(d).name for d in report["documents"]]
        found = {frozenset((names[p["a"]], names[p["b"]])) for p in report["pairs"]}
        hits = len(found & planted)
        others = len(found - planted)
        print(f"| `{setting or '(default)'}` | {hits} of {len(planted)} | {hits / len(planted):.2f} | "
              f"{others} | {10000 * others / total_pairs:.2f} | {seconds:.0f} |")

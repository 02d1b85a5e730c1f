#!/usr/bin/env python3
"""Planted partial reuse in a collection. Runs `simdoc collection` on a folder of N documents
with PAIRS disjoint pairs of them where 3-6 consecutive lines of one are copied into the middle
of the other, with each setting given, and prints per setting the planted pairs found (recall),
the other pairs reported, and the time.

    scripts/planted-collection.py [--background enwiki|mixed] [N] [PAIRS] -- SETTING...
    scripts/planted-collection.py 500 20 -- "" "--method fuzzy" "--method fuzzy --judge-chance true"

Backgrounds (the choice of documents and lines is fixed, seed 7):
- enwiki (default): SIMDOC_DATA's enwiki-2015 articles of at least 30 lines of 6 words or more,
  from file wiki_00 on. Related articles share real text (an article and its "Economy of ..."
  article, the Apollo missions, the same fact worded alike), so "other pairs" counts true
  shared text besides any false pair.
- mixed: half those articles, half BBC news stories (2004-2005) of at least 6 such lines (paragraphs), planted
  pairs drawn from both. A Wikipedia article of 2015 and a BBC story do not share text, so the
  pairs reported across the two corpora (other than planted ones) are false by construction:
  "unrelated pairs per 10,000" counts them over all the cross-corpus pairs. Pairs within one
  corpus are listed apart (they may share real text).

The folder is written under a temporary directory and removed (KEEP=DIR writes it to DIR and
keeps it); SIMDOC_BIN names the binary (default target/release/simdoc)."""
import json, os, random, subprocess, sys, tempfile, time
from pathlib import Path

args = sys.argv[1:]
background = "enwiki"
if args[:1] == ["--background"]:
    background, args = args[1], args[2:]
assert background in ("enwiki", "mixed"), f"unknown background {background}"
split = args.index("--") if "--" in args else len(args)
n = int(args[0]) if split > 0 else 500
pairs_wanted = int(args[1]) if split > 1 else 20
settings = args[split + 1:] or ["", "--method fuzzy", "--method fuzzy --judge-chance true"]
data = Path(os.environ["SIMDOC_DATA"])
binary = os.environ.get("SIMDOC_BIN", "target/release/simdoc")


def long_lines(text):
    return [l for l in text.split("\n") if len(l.split()) >= 6]


def enwiki(count):
    found = []
    for f in sorted((data / "reference/enwiki-2015/text/AA").iterdir()):
        for doc in f.read_text(encoding="utf-8").split("<doc ")[1:]:
            lines = long_lines(doc.split("\n", 1)[1].split("</doc>")[0])
            if len(lines) >= 30:
                found.append(lines)
            if len(found) >= count:
                return found
    return found


def bbc(count):
    found = []
    folder = data / "documents/bbc-news/bbc"
    files = sorted(folder.glob("*/*.txt"))
    random.Random(11).shuffle(files)
    for f in files:
        lines = long_lines(f.read_text(encoding="utf-8", errors="replace"))
        if len(lines) >= 6:
            found.append(lines)
        if len(found) >= count:
            break
    return found


if background == "enwiki":
    articles = enwiki(n)
    corpus = ["enwiki"] * len(articles)
else:
    articles = enwiki(n // 2) + bbc(n - n // 2)
    corpus = ["enwiki"] * (n // 2) + ["bbc"] * (n - n // 2)
assert len(articles) == n, f"only {len(articles)} documents"
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
corpus_of = {f"{i:04}.txt": c for i, c in enumerate(corpus)}

keep = os.environ.get("KEEP")
with tempfile.TemporaryDirectory() as temp:
    folder = Path(keep) if keep else Path(temp) / "articles"
    folder.mkdir(parents=True, exist_ok=True)
    for i, lines in enumerate(articles):
        (folder / f"{i:04}.txt").write_text("\n\n".join(lines) + "\n", encoding="utf-8")
    total_pairs = n * (n - 1) // 2
    cross_pairs = corpus.count("enwiki") * corpus.count("bbc")
    print(f"{n} documents ({background}), {pairs_wanted} planted pairs (3-6 lines copied), "
          f"{total_pairs} pairs in all" + (f", {cross_pairs} across the corpora" if cross_pairs else ""))
    if cross_pairs:
        print("| setting | planted found | recall | unrelated pairs (across corpora) | per 10,000 | "
              "other pairs within a corpus | seconds |")
        print("|---|---|---|---|---|---|---|")
    else:
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
        others = found - planted
        label = f"`{setting or '(default)'}`"
        if cross_pairs:
            across = sum(1 for p in others if len({corpus_of[d] for d in p}) == 2)
            print(f"| {label} | {hits} of {len(planted)} | {hits / len(planted):.2f} | {across} | "
                  f"{10000 * across / cross_pairs:.2f} | {len(others) - across} | {seconds:.0f} |")
        else:
            print(f"| {label} | {hits} of {len(planted)} | {hits / len(planted):.2f} | "
                  f"{len(others)} | {10000 * len(others) / total_pairs:.2f} | {seconds:.0f} |")

#!/usr/bin/env python3
"""Does the source discount earn its place? Submission pairs of a class ranked with and without it.

The class (built from the BBC data set, deterministic): N business articles are the marked
sources; two students write from each. Student "a" hands in the article's BBC summary (extractive:
sentences of the article) and three sentences of their own; student "b" hands in the article's
second and third paragraphs and three of their own. "Own" sentences are the opening sentences of a
tech article, a different one per student. In every fourth article's pair the students colluded:
"b" hands in "a"'s own three sentences instead of writing their own. A teacher wants the colluding
pairs on top; the other pairs of one article share text only because both students took it from
the marked source.

Each submission pair is scored by the larger containment of its evidence (what the collection
report shows first) and by the larger containment with the source discount
(simdoc::collection::discount); a pair the collection does not report scores 0. Printed: ROC AUC
of each score for "colluded" over every submission pair, the colluding pairs' and the same-source
pairs' mean scores, and how many pairs of each kind reach a teacher's glance cut of 0.2; then the
reported submission pairs in the report's order (ranked by what they share beyond the sources)
against their order by score: where the colluded pairs and the first same-source pair stand.

    python3 scripts/eval_discount.py [--simdoc target/release/simdoc] [--data $SIMDOC_DATA]
                                     [--articles 20]
"""
import argparse
import itertools
import json
import os
import re
import subprocess
import tempfile


def sentences_of(text, count):
    """The first `count` sentences of an article's body (its first line is the title)."""
    body = text.split("\n", 1)[1] if "\n" in text else text
    parts = re.split(r"(?<=[.!?])\s+", " ".join(body.split()))
    return [p for p in parts if len(p.split()) >= 6][:count]


def auc(positives, negatives):
    """ROC AUC: the chance a positive outscores a negative (ties count half)."""
    wins = 0.0
    for p in positives:
        for n in negatives:
            wins += 1.0 if p > n else 0.5 if p == n else 0.0
    return wins / (len(positives) * len(negatives))


def precision(positives, negatives, cut):
    """The share of colluded pairs among the pairs reaching `cut`."""
    flagged = sum(s >= cut for s in positives) + sum(s >= cut for s in negatives)
    return sum(s >= cut for s in positives) / flagged if flagged else 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--simdoc", default="target/release/simdoc")
    parser.add_argument("--data", default=os.environ.get("SIMDOC_DATA", "../shared/data"))
    parser.add_argument("--articles", type=int, default=20)
    args = parser.parse_args()
    bbc = os.path.join(args.data, "documents/bbc-news/bbc")
    summaries = os.path.join(
        args.data, "documents/bbc-news-summaries/BBC News Summary/Summaries/business"
    )
    read = lambda path: open(path, encoding="latin-1").read()
    with tempfile.TemporaryDirectory() as tmp:
        sources, answers = os.path.join(tmp, "sources"), os.path.join(tmp, "answers")
        os.makedirs(sources)
        os.makedirs(answers)
        colluded = set()
        own_article = itertools.count(1)
        for n in range(1, args.articles + 1):
            article = read(os.path.join(bbc, "business", f"{n:03}.txt"))
            with open(os.path.join(sources, f"article-{n:03}.txt"), "w") as f:
                f.write(article)
            own_a = sentences_of(read(os.path.join(bbc, "tech", f"{next(own_article):03}.txt")), 3)
            own_b = sentences_of(read(os.path.join(bbc, "tech", f"{next(own_article):03}.txt")), 3)
            summary = read(os.path.join(summaries, f"{n:03}.txt"))
            paragraphs = [p for p in article.split("\n\n") if p.strip()]
            if n % 4 == 0:
                own_b = own_a
                colluded.add((f"student-{n:03}-a.txt", f"student-{n:03}-b.txt"))
            with open(os.path.join(answers, f"student-{n:03}-a.txt"), "w") as f:
                f.write(summary.replace(".", ". ").strip() + "\n\n" + " ".join(own_a) + "\n")
            with open(os.path.join(answers, f"student-{n:03}-b.txt"), "w") as f:
                f.write("\n\n".join(paragraphs[1:3]) + "\n\n" + " ".join(own_b) + "\n")
        result = os.path.join(tmp, "report.json")
        subprocess.run(
            [args.simdoc, "collection", answers, "--sources", sources, "--preset", "teacher",
             "--json", result],
            capture_output=True, text=True, check=True,
        )
        report = json.load(open(result))
    names = [os.path.basename(d if isinstance(d, str) else d.get("path", d.get("name")))
             for d in report["documents"]]
    submissions = sorted(n for n in names if n.startswith("student-"))
    off, on = {}, {}
    # The student pairs in the report's order, and in the raw order (by score, as the report
    # ranked them before the discount ranked them).
    listed = []
    for pair in report["pairs"]:
        a, b = sorted((names[pair["a"]], names[pair["b"]]))
        if pair.get("kind") == "submission_submission":
            listed.append(((a, b), pair["score"], (pair["a"], pair["b"])))
    report_order = [p for p, _, _ in listed]
    raw_order = [p for p, _, _ in sorted(listed, key=lambda x: (-x[1], x[2]))]
    for pair in report["pairs"]:
        a, b = sorted((names[pair["a"]], names[pair["b"]]))
        if not (a.startswith("student-") and b.startswith("student-")):
            continue
        if pair.get("evidence"):
            off[(a, b)] = max(pair["evidence"]["containment"])
        if pair.get("source_discount"):
            on[(a, b)] = max(pair["source_discount"]["containment"])
    all_pairs = list(itertools.combinations(submissions, 2))
    same_source = {(a, b) for a, b in all_pairs if a[:11] == b[:11]} - colluded
    print(f"{len(submissions)} submissions from {args.articles} marked sources; "
          f"{len(all_pairs)} submission pairs: {len(colluded)} colluded, "
          f"{len(same_source)} sharing only their source")
    print()
    print("| score of a submission pair | ROC AUC, colluded vs every other pair | "
          "mean, colluded | mean, same source only | colluded >= 0.2 | same source only >= 0.2 "
          "| other pairs >= 0.2 | precision at 0.2 |")
    print("|---|---|---|---|---|---|---|---|")
    for label, scores in (("containment (discount off)", off),
                          ("containment with the source discount (on)", on)):
        score = lambda p: scores.get(p, 0.0)
        positives = [score(p) for p in all_pairs if p in colluded]
        negatives = [score(p) for p in all_pairs if p not in colluded]
        same = [score(p) for p in same_source]
        others = [score(p) for p in all_pairs if p not in colluded and p not in same_source]
        print(f"| {label} | {auc(positives, negatives):.3f} | "
              f"{sum(positives) / len(positives):.3f} | {sum(same) / len(same):.3f} | "
              f"{sum(s >= 0.2 for s in positives)} of {len(positives)} | "
              f"{sum(s >= 0.2 for s in same)} of {len(same)} | "
              f"{sum(s >= 0.2 for s in others)} of {len(others)} | "
              f"{precision(positives, negatives, 0.2):.2f} |")
    print()
    print("| order of the reported submission pairs | colluded in the first "
          f"{len(colluded)} | mean rank of a colluded pair | rank of the first pair sharing "
          "only its source |")
    print("|---|---|---|---|")
    for label, order in (("by score (before)", raw_order), ("as the report lists them", report_order)):
        ranks = [order.index(p) + 1 for p in colluded if p in order]
        first_same = min((order.index(p) + 1 for p in same_source if p in order), default=None)
        print(f"| {label} ({len(order)} reported) | "
              f"{sum(r <= len(colluded) for r in ranks)} of {len(colluded)} | "
              f"{sum(ranks) / len(ranks) if ranks else float('nan'):.1f} | {first_same} |")


if __name__ == "__main__":
    main()

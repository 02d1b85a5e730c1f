#!/usr/bin/env python3
"""The reworded cases of a text-alignment corpus that a run's detections miss, with their text.

Usage: scripts/alignment_misses.py CORPUS DETECTIONS [--judge SIMDOC]

CORPUS is a folder made by `simdoc eval alignment build`, DETECTIONS the folder a run wrote
(`simdoc eval alignment run CORPUS --detections DETECTIONS`). A case of the paraphrase part
(03-paraphrase) is missed when less than half of its suspicious characters are covered by a
detection of its pair; each missed case is printed with the size of its suspicious document, the
share covered, and its suspicious and source passages (EVALUATION.md, "The reworded cases the
default misses").

With --judge SIMDOC (the path of a simdoc binary), each missed case is also judged alone, as a
pair of texts with nothing around them: the learned verdict's probability (`simdoc eval pairs
--format msrp FILE --preset verdict --scores SCORES`, the case written as one MSRP pair) and the
words WordNet relates across it (`simdoc compare A B --preset wordnet --json-full`: the words the
alignment marks "related", with the relation). What a case could gain from relatedness is bounded
by what the two say of it alone.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

FEATURE = re.compile(
    r'this_offset="(\d+)" this_length="(\d+)" source_reference="([^"]+)"'
    r' source_offset="(\d+)" source_length="(\d+)"'
)


def features(path):
    with open(path, encoding="utf-8") as f:
        return [(int(o), int(l), s, int(so), int(sl)) for o, l, s, so, sl in FEATURE.findall(f.read())]


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def judged_alone(simdoc, cases):
    """Per case (suspicious, source): the verdict's probability and the related words."""
    with tempfile.TemporaryDirectory() as work:
        pairs = os.path.join(work, "pairs.txt")
        with open(pairs, "w", encoding="utf-8") as f:
            f.write("Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n")
            for i, (suspicious, source) in enumerate(cases):
                one_line = [" ".join(t.replace("\t", " ").split()) for t in (suspicious, source)]
                f.write(f"1\t{i}\t{i + len(cases)}\t{one_line[0]}\t{one_line[1]}\n")
        scores = os.path.join(work, "scores.csv")
        subprocess.run(
            [simdoc, "eval", "pairs", "--format", "msrp", pairs, "--preset", "verdict", "--scores", scores],
            check=True, capture_output=True,
        )
        import csv
        with open(scores, encoding="utf-8") as f:
            verdicts = [float(row["verdict"]) for row in csv.DictReader(f)]
        related = []
        for i, (suspicious, source) in enumerate(cases):
            a, b, out = (os.path.join(work, f"{name}{i}") for name in ("a", "b", "json"))
            for path, text in ((a, suspicious), (b, source)):
                with open(path + ".txt", "w", encoding="utf-8") as f:
                    f.write(" ".join(text.split()) + "\n")
            subprocess.run(
                [simdoc, "compare", a + ".txt", b + ".txt", "--preset", "wordnet", "--json-full", out],
                check=True, capture_output=True,
            )
            with open(out, encoding="utf-8") as f:
                matches = json.load(f)["matches"]
            words = sorted({
                f'{w["word"]} ({w.get("why", "")})'
                for m in matches for w in m["words"]["a"] if w["kind"] == "related"
            })
            related.append(words)
    return list(zip(verdicts, related))


def main():
    args = sys.argv[1:]
    simdoc = None
    if "--judge" in args:
        at = args.index("--judge")
        if at + 1 >= len(args):
            sys.exit(__doc__)
        simdoc = args[at + 1]
        del args[at:at + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    corpus, detections = args
    truth_dir = os.path.join(corpus, "03-paraphrase")
    cases, missed = 0, []
    for name in sorted(os.listdir(truth_dir)):
        found = os.path.join(detections, name)
        detected = features(found) if os.path.exists(found) else []
        suspicious = read(os.path.join(corpus, "susp", name.split("-source")[0] + ".txt"))
        for offset, length, source, source_offset, source_length in features(os.path.join(truth_dir, name)):
            cases += 1
            covered = sum(
                max(0, min(offset + length, d[0] + d[1]) - max(offset, d[0])) for d in detected
            )
            if covered < 0.5 * length:
                source_text = read(os.path.join(corpus, "src", source))
                missed.append((
                    name,
                    len(suspicious),
                    covered / length,
                    suspicious[offset:offset + length],
                    source_text[source_offset:source_offset + source_length],
                ))
    print(f"{cases} reworded cases, {len(missed)} missed (less than half covered)")
    judged = judged_alone(simdoc, [(m[3], m[4]) for m in missed]) if simdoc else [None] * len(missed)
    for (name, size, covered, suspicious, source), alone in zip(missed, judged):
        print(f"== {name}: suspicious document {size} characters, {covered:.2f} covered")
        print("   suspicious:", " ".join(suspicious.split()))
        print("   source:    ", " ".join(source.split()))
        if alone:
            verdict, related = alone
            print(f"   alone: verdict {verdict:.3f}; WordNet relates {', '.join(related) or 'nothing'}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The reworded cases of a text-alignment corpus that a run's detections miss, with their text.

Usage: scripts/alignment_misses.py CORPUS DETECTIONS

CORPUS is a folder made by `simdoc eval alignment build`, DETECTIONS the folder a run wrote
(`simdoc eval alignment run CORPUS --detections DETECTIONS`). A case of the paraphrase part
(03-paraphrase) is missed when less than half of its suspicious characters are covered by a
detection of its pair; each missed case is printed with the size of its suspicious document, the
share covered, and its suspicious and source passages (EVALUATION.md, "The reworded cases the
default misses").
"""
import os
import re
import sys

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


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    corpus, detections = sys.argv[1], sys.argv[2]
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
    for name, size, covered, suspicious, source in missed:
        print(f"== {name}: suspicious document {size} characters, {covered:.2f} covered")
        print("   suspicious:", " ".join(suspicious.split()))
        print("   source:    ", " ".join(source.split()))


if __name__ == "__main__":
    main()

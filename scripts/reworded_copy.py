#!/usr/bin/env python3
"""A lightly reworded copy of a text, seeded (EVALUATION.md, "A learned pair verdict": the
verdict preset on a text against its reworded copy).

Twenty common words are swapped for a synonym wherever they stand (whole words, a capital kept),
and 3% of the words are then dropped at random (seed 1 unless --seed says). Whitespace between
the words kept is kept.

    scripts/reworded_copy.py A.txt > A-reworded.txt
"""
import argparse
import random
import re
import sys

SYNONYMS = {
    "large": "big", "began": "started", "city": "town", "often": "frequently",
    "however": "but", "during": "throughout", "several": "various", "important": "significant",
    "known": "recognised", "main": "chief", "small": "little", "early": "initial",
    "made": "produced", "called": "named", "used": "employed",
    "became": "turned into", "although": "though", "country": "nation", "people": "persons",
    "number": "count",
}


def swap(match):
    word = match.group(0)
    new = SYNONYMS.get(word.lower())
    if new is None:
        return word
    return new[0].upper() + new[1:] if word[0].isupper() else new


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("text")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--drop", type=float, default=0.03)
    args = parser.parse_args()
    text = open(args.text, encoding="utf-8").read()
    text = re.sub(r"[A-Za-z]+", swap, text)
    rng = random.Random(args.seed)
    # Drop a share of the words (a word and the spaces after it), keeping line breaks.
    out = []
    for token in re.findall(r"\S+[ \t]*|\s+", text):
        if not token[0].isspace() and rng.random() < args.drop:
            continue
        out.append(token)
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()

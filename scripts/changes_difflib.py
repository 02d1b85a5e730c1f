#!/usr/bin/env python3
"""The peer of simdoc's change list (EVALUATION.md, "The editor's change list"): Python's difflib
over the sentences of each revision, with moved lines as `git diff --color-moved` finds them.

Reads a corpus of `simdoc eval changes build` and writes one change list per revision into OUT,
in the shape of `simdoc compare --changes` (only `kind`, `a` and `b`), for
`simdoc eval changes score CORPUS --detections OUT --label difflib`:

    python3 scripts/changes_difflib.py CORPUS OUT

- Both texts are taken as the sentences simdoc splits them into (the truth file lists them), so
  the two tools see the same units; a sentence's text is compared with its whitespace collapsed.
- difflib.SequenceMatcher aligns the two lists as ndiff does (no line junk). Where it replaces a
  block of A's sentences by a block of B's, the pairs that ndiff would show as one changed line
  (its `_fancy_replace`: the most similar pair by `ratio()`, spaces and tabs as character junk,
  at or above ndiff's cutoff of 0.75, then the same on each side of it) are *changed*; the rest
  of the block is deleted and added.
- A deleted sentence whose exact text is also an added sentence elsewhere is *moved*, as git's
  --color-moved marks a removed line that reappears (its default needs 20 alphanumeric characters
  in a moved block; shorter moved sentences stay deleted and added).
- Consecutive sentences of one kind form one change, as in simdoc's list.

Standard library only.
"""

import difflib
import json
import re
import sys
from pathlib import Path

CUTOFF = 0.75  # ndiff's _fancy_replace cutoff
MIN_MOVED_ALNUM = 20  # git's COLOR_MOVED_MIN_ALNUM_COUNT


def sentences(text, spans):
    return [" ".join(text[s:e].split()) for s, e in spans]


def fancy_pairs(a, b, alo, ahi, blo, bhi, out):
    """ndiff's _fancy_replace without the output: the changed pairs (i, j) in [alo, ahi) x [blo, bhi)."""
    best, best_i, best_j = CUTOFF - 0.01, None, None
    matcher = difflib.SequenceMatcher(difflib.IS_CHARACTER_JUNK)
    for j in range(blo, bhi):
        matcher.set_seq2(b[j])
        for i in range(alo, ahi):
            if a[i] == b[j]:
                continue
            matcher.set_seq1(a[i])
            if (matcher.real_quick_ratio() > best and matcher.quick_ratio() > best
                    and matcher.ratio() > best):
                best, best_i, best_j = matcher.ratio(), i, j
    if best_i is None or best < CUTOFF:
        return
    fancy_pairs(a, b, alo, best_i, blo, best_j, out)
    out.append((best_i, best_j))
    fancy_pairs(a, b, best_i + 1, ahi, best_j + 1, bhi, out)


def alnum(s):
    return sum(c.isalnum() for c in s)


def diff(a, b):
    """Per sentence of A and of B: its kind ('deleted', 'added', 'changed', 'moved' or None),
    and the changed and moved partners."""
    kind_a, kind_b = [None] * len(a), [None] * len(b)
    partner_a = [None] * len(a)
    matcher = difflib.SequenceMatcher(None, a, b)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        pairs = []
        if tag == "replace":
            fancy_pairs(a, b, i1, i2, j1, j2, pairs)
        for i, j in pairs:
            kind_a[i], kind_b[j] = "changed", "changed"
            partner_a[i] = j
        for i in range(i1, i2):
            if kind_a[i] is None:
                kind_a[i] = "deleted"
        for j in range(j1, j2):
            if kind_b[j] is None:
                kind_b[j] = "added"
    # Moved: a deleted sentence whose text is an added one's (each added sentence used once).
    added = {}
    for j, k in enumerate(kind_b):
        if k == "added" and alnum(b[j]) >= MIN_MOVED_ALNUM:
            added.setdefault(b[j], []).append(j)
    for i, k in enumerate(kind_a):
        if k == "deleted" and added.get(a[i]):
            j = added[a[i]].pop(0)
            kind_a[i], kind_b[j] = "moved", "moved"
            partner_a[i] = j
    return kind_a, kind_b, partner_a


def runs(kinds, kind):
    out = []
    for p, k in enumerate(kinds):
        if k != kind:
            continue
        if out and out[-1][1] == p - 1:
            out[-1][1] = p
        else:
            out.append([p, p])
    return out


def changes(a_spans, b_spans, kind_a, kind_b, partner_a):
    def span(spans, first, last):
        return [spans[first][0], spans[last][1]]

    out = []
    for first, last in runs(kind_a, "deleted"):
        out.append({"kind": "deleted", "a": span(a_spans, first, last), "b": None})
    for first, last in runs(kind_b, "added"):
        out.append({"kind": "added", "a": None, "b": span(b_spans, first, last)})
    for kind in ("changed", "moved"):
        # Runs in A whose partners follow each other in B.
        block = None
        for i, k in enumerate(kind_a + [None]):
            j = partner_a[i] if i < len(kind_a) else None
            if block and k == kind and i == block[1] + 1 and j == block[3] + 1:
                block[1], block[3] = i, j
                continue
            if block:
                out.append({"kind": kind, "a": span(a_spans, block[0], block[1]),
                            "b": span(b_spans, block[2], block[3])})
                block = None
            if k == kind:
                block = [i, i, j, j]
    out.sort(key=lambda c: (c["a"] or c["b"])[0])
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    corpus, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    manifest = json.loads((corpus / "corpus.json").read_text(encoding="utf-8"))
    for revision in manifest["revisions"]:
        name = revision["name"]
        # Offsets count characters of the texts as read (Python's str indexes code points).
        texts = [(corpus / side / f"{name}.txt").read_text(encoding="utf-8") for side in ("a", "b")]
        truth = json.loads((corpus / "truth" / f"{name}.json").read_text(encoding="utf-8"))
        a_spans, b_spans = truth["sentences"]
        a, b = sentences(texts[0], a_spans), sentences(texts[1], b_spans)
        kind_a, kind_b, partner_a = diff(a, b)
        result = {"changes": changes(a_spans, b_spans, kind_a, kind_b, partner_a)}
        (out / f"{name}.json").write_text(json.dumps(result), encoding="utf-8")
    print(f"{out}: {len(manifest['revisions'])} change lists", file=sys.stderr)


if __name__ == "__main__":
    main()

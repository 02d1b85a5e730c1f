#!/usr/bin/env python3
"""What flags the pan set's clean documents: a count from `eval_sources`'s SHOW_FLAGS listing.

Usage:
  SHOW_FLAGS=1 PRESET=documents cargo run --release --no-default-features \\
      --example eval_sources -- pan 2> flags.txt
  scripts/pan_clean_flags.py flags.txt [CUT ...]

In the pan set (examples/support/truth_sets.rs) group k gives sources 2k (reworded originals)
and 2k + 1 (the originals of ten non-plagiarised pairs), and documents 3k, 3k + 1 and 3k + 2,
the last the clean one: its own group's source is 2k + 1, the ten sentences its own sit beside
in the books. For the listing's first method (fuzzy) and each cut (default 0.1 and 0.25), the
clean documents flagged by their own group's source, by another source, and in all; then the
clean documents holding a sentence identical (Sim 1.00) to one of another source.
"""
import re
import sys

HEADER = re.compile(r"clean (\d+): source (\d+) containment ([\d.]+)")


def own_source(document):
    return 2 * ((document - 2) // 3) + 1


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cuts = [float(c) for c in sys.argv[2:]] or [0.1, 0.25]
    with open(sys.argv[1], encoding="utf-8") as f:
        lines = f.read().split("\n")
    # The first method's block: the listing restarts at a lower document number for the next.
    shares, identical, last, current = [], set(), -1, None
    for line in lines:
        header = HEADER.match(line)
        if header:
            document, source, containment = int(header[1]), int(header[2]), float(header[3])
            if document < last:
                break
            last, current = document, (document, source)
            shares.append((document, source, containment))
        elif line.strip() == "sim 1.00" and current and current[1] != own_source(current[0]):
            identical.add(current[0])
    for cut in cuts:
        own = {d for d, s, c in shares if c >= cut and s == own_source(d)}
        other = {d for d, s, c in shares if c >= cut and s != own_source(d)}
        print(
            f"c = {cut}: flagged by their own group's source {len(own)}, by another "
            f"{len(other)} ({len(other - own)} by another only), in all {len(own | other)}"
        )
    print(f"clean documents holding a sentence identical to one of another source: {len(identical)}")


if __name__ == "__main__":
    main()

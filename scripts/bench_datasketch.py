"""The peer of BENCHMARKS.md "Collection detectors": datasketch's MinHash LSH on the same
documents and words as simdoc's detectors (the JSON lines written by the bench_collection
example). Prints documents per second per set and, on the BBC articles, precision and recall over
the byte-identical duplicate pairs (hashed from the files here, as eval_collection does).

MinHash over word 4-shingles (the shingles of DSC and FFP), 128 permutations, LSH threshold 0.8
(datasketch's usual setting for near duplicates); every document queries the index of the ones
before it, then is inserted: the stream order of the Rust detectors.
"""

import hashlib
import json
import sys
import time
from itertools import combinations
from pathlib import Path

from datasketch import MinHash, MinHashLSH

NUM_PERM = 128
THRESHOLD = 0.8
SHINGLE = 4


def shingles(terms):
    if not terms:
        return set()
    if len(terms) < SHINGLE:
        return {" ".join(terms)}
    return {" ".join(terms[i : i + SHINGLE]) for i in range(len(terms) - SHINGLE + 1)}


def run(docs):
    lsh = MinHashLSH(threshold=THRESHOLD, num_perm=NUM_PERM)
    pairs = set()
    start = time.perf_counter()
    for i, doc in enumerate(docs):
        m = MinHash(num_perm=NUM_PERM)
        m.update_batch([s.encode("utf-8") for s in shingles(doc["terms"])])
        for j in lsh.query(m):
            pairs.add((min(i, j), max(i, j)))
        lsh.insert(i, m)
    return pairs, time.perf_counter() - start


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "target/bench-collection")
    print(f"| set | documents | datasketch MinHash LSH (docs/s) | pairs |")
    print("|---|---|---|---|")
    for name in ["reuters-5000", "reuters-10000", "reuters-20000", "bbc", "bbc+summaries"]:
        docs = [json.loads(line) for line in (out / f"{name}.jsonl").open()]
        pairs, secs = run(docs)
        print(f"| {name} | {len(docs)} | {len(docs) / secs:.0f} | {len(pairs)} |")
        if name == "bbc":
            by_hash = {}
            for i, doc in enumerate(docs):
                digest = hashlib.sha1(Path(doc["path"]).read_bytes()).hexdigest()
                by_hash.setdefault(digest, []).append(i)
            truth = {p for g in by_hash.values() for p in combinations(sorted(g), 2)}
            hit = len(pairs & truth)
            precision = hit / len(pairs) if pairs else 0.0
            recall = hit / len(truth) if truth else 0.0
            bbc_line = (
                f"datasketch on the BBC articles: {len(pairs)} pairs, {len(truth)} byte-identical "
                f"pairs, precision {precision:.3f}, recall {recall:.3f}"
            )
    print()
    print(bbc_line)


if __name__ == "__main__":
    main()

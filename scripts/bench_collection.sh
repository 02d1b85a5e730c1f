#!/usr/bin/env bash
# Collection detectors' speed beside datasketch's MinHash LSH (BENCHMARKS.md, "Collection
# detectors"). Needs SIMDOC_DATA (the shared data folder) and python3 with venv; installs
# datasketch from PyPI into a venv under the output folder.
#   SIMDOC_DATA=/work/shared/data scripts/bench_collection.sh [OUT_DIR]
set -euo pipefail
: "${SIMDOC_DATA:?set SIMDOC_DATA to the shared data folder}"
cd "$(dirname "$0")/.."
OUT="${1:-target/bench-collection}"
mkdir -p "$OUT"
cargo build --release --no-default-features --example bench_collection
echo "## simdoc detectors (documents per second, pairs found)"
./target/release/examples/bench_collection "$OUT" | tee "$OUT/simdoc.md"
if [ ! -x "$OUT/venv/bin/python" ]; then
    python3 -m venv "$OUT/venv"
fi
"$OUT/venv/bin/pip" install --quiet "datasketch==2.0.0"
echo
echo "## datasketch $("$OUT/venv/bin/python" -c 'import importlib.metadata as m; print(m.version("datasketch"))')"
"$OUT/venv/bin/python" scripts/bench_datasketch.py "$OUT" | tee "$OUT/datasketch.md"

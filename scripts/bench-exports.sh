#!/usr/bin/env bash
# Exports of a long pair (BENCHMARKS.md, "Exports of a long pair"): a 5 MB text of Wikipedia
# articles against a revised copy (examples/revised_pair.rs), compared once with every report
# written; prints the time and peak memory of the comparison, the size of the compact JSON
# (--json), the full one (--json-full), the CSV and the HTML report, and the time headless
# Chromium takes to load the report and give back its DOM.
#
#   SIMDOC_DATA=../shared/data scripts/bench-exports.sh [BYTES]
set -euo pipefail
cd "$(dirname "$0")/.."
: "${SIMDOC_DATA:?set SIMDOC_DATA to the shared data folder}"
bytes="${1:-5000000}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
cargo build --release --quiet --bin simdoc --example revised_pair
target/release/examples/revised_pair "$dir" "$bytes"
echo "pair: a.txt $(stat -c %s "$dir/a.txt") bytes, b.txt $(stat -c %s "$dir/b.txt") bytes"
/usr/bin/time -f "compare with every report: %e s, peak %M KB" \
  target/release/simdoc compare "$dir/a.txt" "$dir/b.txt" --json "$dir/compact.json" \
  --json-full "$dir/full.json" --csv "$dir/pairs.csv" --html "$dir/report.html" \
  | grep -E '^(matched pairs|containment):'
for file in compact.json full.json pairs.csv report.html; do
  echo "$file: $(stat -c %s "$dir/$file") bytes"
done
chromium="${SIMDOC_CHROMIUM:-chromium}"
start=$(date +%s.%N)
"$chromium" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --dump-dom \
  "file://$dir/report.html" > "$dir/dom.html" 2> "$dir/chromium.log"
end=$(date +%s.%N)
echo "chromium --dump-dom: $(awk "BEGIN{printf \"%.1f\", $end - $start}") s, $(stat -c %s "$dir/dom.html") bytes of DOM"

#!/usr/bin/env bash
# Times `simdoc model build` over the English Wikipedia reference folder for both co-occurrence
# units, with the default parameters otherwise, and prints wall time, CPU time, peak memory (max
# RSS, from GNU time) and the model's size.
#
# Usage: scripts/bench-model-build.sh [EXTRA BUILD FLAGS...]
# Reads the data from $SIMDOC_DATA (default: ../shared/data beside the repo).
set -euo pipefail
cd "$(dirname "$0")/.."
data="${SIMDOC_DATA:-../shared/data}"
corpus="$data/reference/enwiki-2015/text"
if [ ! -d "$corpus" ]; then
    echo "no corpus at $corpus (set SIMDOC_DATA)" >&2
    exit 1
fi
if [ ! -x /usr/bin/time ]; then
    if [ "$(id -u)" = 0 ]; then
        apt-get install -y -qq time
    else
        echo "GNU time is missing: apt-get install time" >&2
        exit 1
    fi
fi
cargo build --release --no-default-features --quiet
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
echo "cores: $(nproc); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %10s %10s %12s %12s\n' unit wall_s cpu_s max_rss_MB model_MB
for unit in paragraph document; do
    /usr/bin/time -v target/release/simdoc model build "$corpus" --unit "$unit" --quiet \
        -o "$out/$unit.simdoc-model" "$@" 2>"$out/$unit.time"
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$out/$unit.time" |
        awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
    user=$(awk -F': ' '/User time/ {print $2}' "$out/$unit.time")
    sys=$(awk -F': ' '/System time/ {print $2}' "$out/$unit.time")
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$out/$unit.time")
    size=$(stat -c %s "$out/$unit.simdoc-model")
    awk -v u="$unit" -v w="$wall" -v us="$user" -v sy="$sys" -v r="$rss" -v s="$size" \
        'BEGIN { printf "%-10s %10.1f %10.1f %12.0f %12.2f\n", u, w, us + sy, r / 1024, s / 1e6 }'
done

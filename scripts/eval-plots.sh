#!/usr/bin/env bash
# Draws the threshold sweeps of EVALUATION.md ("Sentence matching") into docs/eval/: FP and FN
# rates against the permission and variation thresholds and precision-recall curves (after the
# thesis's Fig. 3.2), for MSRP train and PAN's tuning part, with the embedded model and the
# measured thresholds marked.
#
# Usage: scripts/eval-plots.sh [EXTRA EVAL FLAGS...]   (e.g. --model FILE)
# Reads the data from $SIMDOC_DATA (default: ../shared/data beside the repo).
set -euo pipefail
cd "$(dirname "$0")/.."
data="${SIMDOC_DATA:-../shared/data}"
cargo build --release --no-default-features --quiet
mkdir -p docs/eval
target/release/simdoc eval pairs --format msrp "$data/pairs/msrp" --split train --preset measured \
    --quiet --plot docs/eval/sweep-msrp-train.svg "$@"
target/release/simdoc eval pairs --format pan "$data/pairs/pan10" --split tune --preset measured \
    --quiet --plot docs/eval/sweep-pan-tune.svg "$@"
ls -l docs/eval/*.svg

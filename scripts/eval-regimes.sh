#!/usr/bin/env bash
# Text alignment in every regime users meet (EVALUATION.md, "Text alignment in every regime"):
# builds the corpora from the PAN *tune* pairs (never the holdout ones) and scores one
# configuration of `simdoc eval alignment run` on all of them, printing one Markdown row: plagdet
# per regime and size, their mean, and the largest containment of an unrelated suspicious
# document in any regime (the criterion: the mean, subject to that containment at most 1%).
#
#   scripts/eval-regimes.sh [--out DIR] [--label NAME] [--header] [-- RUN FLAGS...]
#
# The regimes: reuse inside unrelated text at 0.5 KB-5 MB (PAN's setting), documents mostly
# copied (50-100% of the suspicious text) at 1.5-50 KB, identical copies at 0.5-500 KB, 50 KB
# documents against pools of 100 and 1,000 Wikipedia articles (run as `simdoc sources`). Needs
# SIMDOC_DATA (or ../shared/data) and a release build (`cargo build --release`); about 4 minutes
# a run on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${SIMDOC_DATA:-../shared/data}"
OUT=target/regimes
LABEL=""
HEADER=0
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT="$2"; shift 2 ;;
    --label) LABEL="$2"; shift 2 ;;
    --header) HEADER=1; shift ;;
    --) shift; break ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
S="${SIMDOC:-target/release/simdoc}"
mkdir -p "$OUT"
build() { # NAME FLAGS...
  local name="$1"; shift
  [ -f "$OUT/$name/corpus.json" ] ||
    "$S" eval alignment build "$OUT/$name" --data "$DATA" --split tune "$@" >&2
}
build inside
build short --sizes 500,1500 --pairs 20,20
build mostly --regime mostly --sizes 1500,5000,50000 --pairs 20,20,10
build identical --regime identical --sizes 500,1500,5000,50000,500000 --pairs 10,10,10,10,5
build pool --regime pool --sizes 100,1000 --pairs 20,20
run_dir=$(mktemp -d "$OUT/run.XXXXXX")
for corpus in short inside mostly identical pool; do
  "$S" eval alignment run "$OUT/$corpus" --json "$run_dir/$corpus.json" "$@" > "$run_dir/$corpus.md"
done
python3 scripts/regimes_row.py "$run_dir" "${LABEL:-${*:-default}}" "$HEADER"
rm -rf "$run_dir"

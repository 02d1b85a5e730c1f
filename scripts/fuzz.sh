#!/usr/bin/env bash
# Runs every cargo-fuzz target (fuzz/fuzz_targets/) for a given time each, from the committed
# seeds (fuzz/seeds/) plus whatever earlier runs added to the working corpus.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default: 600 s, every target)
#
# document_bytes also starts from the DOCX, ODT, EPUB and PDF fixtures of tests/fixtures/formats.
# Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`). Runs under `nice` with
# one job per target at a time. Findings (crashes, timeouts, out-of-memory inputs) land in
# fuzz/artifacts/TARGET/; each one fixed becomes a regression test in tests/fuzz_findings.rs.
# The last line of each target's log says how many inputs it executed; a summary of the runs is
# printed at the end and kept in target/fuzz-runs.log.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-600}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(document_bytes compare_two model_bytes)
fi

cargo +nightly fuzz build -O
mkdir -p target/fuzz-corpus target/fuzz-logs
summary=target/fuzz-runs.log
for target in "${targets[@]}"; do
  corpus="target/fuzz-corpus/$target"
  mkdir -p "$corpus"
  cp -n fuzz/seeds/"$target"/* "$corpus"/ 2>/dev/null || true
  max_len=65536
  if [ "$target" = document_bytes ]; then
    # The packaged formats' fixtures (made from an enwiki article) seed the DOCX, ODT, EPUB
    # and PDF readers; the PDF needs the longer inputs.
    cp -n tests/fixtures/formats/*.{docx,odt,epub,pdf} "$corpus"/ 2>/dev/null || true
    max_len=131072
  fi
  log="target/fuzz-logs/$target.log"
  # -rss_limit_mb: an input that makes a target use more is a finding (unbounded memory);
  # -timeout: one input running longer is a finding (a hang or a quadratic blow-up).
  set +e
  nice cargo +nightly fuzz run -O "$target" "$corpus" fuzz/seeds/"$target" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 -max_len="$max_len" \
    -print_final_stats=1 >"$log" 2>&1
  status=$?
  set -e
  runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -1)
  findings=$(ls fuzz/artifacts/"$target" 2>/dev/null | wc -l)
  line="$(date -u +%FT%TZ) $target: ${seconds}s, ${runs:-?} executions, exit $status, $findings file(s) in fuzz/artifacts/$target"
  echo "$line" | tee -a "$summary"
done

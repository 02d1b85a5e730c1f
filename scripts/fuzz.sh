#!/usr/bin/env bash
# Runs the cargo-fuzz targets (fuzz/fuzz_targets/) for a given time each, one at a time under
# `nice -n 19` (others need the cores), from the committed seeds (fuzz/seeds/) plus whatever
# earlier runs added to the working corpus (target/fuzz-corpus/, not committed).
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default: 1800 s, every target)
#
# FUZZ_RUNS=N stops a target after N executions if that comes before its time (libFuzzer's
# -runs), so a run can be sized by executions: FUZZ_RUNS=1000000 scripts/fuzz.sh 7200 packages.
#
# Targets: document_bytes (text, HTML and container bytes through every front end),
# compare_two (two documents compared with every method), model_bytes (model files),
# pdf_objects (PDFs built around the input's objects: page trees, fonts and their character
# maps, drawings, content streams) and packages (DOCX, ODT and EPUB packages built around the
# input's parts). Each skips inputs over its own small size (see the target's docs) and runs
# with the same -max_len, so it spends its time on inputs that run fast.
#
# Toolchain: cargo-fuzz needs nightly features (-Z flags for the sanitizer coverage). Without a
# nightly toolchain, the stable one runs them with RUSTC_BOOTSTRAP=1, which is what this script
# does by default (FUZZ_TOOLCHAIN=nightly uses `cargo +nightly` instead). Install cargo-fuzz
# with `cargo install cargo-fuzz`. FUZZ_SANITIZER (default: none) is passed to `cargo fuzz -s`:
# simdoc and the crates it reads with are safe Rust, so what fuzzing looks for here are panics,
# hangs (-timeout) and unbounded memory (-rss_limit_mb), which need no sanitizer; AddressSanitizer
# (FUZZ_SANITIZER=address) finds memory errors in unsafe code at a third of the speed.
#
# Findings (crashes, timeouts, out-of-memory inputs) land in fuzz/artifacts/TARGET/; each one
# fixed becomes a regression test in tests/fuzz_findings.rs. The last line of each target's log
# says how many inputs it executed; a summary line per run is printed and appended to
# target/fuzz-runs.log.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-1800}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(document_bytes compare_two model_bytes pdf_objects packages)
fi

sanitizer="${FUZZ_SANITIZER:-none}"
# One thread for rayon: a comparison's parallel steps are worth nothing on inputs of a few
# sentences, and the pool's threads only cost the fuzzer time (measured: compare_two spent a
# tenth of its time waking them).
export RAYON_NUM_THREADS=1
if [ "${FUZZ_TOOLCHAIN:-}" = nightly ]; then
  fuzz=(cargo +nightly fuzz)
else
  export RUSTC_BOOTSTRAP=1
  fuzz=(cargo fuzz)
fi

max_len_of() {
  case "$1" in
    document_bytes | pdf_objects) echo 16385 ;;
    compare_two) echo 2049 ;;
    packages) echo 32769 ;;
    *) echo 65536 ;;
  esac
}

nice -n 19 "${fuzz[@]}" build -O -s "$sanitizer"
mkdir -p target/fuzz-corpus target/fuzz-logs
summary=target/fuzz-runs.log
for target in "${targets[@]}"; do
  corpus="target/fuzz-corpus/$target"
  mkdir -p "$corpus"
  cp -n fuzz/seeds/"$target"/* "$corpus"/ 2>>target/fuzz-logs/seed-copy.log || true
  log="target/fuzz-logs/$target.log"
  # -rss_limit_mb: an input that makes a target use more is a finding (unbounded memory);
  # -timeout: one input running longer is a finding (a hang or a quadratic blow-up).
  set +e
  nice -n 19 "${fuzz[@]}" run -O -s "$sanitizer" "$target" "$corpus" fuzz/seeds/"$target" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len="$(max_len_of "$target")" \
    -print_final_stats=1 ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} >"$log" 2>&1
  status=$?
  set -e
  runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -1)
  findings=0
  if [ -d fuzz/artifacts/"$target" ]; then findings=$(find fuzz/artifacts/"$target" -type f | wc -l); fi
  line="$(date -u +%FT%TZ) $target: ${seconds}s, ${runs:-?} executions, sanitizer $sanitizer, exit $status, $findings file(s) in fuzz/artifacts/$target"
  echo "$line" | tee -a "$summary"
done

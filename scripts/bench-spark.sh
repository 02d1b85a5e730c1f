#!/usr/bin/env bash
# BENCHMARKS.md "On Spark": builds the binary and the wheel as scripts/test-spark.sh does, then
# runs scripts/bench_spark.py (documents per core-second, Spark local[2] vs simdoc collection).
# Needs SIMDOC_DATA.
set -euo pipefail
cd "$(dirname "$0")/.."
SKIP_TESTS=1 scripts/test-spark.sh
export PYSPARK_PYTHON="$PWD/spark/.venv/bin/python"
export SIMDOC_BIN="$PWD/target/release/simdoc"
nice spark/.venv/bin/python scripts/bench_spark.py

#!/usr/bin/env bash
# The simdoc-spark suite from a fresh clone: installs what it needs (Java 17 from Debian when
# missing, pyspark, pyarrow, maturin and pytest from PyPI into spark/.venv), builds the simdoc
# binary and the wheel, installs the wheel and runs the parity suite on Spark local[2].
# Needs SIMDOC_DATA (the shared data) for the real-data tests; prints "skipped" without it.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"

if [ -z "$(command -v java || true)" ]; then
  echo "test-spark: installing Java 17 (Debian openjdk-17-jre-headless)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless
fi

python="${PYTHON:-python3}"
venv="$repo/spark/.venv"
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
"$venv/bin/pip" install -q --upgrade pip
"$venv/bin/pip" install -q -r spark/requirements-test.txt

# The one-machine side of the parity tests: the binary SIMDOC_BIN names (.ci/run passes the one
# its `cargo test --release` built: building it again with `cargo build` recompiled clap, the
# regular expressions and simdoc itself, whose features the tests' dev-dependencies widen), else
# the release binary built here.
if [ -z "${SIMDOC_BIN:-}" ]; then
  cargo build --release --bin simdoc
  SIMDOC_BIN="$repo/target/release/simdoc"
fi
if [ ! -x "$SIMDOC_BIN" ]; then
  echo "test-spark: SIMDOC_BIN ($SIMDOC_BIN) is not an executable" >&2
  exit 1
fi
# The wheel, in the crate's build directory (spark is a member of its workspace) with its features,
# so that it compiles only the extension and pyo3 after the crate's own build (spark/Cargo.toml).
rm -rf spark/dist
(cd spark && "$venv/bin/maturin" build --release --quiet --out dist)
"$venv/bin/pip" install -q --force-reinstall --no-deps spark/dist/*.whl

if [ -n "${SKIP_TESTS:-}" ]; then
  exit 0
fi
export PYSPARK_PYTHON="$venv/bin/python"
export PYSPARK_DRIVER_PYTHON="$venv/bin/python"
export SIMDOC_BIN
cd spark/tests
"$venv/bin/python" -m pytest -q -p no:cacheprovider "$@"

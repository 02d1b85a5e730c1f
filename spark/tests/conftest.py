"""One Spark session (local[2]) for the whole suite, the shared data and the simdoc binary."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def spark():
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[2]")
        .appName("simdoc-spark tests")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "2g")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def data_dir() -> Path:
    data = os.environ.get("SIMDOC_DATA")
    if not data:
        pytest.skip("skipped: SIMDOC_DATA not set")
    return Path(data)


@pytest.fixture(scope="session")
def simdoc_binary() -> Path:
    binary = Path(os.environ.get("SIMDOC_BIN", REPO / "target" / "release" / "simdoc"))
    if not binary.exists():
        pytest.fail(f"{binary} not found: build it with cargo build --release (or set SIMDOC_BIN)")
    return binary


def simdoc_collection(
    binary: Path, folder: Path, method: str, *options: str, preset: str | None = "paper"
) -> dict:
    """`simdoc collection --json` on one machine, as a dict, at a collection preset: by default
    the papers' (``--preset paper``); None for none named, `simdoc collection`'s default."""
    out = folder.parent / f"{folder.name}-{method}-{preset or 'default'}.json"
    named = ["--preset", preset] if preset else []
    subprocess.run(
        [str(binary), "collection", str(folder), "--method", method, *named,
         "--json", str(out), "--show", "0", *options],
        check=True,
        capture_output=True,
    )
    return json.loads(out.read_text(encoding="utf-8"))


def copy_files(files, into: Path, prefix: str = "") -> None:
    into.mkdir(parents=True, exist_ok=True)
    for file in files:
        shutil.copyfile(file, into / f"{prefix}{file.name}")

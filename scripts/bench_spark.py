"""Documents per core-second of simdoc-spark on Spark local[2] against `simdoc collection` on
the same input in the same run; prints the Markdown table of BENCHMARKS.md ("On Spark").

Run by scripts/bench-spark.sh (which builds the binary and the wheel). Input: every BBC
article, every BBC summary and three Reuters files (3,000 stories), copied into a temporary
folder. Both sides use 2 cores (the machine's): core-seconds are wall seconds x 2. Both run
each method at the default preset (the documents preset's parameters and evidence, which
simdoc-spark takes without a preset as `simdoc collection` does).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pyspark.sql import SparkSession

from simdoc_spark import Settings, run_collection

CORES = 2
METHODS = ("codet", "imatch", "simhash", "ffp", "dsc")


def build_corpus(data: Path, root: Path) -> None:
    for category in sorted((data / "documents/bbc-news/bbc").iterdir()):
        if category.is_dir():
            shutil.copytree(category, root / "articles" / category.name)
    summaries = data / "documents/bbc-news-summaries/BBC News Summary/Summaries"
    shutil.copytree(summaries, root / "summaries")
    (root / "reuters").mkdir()
    for name in ("reut2-000.sgm", "reut2-001.sgm", "reut2-002.sgm"):
        shutil.copyfile(data / "reference/reuters-21578" / name, root / "reuters" / name)


def main() -> int:
    data = Path(os.environ["SIMDOC_DATA"])
    binary = os.environ.get("SIMDOC_BIN", "target/release/simdoc")
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        build_corpus(data, corpus)
        spark = (
            SparkSession.builder.master(f"local[{CORES}]")
            .config("spark.sql.shuffle.partitions", "8")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.driver.memory", "4g")
            .getOrCreate()
        )
        spark.sparkContext.setLogLevel("ERROR")
        # A first run warms the JVM and the Python workers up; it is not reported.
        run_collection(spark, str(corpus), None, Settings(method="imatch"))
        rows = []
        for method in METHODS:
            start = time.perf_counter()
            # The Spark run's document-frequency cap; on one machine only FFP and DSC take it
            # (CoDet there has none, and refuses the option as changing nothing).
            cap = ["--max-df", "1000"] if method in ("ffp", "dsc") else []
            subprocess.run(
                [binary, "collection", str(corpus), "--method", method, "--show", "0", *cap],
                check=True,
                capture_output=True,
            )
            local = time.perf_counter() - start
            timings: dict = {}
            start = time.perf_counter()
            result = run_collection(spark, str(corpus), None, Settings(method=method), timings)
            total = time.perf_counter() - start
            documents = result.documents.where("id is not null").count()
            rows.append((method, documents, local, total, timings, result.candidates))
        spark.stop()

    def rate(documents: int, seconds: float) -> str:
        return f"{documents / (seconds * CORES):,.0f}" if seconds > 0 else "-"

    print("| method | documents | `simdoc collection` | Spark total | prepare | sign | join "
          "| verify + groups | evidence (s) | candidate pairs |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for method, documents, local, total, t, candidates in rows:
        sign = rate(documents, t["sign"]) if "sign" in t else "(in prepare)"
        print(
            f"| {method} | {documents:,} | {rate(documents, local)} | {rate(documents, total)} "
            f"| {rate(documents, t['prepare'])} | {sign} | {rate(documents, t['join'])} "
            f"| {rate(documents, t['verify'] + t['groups'])} | {t['evidence']:.1f} "
            f"| {candidates:,} |"
        )
    print(f"\n(documents per core-second; {CORES} cores; load average {os.getloadavg()[0]:.1f}; "
          "seconds: " + ", ".join(
              f"{m} local {loc:.1f} / spark {tot:.1f}" for m, _, loc, tot, _, _ in rows) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``simdoc-spark collection INPUT --method M --out DIR [--master URL]``."""

from __future__ import annotations

import argparse
import os
import sys

from .detect import DEFAULT_EVIDENCE, DEFAULT_MAX_DF, METHODS, Settings, run_collection


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="simdoc-spark",
        description="simdoc's collection detectors on Apache Spark; results equal "
        "`simdoc collection` on one machine.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    c = commands.add_parser(
        "collection",
        help="find duplicates and containments; write Parquet tables documents, pairs, groups, "
        "evidence",
    )
    c.add_argument(
        "input",
        help="a folder (walked recursively in sorted order, as simdoc does) or a Parquet/JSONL "
        "table with columns id, text and optionally timestamp",
    )
    c.add_argument(
        "--method",
        choices=METHODS,
        help="the detector (default: the preset's, else ffp)",
    )
    c.add_argument(
        "--preset",
        choices=("paper", "teacher", "news", "documents"),
        help="every detector's parameters as `simdoc collection --preset` sets them (and the "
        "detector, unless --method names one); the options below override it. Without it, "
        "the documents preset's, as `simdoc collection` takes without sources marked: its "
        "evidence judges matches against chance, as `simdoc compare` does; --preset paper for "
        "the papers' own parameters",
    )
    c.add_argument("--out", required=True, help="folder for the Parquet tables")
    c.add_argument("--master", default=None, help="Spark master URL (default local[*])")
    c.add_argument("--normaliser", choices=("refine", "first5"), default="refine")
    c.add_argument("--max-bytes", type=int, help="refuse documents larger than this")
    c.add_argument("--shingle-size", type=int, help="DSC, FFP: words per shingle (4)")
    c.add_argument("--containment-threshold", type=float, help="DSC, FFP: share (0.6)")
    c.add_argument("--step", type=int, help="DSC: keep every STEP-th shingle (3)")
    c.add_argument("--sampling", choices=("position", "hash"), help="DSC sampling")
    c.add_argument(
        "--max-df",
        type=int,
        default=DEFAULT_MAX_DF,
        help="DSC, FFP, CoDet: a shingle (tree node) held by more than N documents counts as "
        "shared by none "
        f"(skew; default {DEFAULT_MAX_DF}; 0 switches the cap off)",
    )
    c.add_argument("--skipped-words", type=int, help="I-Match, SimHash: rarest words ignored")
    c.add_argument("--fingerprint-words", type=int, help="I-Match: words fingerprinted (10)")
    c.add_argument("--max-distance", type=int, help="SimHash: largest Hamming distance (2)")
    c.add_argument("--depth-threshold", type=int, help="CoDet DT: words of a sentence (5)")
    c.add_argument(
        "--processed-suffix-count", type=int, help="CoDet PSC: suffixes of a sentence (1)"
    )
    c.add_argument("--etl", type=float, help="CoDet ETL: containment when CS/SCS exceeds it")
    c.add_argument(
        "--no-word-sorting", action="store_true", help="CoDet: keep each sentence's word order"
    )
    c.add_argument("--time-window", type=int, help="CoDet: keep only the latest N documents")
    c.add_argument(
        "--evidence",
        type=int,
        default=DEFAULT_EVIDENCE,
        metavar="N",
        help="compute the evidence (the fuzzy comparison of the two documents: containment both "
        "ways and the passages, with the preset's matching) for this many of the "
        "highest-ranked pairs, as `simdoc collection --evidence N` does, into the table "
        f"evidence; the executors read those documents again (default {DEFAULT_EVIDENCE}; 0 "
        "for none)",
    )
    return parser


def settings_of(args: argparse.Namespace) -> Settings:
    settings = Settings(
        method=args.method or "ffp",
        normaliser=args.normaliser,
        max_bytes=args.max_bytes,
        shingle_size=args.shingle_size,
        containment_threshold=args.containment_threshold,
        step=args.step,
        sampling=args.sampling,
        skipped_words=args.skipped_words,
        fingerprint_words=args.fingerprint_words,
        max_distance=args.max_distance,
        depth_threshold=args.depth_threshold,
        processed_suffix_count=args.processed_suffix_count,
        etl=args.etl,
        word_sorting=False if args.no_word_sorting else None,
        time_window=args.time_window,
        max_df=args.max_df or None,
        evidence=max(0, args.evidence),
    )
    if args.preset:
        return settings.with_preset(args.preset, args.method)
    return settings.resolved()


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("simdoc-spark")
    if args.master:
        builder = builder.master(args.master)
    elif "SPARK_HOME" not in os.environ and not os.environ.get("PYSPARK_SUBMIT_ARGS"):
        builder = builder.master("local[*]")
    spark = builder.getOrCreate()
    try:
        settings = settings_of(args)
        result = run_collection(spark, args.input, args.out, settings)
        documents = result.documents.where("error is null").count()
        errors = result.documents.where("error is not null").count()
        print(
            f"{settings.method}: {documents} documents ({errors} unreadable), "
            f"{result.pairs.count()} pairs, "
            f"{result.groups.select('group').distinct().count()} duplicate groups, "
            f"evidence for {result.evidence.where('error is null').count()} pairs; "
            f"tables in {args.out}"
        )
    except ValueError as error:
        print(f"simdoc-spark: {error}", file=sys.stderr)
        return 2
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

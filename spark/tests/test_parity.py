"""Spark (local[2]) against `simdoc collection --json` on the same folder: equal documents,
pairs and groups for every detector that runs on Spark, and the same evidence for the same
highest-ranked pairs; scores and containments equal up to float rounding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pyspark.sql import functions as F

from conftest import copy_files, simdoc_collection
from simdoc_spark import Settings, run_collection

MAX_DF = 1000


@pytest.fixture(scope="module")
def corpus(data_dir: Path, tmp_path_factory) -> Path:
    """BBC tech articles (with their byte-identical copies), the summaries of a hundred of them
    (contained in their articles) and a Reuters file of 1,000 stories with many updates."""
    root = tmp_path_factory.mktemp("parity") / "corpus"
    articles = sorted((data_dir / "documents/bbc-news/bbc/tech").glob("*.txt"))
    summaries = sorted(
        (data_dir / "documents/bbc-news-summaries/BBC News Summary/Summaries/tech").glob("*.txt")
    )[:100]
    copy_files(articles, root / "articles")
    copy_files(summaries, root / "summaries")
    copy_files([data_dir / "reference/reuters-21578/reut2-000.sgm"], root / "reuters")
    return root


def spark_tables(result):
    documents = {
        r["id"]: r["name"] for r in result.documents.where(F.col("id").isNotNull()).collect()
    }
    pairs = [
        (r["a"], r["b"], r["relation"], r["score"]) for r in result.pairs.collect()
    ]
    members = {}
    for r in result.groups.collect():
        members.setdefault(r["group"], []).append((r["position"], r["member"]))
    groups = sorted([m for _, m in sorted(ms)] for ms in members.values())
    return documents, pairs, groups


def assert_same(local: dict, documents, pairs, groups) -> None:
    assert [documents[i] for i in range(len(documents))] == local["documents"]
    expected = sorted((p["a"], p["b"], p["relation"]) for p in local["pairs"])
    assert sorted((a, b, r) for a, b, r, _ in pairs) == expected
    scores = {(p["a"], p["b"], p["relation"]): p["score"] for p in local["pairs"]}
    for a, b, relation, score in pairs:
        # Equal up to float summation order (CoDet's sums run in another order here).
        assert score == pytest.approx(scores[(a, b, relation)], rel=1e-9, abs=1e-12)
    assert groups == local["groups"]


def assert_same_evidence(local: dict, evidence, exact_scores: bool = True) -> None:
    """Spark's evidence table holds, in rank order, the pairs `simdoc collection --json` gave
    evidence, with the same evidence (containment, matched and taking-part sentences, passages).
    Without ``exact_scores`` (CoDet, whose sums run in another order here), pairs whose scores
    tie up to rounding may be ranked the other way round, and swapped at the cut."""
    expected = [p for p in local["pairs"] if "evidence" in p]
    assert expected, "one machine computed evidence"
    rows = [r.asDict() for r in evidence.orderBy("rank").collect()]
    spark_pairs = [(r["a"], r["b"]) for r in rows]
    local_pairs = [(p["a"], p["b"]) for p in expected]
    if exact_scores:
        assert spark_pairs == local_pairs
    else:
        assert len(spark_pairs) == len(local_pairs)
        scores = {(p["a"], p["b"]): p["score"] for p in local["pairs"]}
        cut = expected[-1]["score"]
        for pair in set(spark_pairs) ^ set(local_pairs):
            assert scores[pair] == pytest.approx(cut, rel=1e-9, abs=1e-12), pair
        at = {pair: p for pair, p in zip(local_pairs, expected)}
        kept = [(row, at[pair]) for row, pair in zip(rows, spark_pairs) if pair in at]
        rows, expected = [row for row, _ in kept], [p for _, p in kept]
    for row, pair in zip(rows, expected):
        want = pair["evidence"]
        assert row["error"] is None
        got = [row["containment_a"], row["containment_b"]]
        assert got == pytest.approx(want["containment"], rel=1e-9, abs=1e-12)
        assert [row["matched_a"], row["matched_b"]] == want["matched_sentences"]
        assert [row["sentences_a"], row["sentences_b"]] == want["sentences"]
        passages = json.loads(row["passages"])
        assert [{**p, "score": 0} for p in passages] == [
            {**p, "score": 0} for p in want["passages"]
        ]
        assert [p["score"] for p in passages] == pytest.approx(
            [p["score"] for p in want["passages"]], rel=1e-9, abs=1e-12
        )


@pytest.mark.parametrize(
    "method, options",
    [
        ("codet", []),
        ("codet", ["--time-window", "300", "--processed-suffix-count", "2"]),
        ("imatch", []),
        ("simhash", []),
        ("ffp", ["--max-df", str(MAX_DF)]),
        ("dsc", ["--max-df", str(MAX_DF)]),
        ("dsc", ["--max-df", str(MAX_DF), "--sampling", "hash"]),
    ],
)
def test_spark_equals_one_machine(spark, simdoc_binary, corpus, method, options):
    local = simdoc_collection(simdoc_binary, corpus, method, *options)
    # CoDet on one machine has no document-frequency cap: none here either.
    settings = Settings(
        method=method, max_df=None if method == "codet" else MAX_DF, preset="paper"
    )
    if "--sampling" in options:
        settings.sampling = options[options.index("--sampling") + 1]
    if "--time-window" in options:
        settings.time_window = 300
        settings.processed_suffix_count = 2
    result = run_collection(spark, str(corpus), None, settings)
    documents, pairs, groups = spark_tables(result)
    assert len(local["pairs"]) > 0, "the corpus must exercise the detector"
    assert_same(local, documents, pairs, groups)
    assert_same_evidence(local, result.evidence, exact_scores=method != "codet")
    if method in ("imatch", "ffp"):
        assert len(groups) > 0, "the BBC copies make duplicate groups"


@pytest.mark.parametrize("method", ["ffp", "dsc"])
def test_a_preset_runs_as_on_one_machine(spark, simdoc_binary, corpus, method):
    """``--preset news`` (FFP with 2-word shingles at 0.8, and its DSC) on Spark equals
    ``simdoc collection --preset news`` on one machine."""
    local = simdoc_collection(
        simdoc_binary, corpus, method, "--max-df", str(MAX_DF), preset="news"
    )
    settings = Settings(method=method, max_df=MAX_DF).with_preset("news", method)
    paper = Settings(method=method).with_preset("paper", method)
    assert (settings.shingle_size, settings.containment_threshold) != (
        paper.shingle_size,
        paper.containment_threshold,
    ), "the news preset differs from the papers' settings"
    result = run_collection(spark, str(corpus), None, settings)
    documents, pairs, groups = spark_tables(result)
    assert len(local["pairs"]) > 0, "the corpus must exercise the detector"
    assert_same(local, documents, pairs, groups)
    # The evidence too is the news preset's matching, not the papers'.
    assert_same_evidence(local, result.evidence)


def test_a_preset_chooses_the_method_and_spark_refuses_the_fuzzy_one():
    assert Settings().with_preset("news").method == "ffp"
    assert Settings().with_preset("paper").method == "codet"
    with pytest.raises(ValueError, match="does not run on Spark"):
        Settings().with_preset("teacher")
    assert Settings().with_preset("teacher", "ffp").method == "ffp"


def test_the_command_line_without_a_preset_takes_simdoc_collections_default():
    from simdoc_spark.cli import _parser, settings_of

    def settings(*argv):
        return settings_of(_parser().parse_args(["collection", "corpus", "--out", "o", *argv]))

    default = settings()
    assert (default.method, default.preset) == ("ffp", "documents")
    assert default.containment_threshold == Settings(method="ffp").resolved().containment_threshold
    assert (settings("--method", "imatch").method, settings("--method", "imatch").preset) == (
        "imatch",
        "documents",
    )
    assert settings("--preset", "paper").preset == "paper"
    # An option given still wins over the preset's value.
    assert settings("--containment-threshold", "0.5").containment_threshold == 0.5

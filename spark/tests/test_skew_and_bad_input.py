"""A shingle in every document must not make a quadratic join; bad input is reported per
document and the job finishes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pyspark.sql import functions as F

from conftest import simdoc_collection
from simdoc_spark import Settings, run_collection
from test_parity import assert_same, spark_tables

BOILERPLATE = (
    "This story was reproduced under licence from the archive of the national newspaper "
    "association and may not be redistributed without written permission."
)


@pytest.fixture(scope="module")
def boilerplate_corpus(data_dir: Path, tmp_path_factory) -> Path:
    """200 BBC business articles, each ending with the same boilerplate sentence, and copies of
    five of them."""
    root = tmp_path_factory.mktemp("skew") / "corpus"
    root.mkdir()
    articles = sorted((data_dir / "documents/bbc-news/bbc/business").glob("*.txt"))[:200]
    for article in articles:
        text = article.read_text(encoding="utf-8", errors="replace")
        (root / article.name).write_text(f"{text}\n\n{BOILERPLATE}\n", encoding="utf-8")
    for article in articles[:5]:
        (root / f"copy-{article.name}").write_bytes((root / article.name).read_bytes())
    return root


def test_a_boilerplate_shingle_is_capped_and_both_paths_agree(
    spark, simdoc_binary, boilerplate_corpus
):
    n = 205
    uncapped = run_collection(
        spark, str(boilerplate_corpus), None, Settings(method="ffp", max_df=None, preset="paper")
    )
    # Without the cap every pair shares the boilerplate: the join is quadratic.
    assert uncapped.candidates == n * (n - 1) // 2
    capped = run_collection(spark, str(boilerplate_corpus), None, Settings(method="ffp", max_df=50, preset="paper"))
    assert capped.candidates < n * (n - 1) // 2 // 20
    local = simdoc_collection(simdoc_binary, boilerplate_corpus, "ffp", "--max-df", "50")
    assert_same(local, *spark_tables(capped))
    # The copies are still found, through their rarer shingles.
    assert len(local["groups"]) >= 5


@pytest.fixture(scope="module")
def bad_corpus(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("bad") / "corpus"
    root.mkdir()
    story = "The harbour reopened on Monday after the storm. Ferries sail again from noon."
    (root / "a-good.txt").write_text(story, encoding="utf-8")
    (root / "b-copy.txt").write_text(story, encoding="utf-8")
    (root / "c-binary.bin").write_bytes(b"\x00\x01\x02\x00" * 64)
    (root / "d-large.txt").write_text(story * 100, encoding="utf-8")
    (root / "e-latin1.txt").write_bytes("Caf\u00e9 prices rose in M\u00fcnchen.".encode("latin-1"))
    os.symlink(root / "missing-target.txt", root / "f-unreadable.txt")
    # A file describing its folder: left out by both paths, as simdoc collection does.
    (root / "README.txt").write_text(story, encoding="utf-8")
    return root


def test_bad_input_is_reported_per_document_and_the_job_finishes(
    spark, simdoc_binary, bad_corpus, tmp_path
):
    out = tmp_path / "tables"
    settings = Settings(method="imatch", max_bytes=2000, skipped_words=0, preset="paper")
    result = run_collection(spark, str(bad_corpus), str(out), settings)
    rows = {
        Path(r["name"]).name: r
        for r in result.documents.collect()
    }
    # The broken symbolic link is left out by the listing, named there as a link not followed
    # (the crate's folder walk, as simdoc collection lists it), not read as a document.
    assert sorted(rows) == [
        "a-good.txt", "b-copy.txt", "c-binary.bin", "d-large.txt", "e-latin1.txt",
    ]
    assert [rows[n]["id"] for n in ("a-good.txt", "b-copy.txt", "e-latin1.txt")] == [0, 1, 2]
    for name in ("c-binary.bin", "d-large.txt"):
        assert rows[name]["id"] is None
        assert rows[name]["error"], name
    assert "binary" in rows["c-binary.bin"]["error"]
    assert "2000" in rows["d-large.txt"]["error"]
    assert rows["e-latin1.txt"]["error"] is None
    assert rows["e-latin1.txt"]["warning"] == "not valid UTF-8: read as windows-1252"
    assert [(r["a"], r["b"], r["relation"]) for r in result.pairs.collect()] == [
        (0, 1, "duplicate")
    ]
    # One machine reads the same documents (it skips the unreadable ones with a message).
    local = simdoc_collection(
        simdoc_binary, bad_corpus, "imatch", "--max-bytes", "2000", "--skipped-words", "0"
    )
    assert_same(local, *spark_tables(result))
    assert (out / "documents").is_dir() and (out / "pairs").is_dir() and (out / "groups").is_dir()
    # The tables read back.
    documents = spark.read.parquet(str(out / "documents"))
    assert documents.where(F.col("error").isNotNull()).count() == 2

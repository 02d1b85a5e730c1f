"""The evidence stage: a table's documents compared on the executors as the same texts in a
folder are on one machine, and read back by `simdoc collection --from`; `--evidence 0` computes
none; a document gone between the passes leaves its pair an error, not a failed job. (The
parity suite checks the evidence of folder input for every detector.)"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from pyspark.sql import functions as F

import simdoc_spark.detect as detect
from conftest import simdoc_collection
from simdoc_spark import Settings, run_collection
from test_parity import assert_same_evidence, spark_tables
from test_tables_input import STORIES


def from_tables(binary: Path, out: Path) -> tuple[dict, str]:
    """`simdoc collection --from OUT --json`: the report as a dict, and what it said on stderr."""
    report = out.parent / f"{out.name}-from.json"
    run = subprocess.run(
        [str(binary), "collection", "--from", str(out), "--json", str(report), "--show", "0"],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(report.read_text(encoding="utf-8")), run.stderr


@pytest.fixture(scope="module")
def texts(data_dir: Path) -> dict[str, str]:
    """Sixty BBC tech articles and their summaries (whose sentences are taken from them), by id
    in the order both sides number them."""
    tech = data_dir / "documents/bbc-news/bbc/tech"
    summaries = data_dir / "documents/bbc-news-summaries/BBC News Summary/Summaries/tech"
    texts = {}
    for kind, folder in (("article", tech), ("summary", summaries)):
        for file in sorted(folder.glob("*.txt"))[:60]:
            texts[f"{kind}-{file.stem}"] = file.read_bytes().decode("utf-8", errors="replace")
    return texts


def test_a_tables_evidence_equals_one_machines_and_reads_back(
    spark, simdoc_binary, texts, tmp_path: Path
):
    table = tmp_path / "documents.jsonl"
    table.write_text(
        "\n".join(json.dumps({"id": i, "text": t}) for i, t in texts.items()), encoding="utf-8"
    )
    folder = tmp_path / "folder"
    folder.mkdir()
    for i, text in texts.items():
        (folder / f"{i}.txt").write_text(text, encoding="utf-8")

    out = tmp_path / "out"
    result = run_collection(spark, str(table), str(out), Settings(method="ffp", preset="paper"))
    documents, pairs, _ = spark_tables(result)
    assert [documents[i] for i in range(len(documents))] == list(texts)
    local = simdoc_collection(simdoc_binary, folder, "ffp")
    assert sorted((p["a"], p["b"], p["relation"]) for p in local["pairs"]) == sorted(
        (a, b, r) for a, b, r, _ in pairs
    )
    assert len(pairs) >= 20, "the summaries are found in their articles"
    assert_same_evidence(local, result.evidence)

    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert run["evidence"] == len(pairs)
    # The desktop shows the cluster's evidence as its own: the same JSON as one machine's.
    shown, _ = from_tables(simdoc_binary, out)
    assert [(p["a"], p["b"]) for p in shown["pairs"]] == [(p["a"], p["b"]) for p in local["pairs"]]
    for here, there in zip(shown["pairs"], local["pairs"]):
        assert here["evidence"]["containment"] == pytest.approx(
            there["evidence"]["containment"], rel=1e-9, abs=1e-12
        )
        assert here["evidence"]["matched_sentences"] == there["evidence"]["matched_sentences"]
        assert len(here["evidence"]["passages"]) == len(there["evidence"]["passages"])


@pytest.fixture()
def stories(tmp_path: Path) -> Path:
    """Two copies of the harbour story and two of the budget story: two duplicate pairs."""
    folder = tmp_path / "stories"
    folder.mkdir()
    for name, story in (
        ("a-harbour", "harbour"),
        ("b-harbour", "harbour"),
        ("c-budget", "budget"),
        ("d-budget", "budget"),
    ):
        (folder / f"{name}.txt").write_text(STORIES[story], encoding="utf-8")
    return folder


def test_evidence_0_computes_none(spark, simdoc_binary, stories, tmp_path: Path):
    out = tmp_path / "out"
    settings = Settings(method="imatch", skipped_words=0, evidence=0, preset="paper")
    result = run_collection(spark, str(stories), str(out), settings)
    assert result.pairs.count() == 2
    assert result.evidence.count() == 0
    assert spark.read.parquet(str(out / "evidence")).count() == 0
    assert json.loads((out / "run.json").read_text(encoding="utf-8"))["evidence"] == 0
    shown, _ = from_tables(simdoc_binary, out)
    assert len(shown["pairs"]) == 2
    assert all("evidence" not in p for p in shown["pairs"])


def test_a_file_gone_between_the_passes_leaves_its_pair_an_error(
    spark, simdoc_binary, stories, tmp_path: Path, monkeypatch
):
    wanted = detect._evidence_wanted

    def remove_a_file_first(*args, **kwargs):
        (stories / "b-harbour.txt").unlink()
        return wanted(*args, **kwargs)

    monkeypatch.setattr(detect, "_evidence_wanted", remove_a_file_first)
    out = tmp_path / "out"
    result = run_collection(
        spark, str(stories), str(out), Settings(method="imatch", skipped_words=0, preset="paper")
    )
    rows = {(r["a"], r["b"]): r for r in result.evidence.collect()}
    assert sorted(rows) == [(0, 1), (2, 3)]
    assert "b-harbour.txt" in rows[(0, 1)]["error"]
    assert rows[(0, 1)]["containment_a"] is None
    assert rows[(2, 3)]["error"] is None
    assert rows[(2, 3)]["containment_a"] == pytest.approx(1.0)
    assert result.evidence.where(F.col("error").isNotNull()).count() == 1

    shown, stderr = from_tables(simdoc_binary, out)
    evidence = {(p["a"], p["b"]): p.get("evidence") for p in shown["pairs"]}
    assert evidence[(0, 1)] is None
    assert evidence[(2, 3)]["containment"] == [1.0, 1.0]
    assert "no evidence for" in stderr and "b-harbour.txt" in stderr


def test_without_a_preset_a_run_is_simdoc_collections_default_and_reads_as_compare(
    spark, simdoc_binary, texts, tmp_path: Path
):
    """No preset named: the same run as `simdoc collection --method ffp` without one (the
    documents preset: its parameters, and evidence judged against chance), and a pair's evidence
    is the containment `simdoc compare` reports for its two documents."""
    folder = tmp_path / "folder"
    folder.mkdir()
    for i, text in texts.items():
        (folder / f"{i}.txt").write_text(text, encoding="utf-8")
    settings = Settings(method="ffp")
    resolved = settings.resolved()
    assert resolved.preset == "documents"
    paper = Settings(method="ffp").with_preset("paper", "ffp")
    assert (resolved.shingle_size, resolved.containment_threshold) != (
        paper.shingle_size,
        paper.containment_threshold,
    ), "the documents preset's FFP differs from the papers'"

    result = run_collection(spark, str(folder), None, settings)
    local = simdoc_collection(simdoc_binary, folder, "ffp", preset=None)
    documents, pairs, _ = spark_tables(result)
    assert sorted((p["a"], p["b"], p["relation"]) for p in local["pairs"]) == sorted(
        (a, b, r) for a, b, r, _ in pairs
    )
    assert_same_evidence(local, result.evidence)

    first = result.evidence.orderBy("rank").first()
    compared = subprocess.run(
        # A folder's documents are named by their paths.
        [str(simdoc_binary), "compare", documents[first["a"]], documents[first["b"]],
         "--json", "-"],
        check=True,
        capture_output=True,
        text=True,
    )
    containment = json.loads(compared.stdout)["figures"]["containment"]
    assert [first["containment_a"], first["containment_b"]] == pytest.approx(
        containment, rel=1e-9, abs=1e-12
    )

"""A JSONL table of documents (id, text, timestamp): stream order by timestamp, the same pairs
and groups as the same texts in a folder whose sorted order is that timestamp order."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import simdoc_collection
from simdoc_spark import Settings, run_collection
from test_parity import spark_tables

STORIES = {
    "harbour": "The harbour reopened on Monday after the storm. Ferries sail again from noon. "
    "Fishermen counted the damage to their boats along the eastern quay.",
    "budget": "The council approved the budget after a long debate. Libraries keep their hours. "
    "Road repairs are delayed until the spring because of the cost of materials.",
    "orchestra": "The orchestra opened its season with a new symphony. Critics praised the young "
    "conductor and the brass section for a bold reading of the finale.",
}


def test_a_table_is_numbered_by_timestamp(spark, simdoc_binary, tmp_path: Path):
    # (id, story, timestamp): two copies of the harbour story, given out of time order.
    rows = [
        ("z-late", "harbour", "2024-03-05T10:00:00"),
        ("m-budget", "budget", "2024-03-01T09:00:00"),
        ("a-first", "harbour", "2024-03-02T08:00:00"),
        ("k-music", "orchestra", "2024-03-04T12:00:00"),
        ("b-copy", "budget", "2024-03-03T07:00:00"),
    ]
    table = tmp_path / "documents.jsonl"
    table.write_text(
        "\n".join(json.dumps({"id": i, "text": STORIES[s], "timestamp": t}) for i, s, t in rows),
        encoding="utf-8",
    )
    folder = tmp_path / "folder"
    folder.mkdir()
    for i, s, t in rows:
        (folder / f"{t[:10]}-{i}.txt").write_text(STORIES[s], encoding="utf-8")

    settings = Settings(method="imatch", skipped_words=0, preset="paper")
    result = run_collection(spark, str(table), None, settings)
    documents, pairs, groups = spark_tables(result)
    assert [documents[i] for i in range(5)] == ["m-budget", "a-first", "b-copy", "k-music", "z-late"]
    assert sorted((a, b, r) for a, b, r, _ in pairs) == [(0, 2, "duplicate"), (1, 4, "duplicate")]
    assert groups == [[0, 2], [1, 4]]

    local = simdoc_collection(simdoc_binary, folder, "imatch", "--skipped-words", "0")
    assert sorted((p["a"], p["b"], p["relation"]) for p in local["pairs"]) == sorted(
        (a, b, r) for a, b, r, _ in pairs
    )
    assert local["groups"] == groups

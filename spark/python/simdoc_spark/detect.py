"""The collection pipeline on Spark: read and prepare, number, sign, join, verify, group, compare
the highest-ranked pairs for their evidence, write.

Stream order (the order ``simdoc collection`` numbers documents in, which CoDet-style streaming
and "ties to the earliest" depend on) is assigned by the driver: from simdoc's own sorted file
listing (entries of container files in file order), or from a table's timestamp column, never
from ``monotonically_increasing_id``, so that a rerun gives the same ids.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import asdict, dataclass

import pyarrow as pa
from pyspark.sql import DataFrame, SparkSession, Window
from pyspark.sql import functions as F

from . import _native
from .components import connected_components

#: The detectors that run on Spark with the same results as on one machine.
METHODS = ("codet", "imatch", "simhash", "ffp", "dsc")

#: The document-frequency cap for FFP and DSC on Spark (see ``Settings.max_df``).
DEFAULT_MAX_DF = 1000

#: The collection preset a run takes its parameters and its evidence's matching from when none is
#: named: ``simdoc collection``'s without sources marked (``CollectionPreset::for_question``),
#: so that a pair reads the same containment on Spark, on one machine and in ``simdoc compare``
#: (the documents preset's matching is ``compare``'s default, judged against chance).
DEFAULT_PRESET = "documents"

#: Pairs given evidence by default, as ``simdoc collection --evidence`` (see ``Settings.evidence``).
DEFAULT_EVIDENCE = 500

PREPARED_SCHEMA = (
    "file_index long, entry_index int, name string, length long, warning string, "
    "error string, terms array<string>, hashes array<long>, sentences array<array<string>>, "
    "sentence_count long"
)
PAIRS_SCHEMA = "a long, b long, relation string, score double, evidence string"
RANKED_SCHEMA = "a long, b long, relation string, score double"
EVIDENCE_SCHEMA = (
    "rank long, a long, b long, containment_a double, containment_b double, matched_a long, "
    "matched_b long, sentences_a long, sentences_b long, passages string, error string"
)


@dataclass
class Settings:
    """A detector and its parameters; fields left as None take the preset's values (the
    documents preset's, as ``simdoc collection`` takes when none is named; ``preset="paper"``
    for the papers' own), so the executors run exactly what ``simdoc collection`` runs."""

    method: str = "ffp"
    normaliser: str = "refine"
    max_bytes: int | None = None
    shingle_size: int | None = None
    containment_threshold: float | None = None
    step: int | None = None
    sampling: str | None = None
    skipped_words: int | None = None
    fingerprint_words: int | None = None
    max_distance: int | None = None
    depth_threshold: int | None = None
    processed_suffix_count: int | None = None
    etl: float | None = None
    word_sorting: bool | None = None
    #: CoDet: keep only the latest N documents in the tree (pairs fewer than N apart).
    time_window: int | None = None
    #: FFP, DSC, CoDet: a hash held by more documents than this counts as shared by none, so a
    #: boilerplate sentence in every document does not make a quadratic self-join (as Passim
    #: caps n-gram document frequencies); for CoDet the same holds for a corpus-tree node.
    #: ``simdoc collection --max-df N`` applies the same rule for FFP and DSC; CoDet on one
    #: machine has no cap, so its results equal these while no node is in more documents than
    #: the cap. None switches it off.
    max_df: int | None = DEFAULT_MAX_DF
    #: Files or rows per Spark task in the first pass.
    rows_per_partition: int = 256
    #: The collection preset the parameters are taken from (``with_preset``); None for
    #: ``DEFAULT_PRESET``, applied when the run starts (``resolved``). The evidence uses its
    #: fuzzy matching, as ``simdoc collection --preset NAME`` does.
    preset: str | None = None
    #: The evidence (the thesis's fuzzy comparison of the two documents, sect. 3.2.2, summed up
    #: as containment both ways, and the passages) is computed for this many of the
    #: highest-ranked pairs, ranked and cut by the same sentence budget as ``simdoc
    #: collection --evidence N``; 0 for none.
    evidence: int = DEFAULT_EVIDENCE

    def native_options(self) -> str:
        """The options as the Rust extension reads them (JSON, library defaults for None)."""
        if self.method not in METHODS:
            raise ValueError(f"method {self.method!r} does not run on Spark; one of {METHODS}")
        options = {
            k: v
            for k, v in asdict(self).items()
            if v is not None
            and k not in ("max_df", "rows_per_partition", "time_window", "preset", "evidence")
        }
        return json.dumps(options)

    def evidence_preset(self) -> str:
        """The collection preset whose fuzzy matching the evidence is computed with."""
        return self.preset or DEFAULT_PRESET

    def resolved(self) -> "Settings":
        """These settings with a preset: their own, else ``DEFAULT_PRESET`` with this method
        (what ``simdoc collection --method METHOD`` runs when no preset is named)."""
        return self if self.preset else self.with_preset(DEFAULT_PRESET, self.method)

    def with_preset(self, preset: str, method: str | None = None) -> "Settings":
        """These settings with every parameter left unset (None) taken from the collection
        preset ``preset`` (paper, teacher or news), and the method from it unless ``method`` is
        given: what ``simdoc collection --preset PRESET [--method METHOD]`` runs. A preset whose
        detector does not run on Spark (the teacher preset's fuzzy comparison) needs a
        method."""
        values = json.loads(_native.preset_options(preset, method))
        fields = asdict(self)
        fields["method"] = method or values.pop("method")
        fields["preset"] = preset
        for key, value in values.items():
            if key in fields and fields[key] is None:
                fields[key] = value
        return Settings(**fields)


def _map_arrow(frame: DataFrame, function, schema: str) -> DataFrame:
    def run(batches):
        for batch in batches:
            yield function(batch)

    return frame.mapInArrow(run, schema)


@dataclass
class _Prepared:
    #: One row per document (see the extension's prepare module for the columns).
    documents: DataFrame
    #: Where each ``file_index`` is read from again for the evidence: ``path`` (folder input)
    #: or ``name`` and ``text`` (table input).
    sources: DataFrame


def _prepare(spark: SparkSession, source: str, settings: Settings) -> _Prepared:
    """The first pass: every document read and prepared."""
    options = settings.native_options()
    if os.path.isdir(source) or not source.endswith((".parquet", ".jsonl", ".json")):
        files = _native.list_files([source])
        if not files:
            raise ValueError(f"{source}: no file found")
        partitions = max(1, -(-len(files) // settings.rows_per_partition))
        listing = spark.createDataFrame(
            list(enumerate(files)), "file_index long, path string"
        ).repartition(partitions)
        return _Prepared(
            _map_arrow(listing, lambda b: _native.prepare_files(b, options), PREPARED_SCHEMA),
            listing,
        )
    table = (
        spark.read.parquet(source) if source.endswith(".parquet") else spark.read.json(source)
    )
    if "text" not in table.columns or "id" not in table.columns:
        raise ValueError(f"{source}: a table of documents needs the columns id and text")
    # Stream order: by timestamp when there is one, then by id; numbered without
    # monotonically_increasing_id (zipWithIndex over the sorted rows is reproducible).
    order = (["timestamp"] if "timestamp" in table.columns else []) + ["id"]
    ordered = table.orderBy(*order).select(F.col("id").cast("string").alias("name"), "text")
    rows = ordered.rdd.zipWithIndex().map(lambda r: (r[1], r[0][0], r[0][1]))
    text_type = dict(table.dtypes)["text"]
    numbered = spark.createDataFrame(rows, f"row long, name string, text {text_type}")
    partitions = max(1, -(-table.count() // settings.rows_per_partition))
    return _Prepared(
        _map_arrow(
            numbered.repartition(partitions),
            lambda b: _native.prepare_texts(b, options),
            PREPARED_SCHEMA,
        ),
        numbered.withColumnRenamed("row", "file_index"),
    )


def _number(spark: SparkSession, prepared: DataFrame) -> DataFrame:
    """Adds ``id``: the position among readable documents in stream order (file, then entry).
    The driver sums the per-file counts of readable documents in listing order; a file whose
    reading failed holds one row, the error, and no id."""
    counts = (
        prepared.where(F.col("error").isNull())
        .groupBy("file_index")
        .count()
        .orderBy("file_index")
        .collect()
    )
    offsets, total = [], 0
    for row in counts:
        offsets.append((row["file_index"], total))
        total += row["count"]
    offset_frame = spark.createDataFrame(offsets, "file_index long, offset long")
    return prepared.join(F.broadcast(offset_frame), "file_index", "left").withColumn(
        "id",
        F.when(
            F.col("error").isNull(), F.col("offset") + F.col("entry_index").cast("long")
        ),
    )


def _shingle_candidates(docs: DataFrame, settings: Settings) -> DataFrame:
    """FFP, DSC: pairs sharing a hash, with the number of hashes shared (hashes held by more
    than ``max_df`` documents left out) and each document's number of hashes."""
    sizes = docs.select("id", F.size("hashes").cast("long").alias("size"))
    postings = docs.select("id", F.explode("hashes").alias("hash"))
    frequencies = postings.groupBy("hash").agg(F.count("*").alias("df")).where(F.col("df") > 1)
    if settings.max_df is not None:
        frequencies = frequencies.where(F.col("df") <= settings.max_df)
    shared = postings.join(frequencies.select("hash"), "hash")
    left, right = shared.alias("l"), shared.alias("r")
    counted = (
        left.join(right, (F.col("l.hash") == F.col("r.hash")) & (F.col("l.id") < F.col("r.id")))
        .groupBy(F.col("l.id").alias("a"), F.col("r.id").alias("b"))
        .agg(F.count("*").alias("shared"))
    )
    return (
        counted.join(sizes.select(F.col("id").alias("a"), F.col("size").alias("a_size")), "a")
        .join(sizes.select(F.col("id").alias("b"), F.col("size").alias("b_size")), "b")
        .select("a", "b", "shared", "a_size", "b_size")
    )


def _with_frequencies(docs: DataFrame, *keep: str) -> DataFrame:
    """Each document's distinct terms with their document frequencies, counted by GROUP BY
    over the terms of all documents (the first pass of the idf-ranked detectors)."""
    terms = docs.select("id", F.explode("terms").alias("term"))
    frequencies = terms.groupBy("term").agg(F.count("*").alias("df"))
    with_df = (
        terms.join(frequencies, "term")
        .groupBy("id")
        .agg(F.collect_list(F.struct("term", "df")).alias("terms"))
    )
    # Documents without a term go through too (no fingerprint), so every id is signed.
    return docs.select("id", *keep).join(with_df, "id", "left").select(
        "id",
        F.coalesce("terms", F.array().cast("array<struct<term:string,df:bigint>>")).alias(
            "terms"
        ),
        *keep,
    )


def _codet_candidates(docs: DataFrame, documents: int, settings: Settings, clock) -> DataFrame:
    """CoDet: the corpus-tree nodes of every document (the extension walks each sentence as the
    tree would), a self-join on node (nodes in more than ``max_df`` documents left out), and
    eq. 1 as a sum over the shared nodes; SCS over all of a document's nodes."""
    options = settings.native_options()
    nodes = clock.force(
        "sign",
        _map_arrow(
            _with_frequencies(docs, "sentences"),
            lambda b: _native.nodes(b, documents, options),
            "id long, node long, count long, impact double",
        ),
    )
    scs = nodes.groupBy("id").agg(
        F.sum(F.col("impact") * F.col("count") * F.col("count")).alias("scs")
    )
    frequencies = nodes.groupBy("node").agg(F.count("*").alias("df")).where(F.col("df") > 1)
    if settings.max_df is not None:
        frequencies = frequencies.where(F.col("df") <= settings.max_df)
    shared = nodes.join(frequencies.select("node"), "node")
    left, right = shared.alias("l"), shared.alias("r")
    condition = (F.col("l.node") == F.col("r.node")) & (F.col("l.id") < F.col("r.id"))
    if settings.time_window is not None:
        # The tree holds the latest N documents: b meets a only when b - a < N.
        condition = condition & (F.col("r.id") - F.col("l.id") < max(1, settings.time_window))
    summed = (
        left.join(right, condition)
        .groupBy(F.col("l.id").alias("a"), F.col("r.id").alias("b"))
        .agg(F.sum(F.col("l.impact") * F.col("l.count") * F.col("r.count")).alias("cs"))
    )
    return (
        summed.join(scs.select(F.col("id").alias("a"), F.col("scs").alias("a_scs")), "a")
        .join(scs.select(F.col("id").alias("b"), F.col("scs").alias("b_scs")), "b")
        .select("a", "b", "cs", "a_scs", "b_scs")
    )


def _signed(docs: DataFrame, documents: int, settings: Settings, signature: str) -> DataFrame:
    """I-Match, SimHash: each document's terms with their frequencies to the extension, which
    ranks and fingerprints them."""
    every = _with_frequencies(docs)
    options = settings.native_options()
    return _map_arrow(
        every,
        lambda b: _native.sign(b, documents, options),
        f"id long, {signature}",
    ).where(F.col(signature.split()[0]).isNotNull())


def _simhash_blocks(max_distance: int) -> list[tuple[int, int]]:
    """(shift, mask) of the k + 1 pigeonhole blocks, as simdoc's BlockIndex cuts 64 bits."""
    count = min(max_distance, 63) + 1
    blocks, shift = [], 0
    for i in range(count):
        width = 64 // count + (1 if i < 64 % count else 0)
        blocks.append((shift, (1 << width) - 1 if width < 64 else -1))
        shift += width
    return blocks


def _candidates(
    docs: DataFrame, documents: int, settings: Settings, clock: _Clock
) -> DataFrame:
    method = settings.method
    if method in ("ffp", "dsc"):
        return _shingle_candidates(docs, settings)
    if method == "codet":
        return _codet_candidates(docs, documents, settings, clock)
    if method == "imatch":
        signed = clock.force("sign", _signed(docs, documents, settings, "fingerprint binary"))
        left, right = signed.alias("l"), signed.alias("r")
        return left.join(
            right,
            (F.col("l.fingerprint") == F.col("r.fingerprint")) & (F.col("l.id") < F.col("r.id")),
        ).select(F.col("l.id").alias("a"), F.col("r.id").alias("b"))
    signed = clock.force("sign", _signed(docs, documents, settings, "simhash long"))
    max_distance = settings.max_distance if settings.max_distance is not None else 2
    blocks = _simhash_blocks(max_distance)
    keyed = signed.select(
        "id",
        "simhash",
        F.explode(
            F.array(
                *[
                    F.struct(
                        F.lit(i).alias("block"),
                        F.shiftrightunsigned("simhash", shift).bitwiseAND(F.lit(mask)).alias(
                            "key"
                        ),
                    )
                    for i, (shift, mask) in enumerate(blocks)
                ]
            )
        ).alias("k"),
    ).select("id", "simhash", "k.block", "k.key")
    left, right = keyed.alias("l"), keyed.alias("r")
    return (
        left.join(
            right,
            (F.col("l.block") == F.col("r.block"))
            & (F.col("l.key") == F.col("r.key"))
            & (F.col("l.id") < F.col("r.id")),
        )
        .select(
            F.col("l.id").alias("a"),
            F.col("r.id").alias("b"),
            F.bit_count(F.col("l.simhash").bitwiseXOR(F.col("r.simhash"))).cast("long").alias(
                "distance"
            ),
        )
        .distinct()
        .where(F.col("distance") <= max_distance)
    )


def _groups(pairs: DataFrame, documents: DataFrame) -> DataFrame:
    """Duplicate groups: connected components of the duplicate relations. Each group is named
    by the document to keep, the longest (Roul et al. step 11; CoDet), ties to the earliest;
    ``position`` 0 is that document, the others follow in stream order."""
    duplicates = pairs.where(
        F.col("relation").isin(
            "duplicate", "exact_duplicate", "textual_duplicate", "conceptual_duplicate"
        )
    ).select(F.col("a").alias("u"), F.col("b").alias("v"))
    components = connected_components(duplicates)
    members = components.join(
        documents.select(F.col("id").alias("node"), "length"), "node"
    )
    keep = Window.partitionBy("root").orderBy(F.col("length").desc(), F.col("node").asc())
    ranked = members.withColumn("keep_rank", F.row_number().over(keep))
    kept = ranked.where(F.col("keep_rank") == 1).select("root", F.col("node").alias("group"))
    within = Window.partitionBy("root").orderBy(
        F.when(F.col("keep_rank") == 1, 0).otherwise(1), F.col("node")
    )
    return (
        ranked.join(kept, "root")
        .withColumn("position", F.row_number().over(within) - 1)
        .select("group", F.col("node").alias("member"), F.col("position").cast("int"))
    )


def _ranked(pairs: DataFrame, limit: int) -> list[tuple[int, int]]:
    """The first ``limit`` pairs (a, b) in the order ``simdoc collection`` reports them, ranked
    by the library: each batch keeps its first ``limit``, the driver ranks what they kept (the
    order is total, so these are the first ``limit`` of all)."""
    kept = _map_arrow(
        pairs.select("a", "b", "relation", "score"),
        lambda b: _native.rank_pairs(b, limit),
        RANKED_SCHEMA,
    ).collect()
    if not kept:
        return []
    batch = pa.record_batch(
        [
            pa.array([r["a"] for r in kept], pa.int64()),
            pa.array([r["b"] for r in kept], pa.int64()),
            pa.array([r["relation"] for r in kept], pa.string()),
            pa.array([r["score"] for r in kept], pa.float64()),
        ],
        names=["a", "b", "relation", "score"],
    )
    ranked = _native.rank_pairs(batch, limit)
    return list(zip(ranked.column("a").to_pylist(), ranked.column("b").to_pylist()))


def _evidence_wanted(pairs: DataFrame, readable: DataFrame, limit: int) -> list[tuple[int, int]]:
    """The pairs whose evidence ``simdoc collection --evidence LIMIT`` computes: the first
    ``limit`` ranked, cut where their documents pass the sentence budget (a pair of pages of
    10,000 repeated headings costs half a second of comparing)."""
    if limit <= 0:
        return []
    wanted = _ranked(pairs, limit)
    ids = sorted({d for pair in wanted for d in pair})
    sentences = {
        r["id"]: r["sentence_count"]
        for r in readable.where(F.col("id").isin(ids)).select("id", "sentence_count").collect()
    }
    affordable = _native.pairs_within_budget(wanted, sentences)
    if affordable < len(wanted):
        print(
            f"simdoc-spark: evidence for the first {affordable} pairs only: the documents of "
            "the next ones would take the comparison past the sentence budget",
            file=sys.stderr,
        )
    return wanted[:affordable]


def _evidence(
    spark: SparkSession,
    wanted: list[tuple[int, int]],
    readable: DataFrame,
    sources: DataFrame,
    settings: Settings,
) -> DataFrame:
    """The evidence of ``wanted`` (ranked pairs): each pair's two documents located (a file's
    path and entry, or a table's text), spread over the executors, compared there by the
    extension with the library's code (the evidence module)."""
    if not wanted:
        return spark.createDataFrame([], EVIDENCE_SCHEMA)
    ranked = spark.createDataFrame(
        [(rank, a, b) for rank, (a, b) in enumerate(wanted)], "rank long, a long, b long"
    )
    # Only the wanted documents are located (a table's texts are not all sent round).
    ids = sorted({d for pair in wanted for d in pair})
    located = (
        readable.where(F.col("id").isin(ids))
        .select("id", "file_index", "entry_index")
        .join(sources, "file_index")
    )
    if "path" in sources.columns:
        side = {"path": "path", "entry_index": "entry"}
    else:
        side = {"name": "name", "text": "text"}
    for prefix in ("a", "b"):
        columns = [F.col("id").alias(prefix)] + [
            F.col(column).alias(f"{prefix}_{name}") for column, name in side.items()
        ]
        ranked = ranked.join(F.broadcast(located.select(*columns)), prefix)
    partitions = max(1, min(len(wanted), spark.sparkContext.defaultParallelism))
    options = settings.native_options()
    preset = settings.evidence_preset()
    return _map_arrow(
        ranked.repartition(partitions),
        lambda b: _native.pair_evidence(b, options, preset),
        EVIDENCE_SCHEMA,
    )


class _Clock:
    """Wall time per stage, when asked for (the benchmark): a stage's frame is persisted and
    counted so that the next stage's time does not include it."""

    def __init__(self, timings: dict | None):
        self.timings = timings
        self.start = time.perf_counter()

    def force(self, stage: str, frame: DataFrame) -> DataFrame:
        if self.timings is None:
            return frame
        frame = frame.persist()
        frame.count()
        self.lap(stage)
        return frame

    def lap(self, stage: str) -> None:
        if self.timings is not None:
            now = time.perf_counter()
            self.timings[stage] = self.timings.get(stage, 0.0) + now - self.start
            self.start = now


@dataclass
class Result:
    documents: DataFrame
    pairs: DataFrame
    groups: DataFrame
    #: Candidate pairs the joins produced before verification (the size of the join).
    candidates: int
    #: The evidence of the highest-ranked pairs (``Settings.evidence``), one row per pair in
    #: rank order (``rank`` from 0), with ``error`` set when its documents could not be read.
    evidence: DataFrame


def run_collection(
    spark: SparkSession,
    source: str,
    out: str | None,
    settings: Settings,
    timings: dict | None = None,
) -> Result:
    """Runs a detector over a folder (or a Parquet/JSONL table of id, text[, timestamp]) and,
    with ``out``, writes the Parquet tables ``documents``, ``pairs``, ``groups`` and
    ``evidence`` there plus ``run.json`` (the method and its settings). With ``timings``, the
    wall time of each stage (prepare, sign, join, verify, groups, evidence) is added to it in
    seconds."""
    clock = _Clock(timings)
    settings = settings.resolved()
    first_pass = _prepare(spark, source, settings)
    # Kept: numbering reads it twice (per-file counts, then the ids), and files are read once.
    prepared = first_pass.documents.persist()
    numbered = _number(spark, prepared).persist()
    documents = numbered.select(
        "id", "name", "length", "warning", "error", "file_index", "entry_index"
    )
    readable = numbered.where(F.col("id").isNotNull())
    total = readable.count()
    clock.lap("prepare")
    candidates = _candidates(readable, total, settings, clock).persist()
    candidate_count = candidates.count()
    clock.lap("join")
    options = settings.native_options()
    pairs = _map_arrow(
        candidates, lambda b: _native.verify(b, options), PAIRS_SCHEMA
    ).persist()
    pairs.count()
    clock.lap("verify")
    groups = _groups(pairs, readable).persist()
    groups.count()
    clock.lap("groups")
    wanted = _evidence_wanted(pairs, readable, settings.evidence)
    evidence = _evidence(spark, wanted, readable, first_pass.sources, settings).persist()
    evidence.count()
    clock.lap("evidence")
    result = Result(documents, pairs, groups, candidate_count, evidence)
    if out is not None:
        write_tables(result, out, settings, total)
    return result


def write_tables(result: Result, out: str, settings: Settings, readable: int) -> None:
    """The four tables in ``out`` as Parquet, each sorted (its part files in order), and
    ``run.json``; ``out`` is a local path here (the driver writes ``run.json`` itself). The
    evidence table is written even when empty (``--evidence 0``), so that a reader tells "none
    asked for" from a run before the table existed."""
    os.makedirs(out, exist_ok=True)
    result.documents.orderBy("file_index", "entry_index").write.mode("overwrite").parquet(
        os.path.join(out, "documents")
    )
    result.pairs.orderBy("a", "b", "relation").write.mode("overwrite").parquet(
        os.path.join(out, "pairs")
    )
    result.groups.orderBy("group", "position").write.mode("overwrite").parquet(
        os.path.join(out, "groups")
    )
    result.evidence.orderBy("rank").write.mode("overwrite").parquet(
        os.path.join(out, "evidence")
    )
    settings_out = asdict(settings)
    with open(os.path.join(out, "run.json"), "w", encoding="utf-8") as f:
        json.dump(
            {
                "method": settings.method,
                "settings": settings_out,
                "documents": readable,
                "candidates": result.candidates,
                "evidence": result.evidence.count(),
            },
            f,
            indent=2,
        )

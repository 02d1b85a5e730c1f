"""Large-star / small-star components equal union-find on random graphs."""

from __future__ import annotations

import random

from simdoc_spark.components import connected_components


def union_find_roots(n: int, edges: list[tuple[int, int]]) -> dict[int, int]:
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for u, v in edges:
        ru, rv = find(u), find(v)
        if ru != rv:
            parent[max(ru, rv)] = min(ru, rv)
    linked = {x for e in edges for x in e if e[0] != e[1]}
    return {x: find(x) for x in linked}


def test_components_equal_union_find(spark):
    rng = random.Random(15)
    for n, m in [(2, 1), (10, 8), (60, 50), (200, 150), (40, 200)]:
        edges = [(rng.randrange(n), rng.randrange(n)) for _ in range(m)]
        # A long path, the worst case for label propagation.
        edges += [(i, i + 1) for i in range(n, n + 30)]
        frame = spark.createDataFrame(edges, "u long, v long")
        got = {r["node"]: r["root"] for r in connected_components(frame).collect()}
        assert got == union_find_roots(n + 31, edges)

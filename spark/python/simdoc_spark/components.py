"""Connected components of an edge DataFrame by large-star / small-star.

Kiveris, Lattanzi, Mirrokni, Rastogi, Vassilvitskii, "Connected Components in MapReduce and
Beyond" (SoCC 2014), sect. 3: alternate the two operations until neither changes the graph;
the result is one star per component, centred on its smallest node. Each round is a few joins
and aggregations, so nothing is collected to the driver and no component must fit one machine.
"""

from pyspark.sql import DataFrame
from pyspark.sql import functions as F


def _large_star(edges: DataFrame) -> DataFrame:
    # Each node u links every larger neighbour to the smallest node of u's neighbourhood
    # (u included).
    both = edges.union(edges.select(F.col("v").alias("u"), F.col("u").alias("v"))).distinct()
    smallest = both.groupBy("u").agg(F.least(F.min("v"), F.col("u")).alias("m"))
    return (
        both.join(smallest, "u")
        .where(F.col("v") > F.col("u"))
        .select(F.col("v").alias("u"), F.col("m").alias("v"))
        .distinct()
    )


def _small_star(edges: DataFrame) -> DataFrame:
    # Each node u links itself and its smaller neighbours to the smallest of them.
    oriented = edges.select(
        F.greatest("u", "v").alias("u"), F.least("u", "v").alias("v")
    ).distinct()
    smallest = oriented.groupBy("u").agg(F.min("v").alias("m"))
    linked = oriented.join(smallest, "u").select(F.col("v").alias("u"), F.col("m").alias("v"))
    own = smallest.select(F.col("u"), F.col("m").alias("v"))
    return linked.union(own).where(F.col("u") != F.col("v")).distinct()


def connected_components(edges: DataFrame, max_rounds: int = 64) -> DataFrame:
    """(node, root) for every node of an edge list (columns u, v; bigint), root being the
    smallest node of its component (the root itself included)."""
    current = (
        edges.select(F.col("u").cast("long"), F.col("v").cast("long"))
        .where(F.col("u") != F.col("v"))
        .distinct()
        .localCheckpoint()
    )
    for _ in range(max_rounds):
        after = _small_star(_large_star(current)).localCheckpoint()
        unchanged = (
            after.count() == current.count() and after.exceptAll(current).isEmpty()
        )
        current = after
        if unchanged:
            break
    else:
        raise RuntimeError(f"connected components did not converge in {max_rounds} rounds")
    # A converged graph is a set of stars: every edge joins a node to its component's root.
    stars = current.select(
        F.greatest("u", "v").alias("node"), F.least("u", "v").alias("root")
    )
    roots = stars.select(F.col("root").alias("node"), F.col("root"))
    return stars.union(roots).distinct()

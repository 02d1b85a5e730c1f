"""simdoc's collection detectors on Apache Spark.

The Rust library signs documents inside the executors (``DataFrame.mapInArrow`` with Arrow
record batches); candidate generation is Spark SQL over the signatures; duplicate groups are
connected components computed with DataFrames. The results equal ``simdoc collection`` on one
machine for the detectors that run here: I-Match, SimHash, FFP and DSC.
"""

from .detect import METHODS, Settings, run_collection

__all__ = ["METHODS", "Settings", "run_collection"]

"""simdoc's collection detectors on Apache Spark.

The Rust library signs documents inside the executors (``DataFrame.mapInArrow`` with Arrow
record batches); candidate generation is Spark SQL over the signatures; duplicate groups are
connected components computed with DataFrames. The results equal ``simdoc collection`` on one
machine for the detectors that run here: CoDet, I-Match, SimHash, FFP and DSC; so does the
evidence of the highest-ranked pairs, which the executors compute with the library after reading
those pairs' documents again.
"""

from .detect import METHODS, Settings, run_collection

__all__ = ["METHODS", "Settings", "run_collection"]

"""Entry script for spark-submit: `spark-submit [spark options] spark/submit.py collection ...`.

The simdoc-spark wheel must be installed in the Python that the driver and executors run."""

import sys

from simdoc_spark.cli import main

sys.exit(main())

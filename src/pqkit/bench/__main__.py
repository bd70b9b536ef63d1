"""``python -m pqkit.bench ARGS`` runs ``pqkit speed ARGS``."""

import sys

from pqkit.bench.cli import main

sys.exit(main())

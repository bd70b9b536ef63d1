"""``python -m pqkit`` runs the ``pqkit`` command."""

import sys

from pqkit.cli import main

sys.exit(main())

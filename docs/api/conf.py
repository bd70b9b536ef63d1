"""Sphinx configuration of pqkit's API reference (built from the docstrings).

Build: ``python -m pip install ".[docs]"`` then
``python -m sphinx -W --keep-going -b html docs/api docs/_build/html``
(``.ci/run`` does this with warnings as errors).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import pqkit  # noqa: E402

project = "pqkit"
author = "The pqkit authors"
copyright = "the pqkit authors; Apache-2.0"  # noqa: A001
release = pqkit.__version__
version = release

# Plain autodoc: the docstrings are reStructuredText with Sphinx roles
# (:func:, :class:, :mod:) already, and none uses Google/NumPy sections.
extensions = ["sphinx.ext.autodoc"]

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "show-inheritance": True}
autoclass_content = "both"

default_role = "code"
html_theme = "alabaster"
html_static_path: list[str] = []
exclude_patterns = ["_build"]

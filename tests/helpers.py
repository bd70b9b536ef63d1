"""Shared helpers for the tests: reading the vector files in tests/vectors/."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

VECTORS = Path(__file__).parent / "vectors"


def load_json(name: str) -> Any:
    """Parse ``tests/vectors/<name>.gz`` (gzipped JSON)."""
    with gzip.open(VECTORS / f"{name}.gz", "rt", encoding="utf-8") as f:
        return json.load(f)


def load_lines(name: str) -> list[str]:
    """The non-empty lines of ``tests/vectors/<name>`` (gzipped text, name ends in .gz)."""
    with gzip.open(VECTORS / name, "rt", encoding="ascii") as f:
        return [line.strip() for line in f if line.strip()]


def h(hex_string: str) -> bytes:
    """Bytes from a hex string (either case)."""
    return bytes.fromhex(hex_string)

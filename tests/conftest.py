"""Fixtures shared by the test modules: the arithmetic backends.

``arith_backend`` runs a test once per installed backend (``ref`` included);
``fast_backend`` once per backend other than ``ref``, for the differential suites
that check it against the ``ref`` oracle. Both take the list from
:func:`pqkit.arith.available` (via ``helpers.ARITH_BACKENDS``), with the backend
name as the test id, so a backend that is registered and installed is tested
without editing any test.
"""

from __future__ import annotations

import pytest
from helpers import ARITH_BACKENDS, FAST_BACKENDS


@pytest.fixture(params=ARITH_BACKENDS)
def arith_backend(request: pytest.FixtureRequest) -> str:
    """The name of one installed arithmetic backend (each in turn)."""
    name: str = request.param
    return name


@pytest.fixture(params=FAST_BACKENDS)
def fast_backend(request: pytest.FixtureRequest) -> str:
    """The name of one installed backend other than ``ref`` (each in turn)."""
    name: str = request.param
    return name

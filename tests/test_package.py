"""The package surface: names, registry lookups and backend selection errors."""

from __future__ import annotations

import pytest

import pqkit
from pqkit import common


def test_unknown_algorithm_lists_known_names() -> None:
    with pytest.raises(pqkit.UnknownAlgorithm) as info:
        pqkit.kem("no-such-kem")
    assert isinstance(info.value, KeyError)
    assert "no-such-kem" in str(info.value)


def test_algorithm_name_must_be_str() -> None:
    with pytest.raises(TypeError):
        pqkit.kem(768)  # type: ignore[arg-type]


def test_unknown_symmetric_backend_lists_available() -> None:
    with pytest.raises(ValueError, match=r"available: .*openssl"):
        common.sha3_256(b"", backend="nope")
    with pytest.raises(ValueError, match="nope"), common.use("nope"):
        pass


def test_unknown_arith_backend() -> None:
    from pqkit import arith

    with pytest.raises(ValueError, match="available"):
        arith.kernels("mlkem", backend="nope")

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


def test_dir_lists_only_the_api() -> None:
    names = dir(pqkit)
    for helper in ("Any", "TYPE_CHECKING", "annotations", "_LAZY", "importlib"):
        assert helper not in names
    assert set(pqkit.__all__) <= set(names)
    extra = set(names) - set(pqkit.__all__)
    assert extra, "the public submodules are listed too"
    for name in names:  # every listed name resolves, the submodules lazily
        assert getattr(pqkit, name) is not None
    assert {"common", "keys", "mlkem", "mldsa", "serialization"} <= extra
    assert all(not name.startswith("_") for name in extra)


def test_unknown_attribute_is_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_thing"):
        pqkit.no_such_thing  # noqa: B018
    with pytest.raises(AttributeError):
        pqkit._checks_not_there  # noqa: B018

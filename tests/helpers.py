"""Shared helpers for the tests: reading the vector files in tests/vectors/, the
arithmetic backends to run them on, and running the ``pqkit`` command in-process
(:class:`Cli`)."""

from __future__ import annotations

import functools
import gzip
import io
import json
import sys
import tarfile
from pathlib import Path
from typing import Any

import pytest

from pqkit import arith

VECTORS = Path(__file__).parent / "vectors"


def load_json(name: str) -> Any:
    """Parse ``tests/vectors/<name>.gz`` (gzipped JSON)."""
    with gzip.open(VECTORS / f"{name}.gz", "rt", encoding="utf-8") as f:
        return json.load(f)


@functools.cache
def load_tarball(name: str, strip: str = "") -> dict[str, bytes]:
    """The files of ``tests/vectors/<name>`` (a gzipped tar), by member name less the
    prefix ``strip``."""
    data = gzip.decompress((VECTORS / name).read_bytes())
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        return {
            m.name.removeprefix(strip): tar.extractfile(m).read()  # type: ignore[union-attr]
            for m in tar.getmembers()
            if m.isfile()
        }


def load_lines(name: str) -> list[str]:
    """The non-empty lines of ``tests/vectors/<name>`` (gzipped text, name ends in .gz)."""
    with gzip.open(VECTORS / name, "rt", encoding="ascii") as f:
        return [line.strip() for line in f if line.strip()]


def certificate_parts(cert: bytes) -> tuple[bytes, bytes, str, bytes]:
    """(tbsCertificate DER, subjectPublicKeyInfo DER, signature OID, signature) of a
    DER X.509 certificate (RFC 5280 §4.1), read with pqkit's DER reader; the
    signatureAlgorithm must have no parameters (RFC 9881, RFC 9909)."""
    from pqkit import der

    outer = der.DerReader(der.read_single(cert, der.SEQUENCE, "SEQUENCE", "cert"), "cert")
    tbs_body = outer.expect(der.SEQUENCE, "tbsCertificate")
    alg = der.DerReader(outer.expect(der.SEQUENCE, "signatureAlgorithm"), "cert")
    oid = der.decode_oid(alg.expect(der.OBJECT_IDENTIFIER, "OID"), "cert")
    alg.finish()
    signature = der.decode_bit_string(outer.expect(der.BIT_STRING, "signature"), "cert")
    outer.finish()
    fields = der.DerReader(tbs_body, "tbs")
    if fields.peek_tag() == der.CONTEXT_CONSTRUCTED_0:  # version
        fields.read()
    for _field in ("serialNumber", "signature", "issuer", "validity", "subject"):
        fields.read()
    spki = der.encode_tlv(der.SEQUENCE, fields.expect(der.SEQUENCE, "subjectPublicKeyInfo"))
    return der.encode_tlv(der.SEQUENCE, tbs_body), spki, oid, signature


@functools.cache
def traditional_key(key_type: str) -> bytes:
    """One fresh traditional private key of ``key_type`` ("RSA2048", "P-256", "Ed448"
    ...: :data:`pqkit.composite.traditional.KEYS`) per test run, in the composites'
    encoding (RSA key generation takes seconds: one per size serves every OID)."""
    from pqkit.composite.traditional import KEYS

    return KEYS[key_type].generate()


def composite_private_key(name: str, seed: bytes = bytes(64)) -> Any:
    """A composite private key of algorithm ``name``: the ML-x ``seed`` (its first 32 or
    64 bytes) next to :func:`traditional_key` of its key type."""
    from pqkit.keys import private_key_class
    from pqkit.registry import algorithm

    alg = algorithm(name)
    cls = private_key_class(alg.name)
    key_type = alg.params.key  # type: ignore[attr-defined]
    return cls.from_private_bytes(seed[: alg.length_seed] + traditional_key(key_type))


def h(hex_string: str) -> bytes:
    """Bytes from a hex string (either case)."""
    return bytes.fromhex(hex_string)


class Cli:
    """``pqkit ARGS`` run in-process in a temporary directory."""

    def __init__(
        self, monkeypatch: pytest.MonkeyPatch, capture: pytest.CaptureFixture[bytes]
    ) -> None:
        self._monkeypatch = monkeypatch
        self._capture = capture

    def run(self, *args: str | Path, stdin: bytes | None = None) -> tuple[int, bytes, str]:
        """(status, stdout bytes, stderr text)."""
        if stdin is not None:
            stream = io.TextIOWrapper(io.BytesIO(stdin))
            self._monkeypatch.setattr(sys, "stdin", stream)
        self._capture.readouterr()
        from pqkit.cli import main

        status = main([str(a) for a in args])
        out = self._capture.readouterr()
        return status, out.out, out.err.decode()

    def ok(self, *args: str | Path, stdin: bytes | None = None) -> bytes:
        status, out, err = self.run(*args, stdin=stdin)
        assert status == 0, err
        assert err == ""
        return out

    def fails(self, *args: str | Path, status: int = 2, match: str = "") -> str:
        code, _, err = self.run(*args)
        assert code == status, (code, err)
        assert "Traceback" not in err
        assert err.count("\n") == 1 and err.startswith("pqkit: "), err
        assert match in err, err
        return err


# --- arithmetic backends ----------------------------------------------------------

ARITH_BACKENDS: tuple[str, ...] = tuple(arith.available("mlkem"))
"""Every arithmetic backend installed here, fastest first (``ref`` last): the one
list the backend-parametrised tests read (tests/conftest.py builds its fixtures
from it)."""

FAST_BACKENDS: tuple[str, ...] = tuple(b for b in ARITH_BACKENDS if b != "ref")
"""The backends checked against the ``ref`` oracle."""

REF_EVERY = 6
"""The ``ref`` backend (plain Python ints) needs about 0.1 s per operation, so by
default vector suites run it on every REF_EVERY-th vector of a file (always the
first), or on the first of each group; the others are marked slow (``-m slow``)."""


def backend_params(
    ident: str, values: tuple[Any, ...], *, ref_runs: bool, backend_first: bool = False
) -> list[Any]:
    """pytest params of one vector for every backend in ARITH_BACKENDS, ids
    ``<backend>-<ident>``; the ``ref`` one marked slow unless ``ref_runs``. The
    backend goes last in the values, or first with ``backend_first``."""
    return [
        pytest.param(
            *((backend, *values) if backend_first else (*values, backend)),
            id=f"{backend}-{ident}",
            marks=[pytest.mark.slow] if backend == "ref" and not ref_runs else [],
        )
        for backend in ARITH_BACKENDS
    ]

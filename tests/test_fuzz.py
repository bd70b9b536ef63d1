"""Fuzzing every decoder and entry point with mutated inputs (Hypothesis).

Each test feeds mutations of valid inputs (byte flips, truncations, insertions,
splices) or random bytes to one entry point and asserts that only the documented
exceptions escape (``TypeError``, ``ValueError`` and pqkit's own errors, which
subclass them or ``KeyError``) and that no input costs super-linear time: each
call must finish within ``_BOUND_S + _PER_BYTE_S * len(input)``, a bound a hundred
times above normal cost, there to catch blow-ups, not to measure speed.

The default run does a few dozen examples per entry point; the ``slow`` variant
(``python -m pytest -m slow tests/test_fuzz.py``) runs thousands. Set
``PQKIT_FUZZ_COUNTS=path`` to have the examples run per entry point written there
as JSON.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pqkit
from pqkit.common import CtrDrbg
from pqkit.errors import UnknownAlgorithm
from pqkit.keys import private_key_class
from pqkit.serialization import (
    BestAvailableEncryption,
    Encoding,
    PrivateFormat,
    PublicFormat,
    pbes2,
)

ALLOWED = (TypeError, ValueError, UnknownAlgorithm)
_BOUND_S = 3.0
_PER_BYTE_S = 50e-6
FAST = 25
SLOW = 1500
COUNTS: Counter[str] = Counter()

BUDGETS = [
    pytest.param(FAST, id="fast"),
    pytest.param(SLOW, id="slow", marks=pytest.mark.slow),
]


@pytest.fixture(scope="module", autouse=True)
def _write_counts() -> Iterator[None]:
    yield
    path = os.environ.get("PQKIT_FUZZ_COUNTS")
    if path:
        old: dict[str, int] = {}
        if os.path.exists(path):
            with open(path) as f:
                old = json.load(f)
        merged = Counter(old) + COUNTS
        with open(path, "w") as f:
            json.dump(dict(sorted(merged.items())), f, indent=1)


def _run(name: str, call: Callable[[], object], size: int) -> object:
    """Call; only ALLOWED may escape; the time bound holds. None when it raised."""
    COUNTS[name] += 1
    start = time.perf_counter()
    try:
        result = call()
    except ALLOWED:
        result = None
    elapsed = time.perf_counter() - start
    assert elapsed < _BOUND_S + _PER_BYTE_S * size, f"{name}: {elapsed:.2f} s for {size} bytes"
    return result


@st.composite
def mutated(draw: st.DrawFn, bases: list[bytes]) -> bytes:
    """A valid input with a few random edits, or random bytes."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=4096))
    data = bytearray(draw(st.sampled_from(bases)))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.integers(0, 4))
        pos = draw(st.integers(0, len(data)))
        if kind == 0 and data:  # flip bits of one byte
            i = min(pos, len(data) - 1)
            data[i] ^= draw(st.integers(1, 255))
        elif kind == 1:  # truncate
            del data[pos:]
        elif kind == 2:  # insert
            data[pos:pos] = draw(st.binary(min_size=1, max_size=64))
        elif kind == 3:  # delete a run
            del data[pos : pos + draw(st.integers(1, 64))]
        else:  # a length-like byte: 0x80-0x84 or 0xff
            if data:
                data[min(pos, len(data) - 1)] = draw(st.sampled_from([0x80, 0x81, 0x84, 0xFF]))
    return bytes(data)


def _fuzz(budget: int) -> Callable[[Any], Any]:
    return settings(
        max_examples=budget,
        deadline=None,  # the time bound per input size is asserted in _run
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        derandomize=budget == FAST,  # the default run is reproducible
        database=None,
    )


# --- key files ----------------------------------------------------------------------

_KEY_NAMES = ["ML-KEM-512", "ML-KEM-768", "ML-DSA-44", "ML-DSA-87"]
_PRIVATE = {n: private_key_class(n).generate() for n in _KEY_NAMES}
_NO = pqkit.NoEncryption()


def _private_encodings(enc: Encoding) -> list[bytes]:
    return [
        key.private_bytes(enc, PrivateFormat.PKCS8, _NO, form=form)
        for key in _PRIVATE.values()
        for form in ("seed", "expanded", "both")
    ]


def _public_encodings(enc: Encoding) -> list[bytes]:
    return [
        key.public_key().public_bytes(enc, PublicFormat.SubjectPublicKeyInfo)
        for key in _PRIVATE.values()
    ]


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_key_loaders(budget: int) -> None:
    der_priv, pem_priv = _private_encodings(Encoding.DER), _private_encodings(Encoding.PEM)
    der_pub, pem_pub = _public_encodings(Encoding.DER), _public_encodings(Encoding.PEM)
    bases = der_priv + pem_priv + der_pub + pem_pub

    @_fuzz(budget)
    @given(data=mutated(bases))
    def run(data: bytes) -> None:
        size = len(data)
        _run("load_der_private_key", lambda: pqkit.load_der_private_key(data), size)
        _run("load_pem_private_key", lambda: pqkit.load_pem_private_key(data), size)
        _run("load_der_public_key", lambda: pqkit.load_der_public_key(data), size)
        _run("load_pem_public_key", lambda: pqkit.load_pem_public_key(data), size)

    run()


@pytest.mark.skipif(not pbes2.is_available(), reason="PBES2 needs the cryptography package")
@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_encrypted_pkcs8(budget: int) -> None:
    key = _PRIVATE["ML-KEM-512"]
    password = b"correct horse"
    enc = BestAvailableEncryption(password, iterations=pbes2.MIN_ITERATIONS)
    bases = [
        key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, enc),
        key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, enc),
    ]

    @_fuzz(budget)
    @given(data=mutated(bases), right=st.booleans())
    def run(data: bytes, right: bool) -> None:
        pw = password if right else b"wrong horse"
        name = "encrypted PKCS#8 (" + ("right" if right else "wrong") + " password)"
        _run(name, lambda: pqkit.load_der_private_key(data, pw), len(data))
        _run(name, lambda: pqkit.load_pem_private_key(data, pw), len(data))

    run()
    loaded = pqkit.load_pem_private_key(bases[1], password)
    assert loaded.private_bytes_raw() == key.private_bytes_raw()


# --- scheme entry points ------------------------------------------------------------

_KEM = pqkit.kem("ML-KEM-768")
_KEM_PK, _KEM_SK = _KEM.keygen_derand(bytes(64))
_KEM_SS, _KEM_CT = _KEM.encaps_derand(_KEM_PK, bytes(32))
_SIG = pqkit.sig("ML-DSA-44")
_SIG_PK, _SIG_SK = _SIG.keygen_derand(bytes(32))
_SIG_MSG = b"fuzzed message"
_SIG_SIG = _SIG.sign(_SIG_SK, _SIG_MSG, deterministic=True)


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_kem(budget: int) -> None:
    @_fuzz(budget)
    @given(sk=mutated([_KEM_SK]), ct=mutated([_KEM_CT]), pk=mutated([_KEM_PK]))
    def run(sk: bytes, ct: bytes, pk: bytes) -> None:
        ss = _run("decaps", lambda: _KEM.decaps(sk, ct), len(sk) + len(ct))
        assert ss is None or len(ss) == 32  # type: ignore[arg-type]
        out = _run("encaps", lambda: _KEM.encaps(pk), len(pk))
        if out is not None:
            assert _KEM.decaps(_KEM_SK, out.ciphertext) is not None  # type: ignore[attr-defined]

    run()


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_signature(budget: int) -> None:
    @_fuzz(budget)
    @given(
        pk=mutated([_SIG_PK]),
        sig=mutated([_SIG_SIG]),
        msg=st.binary(max_size=256),
        sk=mutated([_SIG_SK]),
    )
    def run(pk: bytes, sig: bytes, msg: bytes, sk: bytes) -> None:
        ok = _run("verify", lambda: _SIG.verify(pk, msg, sig), len(pk) + len(sig))
        assert ok in (None, True, False)
        if ok:  # only the original triple verifies
            assert (pk, msg, sig) == (_SIG_PK, _SIG_MSG, _SIG_SIG)
        signed = _run("sign (mutated key)", lambda: _SIG.sign(sk, msg), len(sk))
        if signed is not None:  # a key sign accepts gives signatures that verify
            public = _SIG.public_key_from_secret(sk)
            assert _SIG.verify(public, msg, signed)  # type: ignore[arg-type]

    run()


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_ctr_drbg(budget: int) -> None:
    values = st.one_of(
        st.binary(max_size=96), st.integers(-5, 70_000), st.text(max_size=4), st.none()
    )

    entropies = st.one_of(st.binary(min_size=48, max_size=48), values)

    @_fuzz(budget)
    @given(entropy=entropies, pers=values, n=values, extra=values)
    def run(entropy: Any, pers: Any, n: Any, extra: Any) -> None:
        drbg = _run("CtrDrbg()", lambda: CtrDrbg(entropy, pers), 0)
        if isinstance(drbg, CtrDrbg):
            out = _run("CtrDrbg.generate", lambda: drbg.generate(n, extra), 0)
            assert out is None or len(out) == n  # type: ignore[arg-type]
            _run("CtrDrbg.reseed", lambda: drbg.reseed(entropy, extra), 0)

    run()

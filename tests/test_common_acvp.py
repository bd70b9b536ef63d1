"""NIST ACVP SHA3-256, SHA3-512, SHAKE-128 and SHAKE-256 vectors on both backends.

Files: tests/vectors/acvp/*.json.gz, copied from shared/vectors/acvp (ACVP-Server
v1.1.0.43). AFT, MCT and (SHAKE) VOT groups run; what cannot run is skipped with
its reason: bit-oriented messages or output lengths (pqkit's API takes whole
bytes) and the large-data tests (LDT, an 8 GiB message).

The Monte Carlo tests are 100 outer x 1000 inner hashes. On the openssl backend
all 100 run by default; on the python backend (~0.2-0.6 ms per hash here) the
first MCT_PREFIX outer iterations run by default, which reproduce the first
MCT_PREFIX ``resultsArray`` entries exactly, and all 100 run with ``-m slow``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from helpers import h, load_json

from pqkit import common

BACKENDS = ["openssl", "python"]
MCT_PREFIX = 3

SHA3_FILES = {"SHA3-256-2.0": 256, "SHA3-512-2.0": 512}
SHAKE_FILES = {"SHAKE-128-1.0": 128, "SHAKE-256-1.0": 256}


def _groups(name: str) -> list[dict[str, Any]]:
    groups: list[dict[str, Any]] = load_json(f"acvp/{name}.json")["testGroups"]
    return groups


def _cases(files: dict[str, int], test_type: str) -> Iterator[Any]:
    for name, bits in files.items():
        for group in _groups(name):
            if group["testType"] != test_type:
                continue
            for test in group["tests"]:
                marks = []
                if test["len"] % 8:
                    marks.append(pytest.mark.skip(reason="bit-oriented message (len % 8 != 0)"))
                elif test.get("outLen", 0) % 8:
                    marks.append(
                        pytest.mark.skip(reason="bit-oriented output length (outLen % 8 != 0)")
                    )
                yield pytest.param(bits, group, test, id=f"{name}-tc{test['tcId']}", marks=marks)


def _ldt_cases() -> Iterator[Any]:
    for name in {**SHA3_FILES, **SHAKE_FILES}:
        for group in _groups(name):
            if group["testType"] == "LDT":
                for test in group["tests"]:
                    yield pytest.param(
                        test,
                        id=f"{name}-tc{test['tcId']}",
                        marks=pytest.mark.skip(
                            reason="large-data test: a "
                            f"{test['largeMsg']['fullLength'] // 8 // 2**30} GiB message "
                            "does not fit the one-shot API"
                        ),
                    )


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("bits", "group", "test"), list(_cases(SHA3_FILES, "AFT")))
def test_sha3_aft(backend: str, bits: int, group: dict[str, Any], test: dict[str, Any]) -> None:
    msg = h(test["msg"])[: test["len"] // 8]
    fn = common.sha3_256 if bits == 256 else common.sha3_512
    assert fn(msg, backend=backend).hex().upper() == test["md"]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("bits", "group", "test"), list(_cases(SHAKE_FILES, "AFT")))
def test_shake_aft(backend: str, bits: int, group: dict[str, Any], test: dict[str, Any]) -> None:
    msg = h(test["msg"])[: test["len"] // 8]
    fn = common.shake128_digest if bits == 128 else common.shake256_digest
    assert fn(msg, test["outLen"] // 8, backend=backend).hex().upper() == test["md"]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("bits", "group", "test"), list(_cases(SHAKE_FILES, "VOT")))
def test_shake_vot(backend: str, bits: int, group: dict[str, Any], test: dict[str, Any]) -> None:
    msg = h(test["msg"])[: test["len"] // 8]
    n = test["outLen"] // 8
    fn = common.shake128 if bits == 128 else common.shake256
    assert fn(msg, backend=backend).read(n).hex().upper() == test["md"]
    # The same output squeezed in two uneven pieces.
    xof = fn(msg, backend=backend)
    assert (xof.read(n // 3) + xof.read(n - n // 3)).hex().upper() == test["md"]


@pytest.mark.parametrize("test", list(_ldt_cases()))
def test_large_data(test: dict[str, Any]) -> None:  # pragma: no cover - always skipped
    raise AssertionError("unreachable: skipped")


def _sha3_mct(hash_fn: Callable[[bytes], bytes], seed: bytes, outer: int) -> Iterator[bytes]:
    """ACVP SHA-3 Monte Carlo test ("standard"): MD_i = SHA3(MD_(i-1)), 1000 per output."""
    md = seed
    for _ in range(outer):
        for _ in range(1000):
            md = hash_fn(md)
        yield md


def _shake_mct(
    xof_fn: Callable[[bytes, int], bytes], seed: bytes, min_bits: int, max_bits: int, outer: int
) -> Iterator[bytes]:
    """ACVP SHAKE Monte Carlo test ("standard"): the message is the leftmost 128 bits
    of the previous output (zero-padded), and the next output length is
    minOutBytes + (rightmost 16 bits of the output mod (maxOutBytes - minOutBytes + 1))."""
    low, high = min_bits // 8, max_bits // 8
    out, out_len = seed, high
    for _ in range(outer):
        for _ in range(1000):
            out = xof_fn(out[:16].ljust(16, b"\0"), out_len)
            out_len = low + int.from_bytes(out[-2:], "big") % (high - low + 1)
        yield out


def _mct_params(files: dict[str, int]) -> Iterator[Any]:
    for name, bits in files.items():
        for group in _groups(name):
            if group["testType"] == "MCT":
                (test,) = group["tests"]
                yield pytest.param("openssl", bits, group, test, 100, id=f"{name}-openssl-all")
                yield pytest.param(
                    "python", bits, group, test, MCT_PREFIX, id=f"{name}-python-first"
                )
                yield pytest.param(
                    "python",
                    bits,
                    group,
                    test,
                    100,
                    id=f"{name}-python-all",
                    marks=pytest.mark.slow,
                )


@pytest.mark.parametrize(
    ("backend", "bits", "group", "test", "outer"), list(_mct_params(SHA3_FILES))
)
def test_sha3_mct(
    backend: str, bits: int, group: dict[str, Any], test: dict[str, Any], outer: int
) -> None:
    sha3 = common.provider("sha3", backend).sha3
    expected = [r["md"] for r in test["resultsArray"]]
    assert len(expected) == 100
    got = _sha3_mct(lambda m: sha3(bits, m), h(test["msg"]), outer)
    for i, md in enumerate(got):
        assert md.hex().upper() == expected[i], f"outer iteration {i}"


@pytest.mark.parametrize(
    ("backend", "bits", "group", "test", "outer"), list(_mct_params(SHAKE_FILES))
)
def test_shake_mct(
    backend: str, bits: int, group: dict[str, Any], test: dict[str, Any], outer: int
) -> None:
    shake = common.provider("sha3", backend).shake_digest
    expected = [(r["md"], r["outLen"]) for r in test["resultsArray"]]
    assert len(expected) == 100
    got = _shake_mct(
        lambda m, n: shake(bits, m, n),
        h(test["msg"]),
        group["minOutLen"],
        group["maxOutLen"],
        outer,
    )
    for i, out in enumerate(got):
        assert (out.hex().upper(), 8 * len(out)) == expected[i], f"outer iteration {i}"

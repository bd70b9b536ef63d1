"""The SP 800-90A CTR_DRBG (AES-256, no df) of the NIST KATs: pqkit.common.CtrDrbg."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from helpers import VECTORS, h, load_json
from hypothesis import given, settings
from hypothesis import strategies as st

from pqkit import UnknownBackend
from pqkit.common import CtrDrbg
from pqkit.common import python as python_backend

BACKENDS = ["openssl", "python"]
KAT_FILES = sorted(p.name[: -len(".json.gz")] for p in (VECTORS / "r3-kat-first").glob("*.gz"))
KAT_SEED = bytes(range(48))  # NIST-KAT-FORMAT.md §3 step 1


class TwinDrbg:
    """SP 800-90A §10.2.1 written out block by block, with pyca/cryptography's AES:
    the independent twin for inputs the KAT files do not cover."""

    def __init__(self, entropy: bytes, personalization: bytes = b"") -> None:
        self.key, self.v = bytes(32), 0
        self.update(self.xor(entropy, personalization.ljust(48, b"\0")))

    @staticmethod
    def xor(a: bytes, b: bytes) -> bytes:
        return bytes(x ^ y for x, y in zip(a, b, strict=True))

    def block(self) -> bytes:
        self.v = (self.v + 1) % 2**128
        enc = Cipher(algorithms.AES(self.key), modes.ECB()).encryptor()
        return enc.update(self.v.to_bytes(16, "big"))

    def update(self, provided: bytes) -> None:
        temp = self.xor(self.block() + self.block() + self.block(), provided)
        self.key, self.v = temp[:32], int.from_bytes(temp[32:], "big")

    def reseed(self, entropy: bytes, additional: bytes) -> None:
        self.update(self.xor(entropy, additional.ljust(48, b"\0")))

    def generate(self, n: int, additional: bytes) -> bytes:
        padded = additional.ljust(48, b"\0")
        if additional:
            self.update(padded)
        out = b""
        while len(out) < n:
            out += self.block()
        self.update(padded)
        return out[:n]


def _kat_entry(name: str) -> dict[str, object]:
    data = load_json(f"r3-kat-first/{name}.json")
    if "entry" in data:
        entry: dict[str, object] = data["entry"]
    else:
        entry = data["variants"]["deterministic_signing"]
    return entry


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", KAT_FILES)
def test_kat_first_seed(backend: str, name: str) -> None:
    """The outer generator of NIST-KAT-FORMAT.md §3 gives seed_0, then msg_0 (signatures)."""
    entry = _kat_entry(name)
    outer = CtrDrbg(KAT_SEED, backend=backend)
    assert outer(48).hex().upper() == entry["seed"]
    if "msg" in entry:
        assert outer(33).hex().upper() == entry["msg"]


def test_kat_files_present() -> None:
    assert len(KAT_FILES) == 12, KAT_FILES
    assert Path(VECTORS / "r3-kat-first" / "Kyber512.json.gz").exists()


ops = st.lists(
    st.one_of(
        st.tuples(st.just("generate"), st.integers(0, 200), st.binary(max_size=48)),
        st.tuples(st.just("reseed"), st.binary(min_size=48, max_size=48), st.binary(max_size=48)),
    ),
    max_size=6,
)


@settings(max_examples=30, deadline=None)
@given(
    entropy=st.binary(min_size=48, max_size=48),
    personalization=st.binary(max_size=48),
    steps=ops,
)
def test_matches_twin(
    entropy: bytes, personalization: bytes, steps: list[tuple[str, object, bytes]]
) -> None:
    twin = TwinDrbg(entropy, personalization)
    drbgs = [CtrDrbg(entropy, personalization, backend=b) for b in BACKENDS]
    for kind, arg, additional in steps:
        if kind == "generate":
            assert isinstance(arg, int)
            expected = twin.generate(arg, additional)
            for d in drbgs:
                assert d.generate(arg, additional) == expected
        else:
            assert isinstance(arg, bytes)
            twin.reseed(arg, additional)
            for d in drbgs:
                d.reseed(arg, additional)
    expected = twin.generate(16, b"")
    for d in drbgs:
        assert d(16) == expected


def test_request_split_matters() -> None:
    # NIST-KAT-FORMAT.md §2: an Update follows every request.
    a, b = CtrDrbg(KAT_SEED), CtrDrbg(KAT_SEED)
    assert a(64) != b(32) + b(32)


def test_personalization_is_xored_into_entropy() -> None:
    p = bytes(range(100, 120))
    mixed = bytes(x ^ y for x, y in zip(KAT_SEED, p.ljust(48, b"\0"), strict=True))
    assert CtrDrbg(KAT_SEED, p)(40) == CtrDrbg(mixed)(40)


@pytest.mark.parametrize("backend", BACKENDS)
def test_request_limit(backend: str) -> None:
    d = CtrDrbg(KAT_SEED, backend=backend)
    assert len(d(65536)) == 65536  # 2^19 bits: the largest request allowed
    with pytest.raises(ValueError, match="65536"):
        d(65537)
    with pytest.raises(ValueError, match=r"0\.\.65536"):
        d(-1)
    assert d(0) == b""


def test_reseed_counter_limit() -> None:
    d = CtrDrbg(KAT_SEED)
    # White-box: 2^48 requests cannot be made in a test, so the counter is set.
    d._reseed_counter = 2**48
    d(1)  # the 2^48-th request is still allowed (reseed_counter <= reseed_interval)
    with pytest.raises(RuntimeError, match="reseed"):
        d(1)
    d.reseed(bytes(48))
    assert len(d(1)) == 1


def test_one_cipher_object_per_key(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[bytes] = []
    original = python_backend.AES.ecb

    def counting_ecb(key: bytes) -> object:
        made.append(key)
        return original(key)

    monkeypatch.setattr(python_backend.AES, "ecb", counting_ecb)
    d = CtrDrbg(KAT_SEED, backend="python")
    assert len(made) == 2  # the all-zero key, then the instantiated key
    d(4096)  # 256 blocks plus the Update: still one cipher object, for the next key
    assert len(made) == 3 and len(set(made)) == 3


def test_bad_inputs() -> None:
    with pytest.raises(TypeError, match="entropy_input"):
        CtrDrbg("x" * 48)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="48 bytes, got 47"):
        CtrDrbg(bytes(47))
    with pytest.raises(ValueError, match="at most 48 bytes"):
        CtrDrbg(KAT_SEED, bytes(49))
    d = CtrDrbg(KAT_SEED)
    with pytest.raises(TypeError, match="n must be an int"):
        d(1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="additional_input"):
        d.generate(1, "abc")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="48 bytes"):
        d.reseed(bytes(32))
    with pytest.raises(UnknownBackend, match="available: openssl, python"):
        CtrDrbg(KAT_SEED, backend="nope")


def test_accepts_bytearray_and_is_rng_callable() -> None:
    d = CtrDrbg(bytearray(KAT_SEED))
    out = d(32)
    assert isinstance(out, bytes) and len(out) == 32
    assert h(_kat_entry("Kyber512")["seed"]) == CtrDrbg(KAT_SEED)(48)  # type: ignore[arg-type]

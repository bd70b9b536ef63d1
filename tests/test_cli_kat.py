"""``pqkit kat``: NIST .rsp text; entry 0 of the round-3 Kyber KATs, layout, errors."""

from __future__ import annotations

import hashlib
import sys
from typing import Any

import pytest
from helpers import load_json

import pqkit
from pqkit.cli import kat, main
from pqkit.common import CtrDrbg

KYBER = ["Kyber512", "Kyber768", "Kyber1024", "Kyber512-90s", "Kyber768-90s", "Kyber1024-90s"]


def _kem_entry_text(entry: dict[str, Any]) -> str:
    return "".join(
        f"{field} = {entry[field] if field == 'count' else entry[field].upper()}\n"
        for field in ("count", "seed", "pk", "sk", "ct", "ss")
    )


@pytest.mark.parametrize("name", KYBER)
def test_cli_reproduces_nist_entry_0(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    entry = load_json(f"r3-kat-first/{name}.json")["entry"]
    assert main(["kat", name, "--count", "1"]) == 0
    out = capsys.readouterr().out
    # Header, empty line, the six lines of entry 0, the empty line after it.
    assert out == f"# {name}\n\n" + _kem_entry_text(entry) + "\n"


def test_several_entries_layout_and_seeds() -> None:
    text = "".join(kat.rsp("Kyber768", 3))
    assert text.startswith("# Kyber768\n\ncount = 0\n")
    assert text.endswith("\n\n") and not text.endswith("\n\n\n")
    blocks = text.split("\n\n")
    assert blocks[0] == "# Kyber768"
    outer = CtrDrbg(bytes(range(48)))
    for i, block in enumerate(blocks[1:4]):
        lines = block.split("\n")
        assert [line.split(" = ")[0] for line in lines] == ["count", "seed", "pk", "sk", "ct", "ss"]
        assert lines[0] == f"count = {i}"
        assert lines[1] == "seed = " + outer(48).hex().upper()
        fields = {line.split(" = ")[0]: line.split(" = ")[1] for line in lines[2:]}
        assert all(v == v.upper() for v in fields.values())
        kem = pqkit.kem("Kyber768")
        assert kem.decaps(bytes.fromhex(fields["sk"]), bytes.fromhex(fields["ct"])) == (
            bytes.fromhex(fields["ss"])
        )


def test_fips_scheme_uses_the_same_flow() -> None:
    (entry,) = kat.entries(pqkit.kem("ML-KEM-512"), 1)
    seed = CtrDrbg(bytes(range(48)))(48)
    drbg = CtrDrbg(seed)
    kem = pqkit.kem("ML-KEM-512")
    pk, sk = kem.keygen(rng=drbg)
    ss, ct = kem.encaps(pk, rng=drbg)
    assert entry == "".join(
        f"{k} = {v}\n"
        for k, v in [
            ("count", "0"),
            ("seed", seed.hex().upper()),
            ("pk", pk.hex().upper()),
            ("sk", sk.hex().upper()),
            ("ct", ct.hex().upper()),
            ("ss", ss.hex().upper()),
        ]
    )


class _StubSignature:
    """A stand-in signature scheme, to pin the signature entry layout and the DRBG
    requests here (the Dilithium tests check real entries)."""

    name = "Stub"
    length_public_key = 3
    length_secret_key = 4
    length_signature = 5
    claimed_nist_level = 1

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def keygen(self, *, rng: Any = None) -> tuple[bytes, bytes]:
        seed = rng(32)
        return seed[:3], seed[:4]

    def sign(self, sk: bytes, msg: bytes, ctx: bytes = b"", **kw: Any) -> bytes:
        self.calls.append(("sign", kw["deterministic"]))
        if kw["deterministic"]:
            return sk[:3] + b"DD"
        return sk[:3] + b"R" + kw["rng"](64)[:1]

    def verify(self, pk: bytes, msg: bytes, sig: bytes, ctx: bytes = b"", **kw: Any) -> bool:
        return sig[:3] == pk


@pytest.mark.parametrize("randomized", [False, True])
def test_signature_entries(randomized: bool) -> None:
    stub = _StubSignature()
    first, second = kat.entries(stub, 2, randomized=randomized)  # type: ignore[arg-type]
    assert stub.calls == [("sign", not randomized)] * 2
    outer = CtrDrbg(bytes(range(48)))
    seed0, msg0, seed1, msg1 = outer(48), outer(33), outer(48), outer(66)
    inner = CtrDrbg(seed0)
    sk0 = inner(32)[:4]  # keygen's request, then sign's (randomized only)
    sig0 = sk0[:3] + (b"R" + inner(64)[:1] if randomized else b"DD")
    sm0 = sig0 + msg0
    assert first == (
        f"count = 0\nseed = {seed0.hex().upper()}\nmlen = 33\nmsg = {msg0.hex().upper()}\n"
        f"pk = {sk0[:3].hex().upper()}\nsk = {sk0.hex().upper()}\n"
        f"smlen = 38\nsm = {sm0.hex().upper()}\n"
    )
    assert second.startswith(f"count = 1\nseed = {seed1.hex().upper()}\nmlen = 66\n")
    assert f"msg = {msg1.hex().upper()}\nsmlen" not in second
    assert f"msg = {msg1.hex().upper()}\n" in second
    assert "smlen = 71\n" in second


def test_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["kat", "no-such-scheme"]) == 2
    captured = capsys.readouterr()
    assert "unknown algorithm 'no-such-scheme'" in captured.err and "Kyber768" in captured.err
    assert captured.out == ""
    for bad in ("-1", "two"):
        assert main(["kat", "Kyber512", "--count", bad]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""  # nothing written before the arguments are checked
        assert "count must be >= 0" in captured.err or "not a whole number" in captured.err
    with pytest.raises(TypeError):
        list(kat.entries(pqkit.kem("Kyber512"), "2"))  # type: ignore[arg-type]
    assert list(kat.rsp("kyber512", 0)) == ["# Kyber512\n\n"]


# SHA-256 digests of the KAT text published by liboqs (tests/KATs/kem/kats.json at
# open-quantum-safe/liboqs commit 04e1b327442ee61b96c549b98bcb5e60469ab3b3): "all" is
# entries 0..99 separated by one empty line, without header (NIST-KAT-FORMAT.md §5).
LIBOQS_ALL = {
    "Kyber512": "0435224d77cc89bf77b82aa82af254b62f25d24e18c44dcd0aa9473cde97217a",
    "Kyber768": "b3a12005fe1ce49f5df510aea6a56bfa4bdc2d3d706afb0361d70dc88188a2a6",
    "Kyber1024": "b72b97eb9270d76f2c7a8a0b03022c81c879af9e247abff52405127d77dd3a46",
    "ML-KEM-512": "74b470e797cbdbd589a31d387d36c72aad5033446ab5159bf4014c24652b1173",
    "ML-KEM-768": "e5d6911117c708d8342702db222f66bef5ac5b0314fb8bc36eb22a536c9b34fb",
    "ML-KEM-1024": "81d1ae0468f62154885b6f2a293c0eb48f9339645357a88bbbc186c57ab0ace0",
}


@pytest.mark.parametrize("name", list(LIBOQS_ALL))
def test_all_100_entries_match_liboqs(name: str) -> None:
    """All 100 entries, ML-KEM included: its keygen asks the DRBG for d || z in one
    64-byte request, as liboqs (mlkem-native) does; round-3 Kyber asks for d, then z."""
    text = "\n".join(kat.entries(pqkit.kem(name), 100))
    assert hashlib.sha256(text.encode()).hexdigest() == LIBOQS_ALL[name]


def test_progress_bar_only_on_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("tqdm", reason="the bar needs the optional tqdm")
    assert main(["kat", "Kyber512", "--count", "2"]) == 0
    quiet = capsys.readouterr()
    assert quiet.err == ""  # stderr is not a terminal here
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert main(["kat", "Kyber512", "--count", "2"]) == 0
    shown = capsys.readouterr()
    assert shown.out == quiet.out
    assert "KAT Kyber512" in shown.err and "/2 " in shown.err

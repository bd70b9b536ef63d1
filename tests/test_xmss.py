"""XMSS / XMSS^MT (RFC 8391, SP 800-208): the shared liboqs files (sign with the
file's private key and index: the signature must be the file's ``sm`` and the
counts its ``remain`` / ``max``; verify), the XMSS reference code's own vectors
(the SP 800-208 XMSS^MT sets among them), round trips, RFC 9802 public keys, the
kernels against the hashlib reference."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from helpers import load_lines

import pqkit
from pqkit import arith
from pqkit.stateful import files
from pqkit.xmss import core
from pqkit.xmss.params import PARAMS, XMSS_BY_OID, XMSSMT_BY_OID
from pqkit.xmss.scheme import XmssEngine

# the height-10 files run by default; heights 16 and 20 (XMSS^MT 20/2 included) under slow
FAST = [n for n in PARAMS if "_10_" in n]
SLOW = [n for n in PARAMS if "_16_" in n or "_20_" in n] + [
    "XMSSMT-SHA2_20/2_256",
    "XMSSMT-SHAKE_20/2_256",
]


def _rsp(name: str) -> dict[str, str]:
    out = {}
    for line in load_lines(f"xmss/{name.replace('/', '-')}.rsp.gz"):
        if " = " in line:
            key, value = line.split(" = ", 1)
            out[key] = value
    return out


def _check_file(name: str) -> None:
    v = _rsp(name)
    p = PARAMS[name]
    kernels = arith.kernels("hash", "jit" if "jit" in arith.available("hash") else "numpy")
    pk, sk = bytes.fromhex(v["pk"]), bytes.fromhex(v["sk"])
    msg, sm = bytes.fromhex(v["msg"]), bytes.fromhex(v["sm"])
    assert int(v["smlen"]) == len(sm) == p.length_signature
    # the reference's key: OID || idx || SK_SEED || SK_PRF || root || PUB_SEED || traversal
    # state (recomputed here, not read)
    assert int.from_bytes(sk[:4], "big") == p.oid
    idx = int.from_bytes(sk[4 : 4 + p.index_bytes], "big")
    material = sk[4 + p.index_bytes : 4 + p.index_bytes + 4 * p.n]
    engine = XmssEngine(p, material, kernels)
    assert engine.public_key() == pk
    assert engine.sign(idx, msg) == sm
    assert int(v["max"]) == p.max_signatures
    assert int(v["remain"]) == p.max_signatures - (idx + 1)
    scheme = pqkit.sig(name)
    assert scheme.verify(pk, msg, sm)
    assert not scheme.verify(pk, msg + b"\x00", sm)


@pytest.mark.parametrize("name", FAST)
def test_liboqs_xmss_files(name: str) -> None:
    _check_file(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW)
def test_liboqs_xmss_files_tall_trees(name: str) -> None:
    _check_file(name)


def test_every_shared_file_is_covered() -> None:
    assert len(FAST) + len(SLOW) == 23


def _reference_vectors() -> list[object]:
    """xmss-reference's test/vectors.c lines (tests/vectors/xmss/README.md): one per
    OID; XMSSMT 34 (XMSSMT-SHA2_20/4_192, SP 800-208) runs by default."""
    out = []
    for line in load_lines("xmss/reference-vectors.txt.gz"):
        kind, oid, pk_hash, sig_hash = line.split()
        p = (XMSSMT_BY_OID if kind == "XMSSMT" else XMSS_BY_OID)[int(oid)]
        marks = [] if p.name == "XMSSMT-SHA2_20/4_192" else [pytest.mark.slow]
        out.append(pytest.param(p.name, pk_hash, sig_hash, id=p.name, marks=marks))
    return out


@pytest.mark.parametrize(("name", "pk_hash", "sig_hash"), _reference_vectors())
def test_reference_code_vectors(name: str, pk_hash: str, sig_hash: str) -> None:
    """Key of seed[i] = i, index 2^(h-1), message 0x25: SHAKE128 digests (10 bytes)
    of the public key (without OID) and of the signature."""
    p = PARAMS[name]
    scheme = pqkit.sig(name)
    pk, _ = scheme.keygen_derand(bytes(range(3 * p.n)))  # SK_SEED || SK_PRF || PUB_SEED
    assert hashlib.shake_128(pk[4:]).hexdigest(10) == pk_hash
    material = scheme._material(bytes(range(3 * p.n)))  # type: ignore[attr-defined]
    sig = XmssEngine(p, material, scheme._kernels()).sign(1 << (p.h - 1), b"\x25")  # type: ignore[attr-defined]
    assert hashlib.shake_128(sig).hexdigest(10) == sig_hash
    assert scheme.verify(pk, b"\x25", sig)


def test_sp800_208_xmssmt_sets() -> None:
    """SP 800-208 Table 11: XMSS^MT OIDs 0x21-0x38 follow RFC 8391's 0x01-0x20, eight
    shapes per hash: SHA-256/192, SHAKE256 n = 32, SHAKE256 n = 24."""
    shapes = ["20/2", "20/4", "40/2", "40/4", "40/8", "60/3", "60/6", "60/12"]
    families = ["SHA2_{}_192", "SHAKE256_{}_256", "SHAKE256_{}_192"]
    names = [f"XMSSMT-{f.format(s)}" for f in families for s in shapes]
    assert [XMSSMT_BY_OID[oid].name for oid in range(0x21, 0x39)] == names
    assert max(XMSSMT_BY_OID) == 0x38
    for name in names:
        scheme = pqkit.sig(name)
        assert scheme.length_public_key == 4 + 2 * PARAMS[name].n


@pytest.mark.parametrize("name", ["XMSS-SHA2_10_256", "XMSS-SHAKE256_10_192"])
def test_round_trip_and_spki(name: str) -> None:
    scheme = pqkit.sig(name)
    pk, sk = scheme.keygen()
    assert sk.remaining() == 1023
    sig = scheme.sign(sk, b"hello")
    assert scheme.verify(pk, b"hello", sig) and not scheme.verify(pk, b"hellO", sig)
    assert int.from_bytes(sig[:4], "big") == 0 and sk.remaining() == 1022
    spki = scheme.public_key_spki(pk)  # type: ignore[attr-defined]
    assert files.decode_spki(spki) == (files.OID_XMSS, pk)


def test_sp800_208_xmssmt_round_trip_and_spki() -> None:
    scheme = pqkit.sig("XMSSMT-SHAKE256_20/4_192")
    pk, sk = scheme.keygen()
    assert sk.remaining() == (1 << 20) - 1
    sig = scheme.sign(sk, b"hello")
    assert len(sig) == scheme.length_signature == 3 + 24 + 4 * (51 + 5) * 24
    assert scheme.verify(pk, b"hello", sig) and not scheme.verify(pk, b"hellO", sig)
    spki = scheme.public_key_spki(pk)  # type: ignore[attr-defined]
    assert files.decode_spki(spki) == (files.OID_XMSSMT, pk)


def test_hash_kernels_match_the_reference() -> None:
    p = PARAMS["XMSS-SHA2_10_192"]
    seed = bytes(range(24))
    ref = core.Xmss(p, seed, None).leaves(seed, 0, 0, 0, 2)
    for backend in arith.available("hash"):
        got = core.Xmss(p, seed, arith.kernels("hash", backend)).leaves(seed, 0, 0, 0, 2)
        assert (got == ref).all(), backend


@pytest.mark.parametrize("name", ["XMSS-SHA2_10_256", "XMSS-SHA2_10_192"])
def test_compiled_chains_match_the_reference(name: str) -> None:
    """The ``jit`` whole-chain kernel (pqkit.xmss.kernels.jit_ops) against the
    hashlib reference, with every begin / end step pair a signer or verifier uses."""
    if "jit" not in arith.available("hash"):
        pytest.skip("the jit backend is not available (Numba not installed)")
    p = PARAMS[name]
    seed = bytes(range(p.n))
    fast, ref = core.Xmss(p, seed, arith.kernels("hash", "jit")), core.Xmss(p, seed, None)
    assert fast._compiled is not None and ref._compiled is None
    begin, end = (a.ravel().astype(np.int64) for a in np.triu_indices(16))
    count = len(begin)  # 136 pairs, 0 <= begin <= end <= 15
    ints = np.arange(count, dtype=np.int64)
    x = np.frombuffer(hashlib.shake_256(b"x").digest(count * p.n), np.uint8).reshape(count, -1)
    args = (ints % 3, ints * 977, ints % 1024, ints % p.len, x, begin, end)
    assert (fast.chains(*args) == ref.chains(*args)).all()


def test_malformed_signatures_are_false() -> None:
    v = _rsp("XMSS-SHA2_10_256")
    pk, msg, sm = bytes.fromhex(v["pk"]), bytes.fromhex(v["msg"]), bytes.fromhex(v["sm"])
    scheme = pqkit.sig("XMSS-SHA2_10_256")
    assert not scheme.verify(pk, msg, sm[:-1])
    assert not scheme.verify(pk, msg, b"\xff\xff\xff\xff" + sm[4:])  # index out of range
    other = (2).to_bytes(4, "big") + pk[4:]
    assert not scheme.verify(other, msg, sm)

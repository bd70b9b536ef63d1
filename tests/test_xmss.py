"""XMSS / XMSS^MT (RFC 8391, SP 800-208): the shared liboqs files (sign with the
file's private key and index: the signature must be the file's ``sm`` and the
counts its ``remain`` / ``max``; verify), round trips, RFC 9802 public keys,
the kernels against the hashlib reference."""

from __future__ import annotations

import pytest
from helpers import load_lines

import pqkit
from pqkit import arith
from pqkit.stateful import files
from pqkit.xmss import core
from pqkit.xmss.params import PARAMS
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


def test_hash_kernels_match_the_reference() -> None:
    p = PARAMS["XMSS-SHA2_10_192"]
    seed = bytes(range(24))
    ref = core.Xmss(p, seed, None).leaves(seed, 0, 0, 0, 2)
    for backend in arith.available("hash"):
        got = core.Xmss(p, seed, arith.kernels("hash", backend)).leaves(seed, 0, 0, 0, 2)
        assert (got == ref).all(), backend


def test_malformed_signatures_are_false() -> None:
    v = _rsp("XMSS-SHA2_10_256")
    pk, msg, sm = bytes.fromhex(v["pk"]), bytes.fromhex(v["msg"]), bytes.fromhex(v["sm"])
    scheme = pqkit.sig("XMSS-SHA2_10_256")
    assert not scheme.verify(pk, msg, sm[:-1])
    assert not scheme.verify(pk, msg, b"\xff\xff\xff\xff" + sm[4:])  # index out of range
    other = (2).to_bytes(4, "big") + pk[4:]
    assert not scheme.verify(other, msg, sm)

"""Interop with pqcrypto (the Rust implementations behind the ``pqcrypto`` PyPI
package): their signatures verify here and ours there, pure and HashSLH-DSA,
with a context. Optional: skipped when pqcrypto is not installed."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

import pqkit

pqcrypto = pytest.importorskip("pqcrypto", reason="the optional pqcrypto package is not installed")

FAST = ["SLH-DSA-SHA2-128f", "SLH-DSA-SHAKE-128f"]
# pqcrypto.HashAlgorithm member for each ACVP pre-hash name FIPS 205 allows.
PREHASH = {
    "SHA2-224": "Sha224",
    "SHA2-256": "Sha256",
    "SHA2-384": "Sha384",
    "SHA2-512": "Sha512",
    "SHA2-512/224": "Sha512_224",
    "SHA2-512/256": "Sha512_256",
    "SHA3-224": "Sha3_224",
    "SHA3-256": "Sha3_256",
    "SHA3-384": "Sha3_384",
    "SHA3-512": "Sha3_512",
    "SHAKE-128": "Shake128",
    "SHAKE-256": "Shake256",
}


def theirs(name: str) -> Any:
    module = name.replace("SLH-DSA-", "slh_dsa_").replace("-", "_").lower()
    return importlib.import_module(f"pqcrypto.sign.{module}")


@pytest.mark.parametrize("name", FAST)
def test_pure_both_ways(name: str) -> None:
    ours, other = pqkit.sig(name), theirs(name)
    msg, ctx = b"interop message", b"interop context"
    pk, sk = other.keygen()
    assert ours.verify(pk, msg, other.sign(sk, msg, context=ctx), ctx)
    assert ours.verify(pk, msg, other.sign(sk, msg), b"")
    pk2, sk2 = ours.keygen()
    other.verify(pk2, msg, ours.sign(sk2, msg, ctx), context=ctx)  # raises if bad
    with pytest.raises(pqcrypto.InvalidSignatureError):
        other.verify(pk2, msg, ours.sign(sk2, msg, ctx), context=b"other")


@pytest.mark.parametrize(
    ("name", "prehash"),
    [("SLH-DSA-SHA2-128f", p) for p in PREHASH] + [("SLH-DSA-SHAKE-128f", "SHAKE-128")],
)
def test_prehash_both_ways(name: str, prehash: str) -> None:
    ours, other = pqkit.sig(name), theirs(name)
    algorithm = getattr(pqcrypto.HashAlgorithm, PREHASH[prehash])
    msg, ctx = b"pre-hashed interop", b"ctx"
    pk, sk = other.keygen()
    sig = other.sign(sk, msg, context=ctx, hash_algorithm=algorithm)
    assert ours.verify(pk, msg, sig, ctx, prehash=prehash)
    assert not ours.verify(pk, msg, sig, ctx)
    pk2, sk2 = ours.keygen()
    other.verify(pk2, msg, ours.sign(sk2, msg, ctx, prehash=prehash), context=ctx,
                 hash_algorithm=algorithm)  # fmt: skip


def test_secret_key_format_matches() -> None:
    # pqcrypto's 4n-byte secret key is FIPS 205's SK.seed || SK.prf || PK.seed || PK.root:
    # our deterministic signature under it verifies with their public key.
    name = "SLH-DSA-SHAKE-128f"
    ours, other = pqkit.sig(name), theirs(name)
    pk, sk = other.keygen()
    assert sk[32:] == pk
    assert ours.keygen_derand(sk[:48]) == (pk, sk)

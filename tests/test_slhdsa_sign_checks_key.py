"""Issue 28 item 9: SLH-DSA signing refuses a secret key whose PK.root is not the
hypertree root of its SK.seed and PK.seed (FIPS 205, Algorithm 18), instead of
returning a signature that never verifies."""

from __future__ import annotations

import pytest

import pqkit
from pqkit import arith

NAMES = ["SLH-DSA-SHA2-128f", "SLH-DSA-SHAKE-128f"]
SEED48 = bytes(range(48))


@pytest.mark.parametrize("name", NAMES)
def test_sign_refuses_a_wrong_pk_root(name: str) -> None:
    """On the batched Python path; the check sits in the scheme's one signing
    function, above the choice of the compiled engine or that path."""
    with arith.use("numpy"):
        s = pqkit.sig(name)
        pk, sk = s.keygen_derand(SEED48)
        n = len(pk) // 2
        for flip in (len(sk) - 1, 3 * n):  # the last and the first byte of PK.root
            bad = bytearray(sk)
            bad[flip] ^= 1
            with pytest.raises(ValueError, match=r"PK\.root is not the hypertree root"):
                s.sign(bytes(bad), b"m", deterministic=True)
            with pytest.raises(ValueError, match=r"PK\.root is not the hypertree root"):
                s.sign_internal(bytes(bad), b"m")
        sig = s.sign(sk, b"m", deterministic=True)  # the right key still signs
        assert s.verify(pk, b"m", sig)

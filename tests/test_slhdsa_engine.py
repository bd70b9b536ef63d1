"""The compiled SLH-DSA engine (pqkit.slhdsa.kernels.jit_ops) against the batched
Python path (its reference twin, on the numpy backend): the same keys, signatures
and verification results, on random seeds and messages, for one SHAKE and one
SHA-2 set of each category (the f sets by default, the s sets with ``-m slow``);
and its address builder against :class:`pqkit.slhdsa.adrs.AdrsCodec`."""

from __future__ import annotations

import os
import random

import pytest
from helpers import FAST_BACKENDS

import pqkit
from pqkit.arith.ops import operations
from pqkit.slhdsa.adrs import Adrs, AdrsCodec
from pqkit.slhdsa.fips205 import SLHDSA

pytestmark = pytest.mark.skipif("jit" not in FAST_BACKENDS, reason="numba is not installed")

_SETS = [
    pytest.param(f"SLH-DSA-{family}-{size}", marks=[pytest.mark.slow] if size[-1] == "s" else [])
    for size in ("128f", "192f", "256f", "128s", "192s", "256s")
    for family in ("SHAKE", "SHA2")
]


def _pair(name: str) -> tuple[SLHDSA, SLHDSA]:
    scheme = pqkit.sig(name)
    assert isinstance(scheme, SLHDSA)
    reference = scheme.using(arith="numpy")
    compiled = scheme.using(arith="jit")
    assert reference._engine() is None
    assert compiled._engine() is not None
    return reference, compiled


@pytest.mark.parametrize("compressed", [False, True])
def test_compiled_addresses_match_the_codec(compressed: bool) -> None:
    from pqkit.slhdsa.kernels.jit_ops import adrs_bytes

    codec = AdrsCodec(compressed)
    rng = random.Random(205)
    for case in range(300):
        adrs = Adrs()
        adrs.set_layer_address(rng.randrange(256))
        # the full 64-bit tree range: SHAKE-256f's idx_tree has h - h/d = 64 bits
        adrs.set_tree_address((1 << 64) - 1 if case == 0 else rng.randrange(1 << 64))
        adrs.set_type_and_clear(rng.randrange(7))
        adrs.set_key_pair_address(rng.randrange(1 << 32))
        adrs.set_chain_address(rng.randrange(1 << 32))
        adrs.set_hash_address(rng.randrange(1 << 32))
        ours = adrs_bytes(
            compressed, adrs.layer, adrs.tree, adrs.type, adrs.keypair, adrs.word2, adrs.word3
        )
        assert ours == codec.encode(adrs)


def test_engine_only_on_jit() -> None:
    assert operations("slhdsa", "jit") is not None
    assert operations("slhdsa", "numpy") is None
    assert operations("slhdsa", "ref") is None


@pytest.mark.parametrize("name", _SETS)
def test_engine_equals_the_python_path(name: str) -> None:
    reference, compiled = _pair(name)
    n = reference.params.n
    for trial in range(2):
        seed = os.urandom(reference.length_seed)
        pk, sk = compiled.keygen_derand(seed)
        assert (pk, sk) == reference.keygen_derand(seed)
        message = os.urandom(1 + 40 * trial)
        rnd = os.urandom(n)
        sig = compiled.sign(sk, message, b"ctx", rnd=rnd)
        assert sig == reference.sign(sk, message, b"ctx", rnd=rnd)
        det = compiled.sign(sk, message, deterministic=True)
        assert det == reference.sign(sk, message, deterministic=True)
        for scheme in (compiled, reference):
            assert scheme.verify(pk, message, sig, b"ctx")
            assert scheme.verify(pk, message, det)
            assert not scheme.verify(pk, message + b"!", sig, b"ctx")
        # A flipped bit in R, in SIG_FORS, in each layer's WOTS+ part and AUTH part,
        # and in the last byte: both paths refuse it.
        p = reference.params
        spots = [0, n + 5, n + p.length_fors_signature - 1]
        for layer in range(p.d):
            start = n + p.length_fors_signature + layer * p.length_xmss_signature
            spots += [start + 3, start + p.len * n + 1]
        spots.append(len(sig) - 1)
        for spot in spots:
            bad = bytearray(sig)
            bad[spot] ^= 0x10
            assert not compiled.verify(pk, message, bytes(bad), b"ctx"), spot
            assert not reference.verify(pk, message, bytes(bad), b"ctx"), spot


@pytest.mark.parametrize("name", ["SLH-DSA-SHAKE-128f", "SLH-DSA-SHA2-192f"])
def test_engine_keeps_verify_contract(name: str) -> None:
    _, compiled = _pair(name)
    pk, sk = compiled.keygen()
    sig = compiled.sign(sk, b"m")
    assert not compiled.verify(pk, b"m", sig[:-1])  # wrong length: False, no engine call
    assert not compiled.verify(pk, b"m", sig + b"\x00")
    other, _ = compiled.keygen()
    assert not compiled.verify(other, b"m", sig)
    assert compiled.public_key_from_secret(sk) == pk


def test_sha_ni_follows_numba_target_features(monkeypatch: pytest.MonkeyPatch) -> None:
    """SHA-NI is chosen from the features Numba compiles for: a NUMBA_CPU_FEATURES
    list without +sha (a cache built for other machines) selects the portable rounds,
    one with it selects SHA-NI."""
    pytest.importorskip("numba")
    from numba.core import config

    from pqkit.common.kernels import jit_sha256 as ops  # the one owner since issue 35

    monkeypatch.setattr(config, "CPU_FEATURES", "+sse2,+avx2,-sha")
    assert ops._sha_ni_available() is False
    monkeypatch.setattr(config, "CPU_FEATURES", "+sse2,+sha")
    assert ops._sha_ni_available() is True


def test_one_state_sha256_compressions_agree() -> None:
    """The SHA-NI rounds (where the CPU has them) and the portable rounds give the
    same state, and the selected one is what the engine runs."""
    import numpy as np

    from pqkit.slhdsa.kernels import jit_ops as ops

    rng = np.random.default_rng(205)
    variants = [ops._sha256_1_words] + ([ops._sha256_1_ni] if ops.SHA_NI else [])
    assert ops._sha256_1 is variants[-1]
    for _ in range(50):
        h = rng.integers(0, 1 << 32, 8, dtype=np.uint64).astype(np.uint32)
        block = rng.integers(0, 1 << 32, 16, dtype=np.uint64).astype(np.uint32)
        states = []
        for compress in variants:
            hs, w = h.copy(), np.zeros(64, dtype=np.uint32)
            w[:16] = block
            compress(hs, w)
            states.append(hs)
        assert all((s == states[0]).all() for s in states)
    # FIPS 180-4 on "abc": one block from the initial hash values.
    h = np.array([int(x) for x in ops._H256], dtype=np.uint32)
    w = np.zeros(64, dtype=np.uint32)
    w[0], w[15] = 0x61626380, 24
    ops._sha256_1(h, w)
    expected = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert h.astype(">u4").tobytes().hex() == expected


def test_digest_entry_points_equal_the_path_ones() -> None:
    """slhdsa_sign_digest / slhdsa_verify_digest (the path split in the compiled
    call) equal slhdsa_sign_trees / slhdsa_verify_root given the Python split."""
    from pqkit.slhdsa.adrs import base_2b
    from pqkit.slhdsa.hypertree import ht_path

    scheme = pqkit.sig("SLH-DSA-SHAKE-256f")  # idx_tree has all 64 bits
    assert isinstance(scheme, SLHDSA)
    engine = scheme.using(arith="jit")._engine()
    p = scheme.params
    n = p.n
    seed = os.urandom(3 * n)
    for case in range(2):
        digest = (b"\xff" if case == 0 else os.urandom(1)) * p.m
        md, idx_tree, idx_leaf = scheme._digest_indices(digest)
        path = ht_path(p, idx_tree, idx_leaf)
        args = {
            "indices": base_2b(md, p.a, p.k),
            "trees": [tree for tree, _ in path],
            "leaves": [leaf for _, leaf in path],
        }
        sig = engine.slhdsa_sign_digest(p, seed[:n], seed[2 * n :], digest)
        assert sig == engine.slhdsa_sign_trees(p, seed[:n], seed[2 * n :], **args)
        root = engine.slhdsa_verify_digest(p, seed[2 * n :], sig, digest)
        assert root == engine.slhdsa_verify_root(p, seed[2 * n :], sig, **args)
        assert root == engine.slhdsa_keygen_root(p, seed[:n], seed[2 * n :])

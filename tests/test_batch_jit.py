"""The batch views on the jit backend, which run the compiled batch operations
(pqkit.mlkem.kernels.jit_batch, pqkit.mldsa.kernels.jit_batch: one compiled call per
chunk, 8 items per Keccak group): rows against the single operations on random
rows (counts that leave a partial group of 8), broadcasting, n = 0 and 1, mixed
message lengths, malformed rows, chunks on threads."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest
from batch_cases import random_rows

import pqkit
from pqkit import arith
from pqkit.arith.ops import batch_operations
from pqkit.mlkem import batch as mlkem_batch

pytestmark = pytest.mark.skipif(
    "jit" not in arith.available("mlkem"), reason="numba (the jit extra) not installed"
)

KEMS = ("ML-KEM-512", "ML-KEM-768", "ML-KEM-1024")
SIGS = ("ML-DSA-44", "ML-DSA-65", "ML-DSA-87")


def _kem(name: str = "ML-KEM-768") -> Any:
    return pqkit.kem(name).using(arith="jit")


def _sig(name: str = "ML-DSA-44") -> Any:
    return pqkit.sig(name).using(arith="jit")


def test_the_jit_views_run_the_compiled_batch_operations(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    for scheme, names in (
        ("mlkem", ("keygen_rows", "encaps_rows", "decaps_rows")),
        ("mldsa", ("keygen_rows", "sign_rows", "verify_rows")),
    ):
        table = batch_operations(scheme, "jit")
        assert table is not None
        for name in names:
            real = getattr(table, name)

            def spy(*args: Any, _real: Any = real, _name: str = name, **kw: Any) -> Any:
                calls.append(_name)
                return _real(*args, **kw)

            monkeypatch.setattr(table, name, spy)
    assert batch_operations("mlkem", "numpy") is None
    kem = _kem("ML-KEM-512")
    pks, sks = kem.batch.keygen(mlkem_batch.FEW)  # fewer rows run the single operations
    _, cts = kem.batch.encaps(pks)
    kem.batch.decaps(sks, cts)
    dsa = _sig()
    pks, sks = dsa.batch.keygen(2)
    dsa.batch.verify(pks, [b"a", b"b"], dsa.batch.sign(sks, [b"a", b"b"]))
    kem_ops = ["keygen_rows", "encaps_rows", "decaps_rows"]
    assert calls == [*kem_ops, "keygen_rows", "sign_rows", "verify_rows"]


@pytest.mark.parametrize("n", range(1, mlkem_batch.FEW + 1))
def test_kem_few_rows_equal_single_operations(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # Below FEW rows encaps / decaps run the single operations (the compiled batch
    # computes 16 lanes whatever the count); from FEW on the compiled batch. Both give
    # the single operations' bytes, with one key broadcast or one per row.
    calls: list[str] = []
    table = batch_operations("mlkem", "jit")
    assert table is not None
    for op in ("encaps_rows", "decaps_rows"):
        real = getattr(table, op)

        def spy(*args: Any, _real: Any = real, _op: str = op, **kw: Any) -> Any:
            calls.append(_op)
            return _real(*args, **kw)

        monkeypatch.setattr(table, op, spy)
    kem = _kem("ML-KEM-768")
    seeds = random_rows(n, 64)
    pks, sks = kem.batch.keygen_derand(seeds)
    ms = random_rows(n, 32)
    for keys, secret in ((pks, sks), (pks[0], sks[0])):
        ss, cts = kem.batch.encaps_derand(keys, ms)
        bad = cts.copy()
        bad[0, 3] ^= 0x01  # the first row implicitly rejected
        out = kem.batch.decaps(secret, bad)
        for i in range(n):
            pk = keys.tobytes() if keys.ndim == 1 else keys[i].tobytes()
            sk = secret.tobytes() if secret.ndim == 1 else secret[i].tobytes()
            one = kem.encaps_derand(pk, ms[i].tobytes())
            assert ss[i].tobytes() == one.shared_secret and cts[i].tobytes() == one.ciphertext
            assert out[i].tobytes() == kem.decaps(sk, bad[i].tobytes())
    assert calls == ([] if n < mlkem_batch.FEW else ["encaps_rows", "decaps_rows"] * 2)


@pytest.mark.parametrize("name", KEMS)
def test_kem_rows_equal_single_operations(name: str) -> None:
    kem = _kem(name)
    n = 19  # one full group of 16 (the ML-KEM column kernels' width) and a partial one
    seeds = random_rows(n, 64)
    pks, sks = kem.batch.keygen_derand(seeds)
    ms = random_rows(n, 32)
    ss, cts = kem.batch.encaps_derand(pks, ms)
    bad = cts.copy()
    bad[::2, 7] ^= 0x01  # every other row implicitly rejected
    out = kem.batch.decaps(sks, bad)
    for i in range(n):
        pk, sk = kem.keygen_derand(seeds[i].tobytes())
        assert (pks[i].tobytes(), sks[i].tobytes()) == (pk, sk)
        assert kem.encaps_derand(pk, ms[i].tobytes()) == (ss[i].tobytes(), cts[i].tobytes())
        assert out[i].tobytes() == kem.decaps(sk, bad[i].tobytes())
        assert (out[i].tobytes() == ss[i].tobytes()) == (i % 2 == 1)


@pytest.mark.parametrize("name", KEMS)
def test_kem_rejection_at_every_end_of_the_ciphertext(name: str) -> None:
    # Decapsulation compares the re-encryption with c on the decoded values: a change
    # in the first or last byte of c1 or c2, in any lane of a group of 16 and in the
    # short last group (n = 35), gives that row's implicit-rejection key, and only it.
    kem = _kem(name)
    p = kem.params
    n = 35
    pks, sks = kem.batch.keygen_derand(random_rows(n, 64))
    ss, cts = kem.batch.encaps_derand(pks, random_rows(n, 32))
    split = 32 * p.du * p.k
    bad = cts.copy()
    spots = [0, split - 1, split, kem.length_ciphertext - 1]
    for i in range(n):
        if i % 3 != 1:
            bad[i, spots[i % 4]] ^= 1 << (i % 8)
    out = kem.batch.decaps(sks, bad)
    for i in range(n):
        want = kem.decaps(sks[i].tobytes(), bad[i].tobytes())
        assert out[i].tobytes() == want
        assert (want == ss[i].tobytes()) == (i % 3 == 1)


def test_kem_broadcast_keys_and_ciphertexts() -> None:
    kem = _kem()
    pk, sk = kem.keygen()
    ms = random_rows(9, 32)
    ss, cts = kem.batch.encaps_derand(pk, ms)  # one ek, decoded once
    for i in range(9):
        assert kem.encaps_derand(pk, ms[i].tobytes()) == (ss[i].tobytes(), cts[i].tobytes())
    assert (kem.batch.decaps(sk, cts) == ss).all()  # one dk, many ciphertexts
    _, sks = kem.batch.keygen(9)
    many = kem.batch.decaps(sks, cts[0].tobytes())  # many dks, one ciphertext
    assert [many[i].tobytes() for i in range(9)] == [
        kem.decaps(sks[i].tobytes(), cts[0].tobytes()) for i in range(9)
    ]


@pytest.mark.parametrize("n", [0, 1])
def test_zero_and_one_rows(n: int) -> None:
    kem = _kem("ML-KEM-512")
    pks, sks = kem.batch.keygen(n)
    assert pks.shape == (n, kem.length_public_key) and sks.shape == (n, kem.length_secret_key)
    ss, cts = kem.batch.encaps(pks)
    assert ss.shape == (n, 32) and cts.shape == (n, kem.length_ciphertext)
    assert (kem.batch.decaps(sks, cts) == ss).all()
    dsa = _sig()
    pks, sks = dsa.batch.keygen(n)
    assert pks.shape == (n, dsa.length_public_key)
    msgs = [b"x" * 3] * n
    sigs = dsa.batch.sign(sks, msgs)
    assert sigs.shape == (n, dsa.length_signature)
    ok = dsa.batch.verify(pks, msgs, sigs)
    assert ok.shape == (n,) and ok.all()


def test_kem_malformed_rows_raise_naming_the_row() -> None:
    kem = _kem()
    pks, sks = kem.batch.keygen(10)
    bad = pks.copy()
    bad[9, 384:386] = 0xFF  # coefficient 4095 >= q, in the second group of 8
    with pytest.raises(ValueError, match=r"^row 9: FIPS 203 §7\.2 modulus check failed"):
        kem.batch.encaps(bad)
    _, cts = kem.batch.encaps(pks)
    bad_sk = sks.copy()
    bad_sk[3, 768 * 3 + 50] ^= 1  # inside H(ek)
    with pytest.raises(ValueError, match=r"^row 3: FIPS 203 §7\.3 hash check failed"):
        kem.batch.decaps(bad_sk, cts)


@pytest.mark.parametrize("k", [2, 3, 4])
def test_ek_modulus_check_equals_decode_encode(k: int) -> None:
    """The compiled §7.2 check (a comparison per 12-bit value) against its
    definition on the ``ref`` kernels: ByteEncode_12(ByteDecode_12(t)) != t, on
    rows with one value at q - 1, q, q + 1 or 4095 in either half of a triple."""
    table = batch_operations("mlkem", "jit")
    assert table is not None
    ref = arith.kernels("mlkem", "ref")
    rng = np.random.default_rng(k)
    n = 40
    t = np.zeros((n, 128 * k, 2), dtype=np.int64)
    t[:] = rng.integers(0, 3329, t.shape)
    for r in range(n):
        value = (3328, 3329, 3330, 4095)[r % 4]
        t[r, rng.integers(128 * k), r // 4 % 2] = value if r % 5 else 0
    raw = ref.byte_encode(t.reshape(n, k, 256) & 0xFFF, 12).reshape(n, 384 * k)
    eks = np.concatenate([raw, random_rows(n, 32)], axis=1)
    again = ref.byte_encode(ref.byte_decode(raw.reshape(n, k, 384), 12), 12)
    expected = (again.reshape(n, -1) != raw).any(axis=1)
    assert expected.any() and not expected.all()
    assert (table.ek_modulus_bad(eks, k) == expected).all()


@pytest.mark.parametrize("name", SIGS)
def test_sig_rows_equal_single_operations(name: str) -> None:
    dsa = _sig(name)
    n = 9
    seeds = random_rows(n, 32)
    pks, sks = dsa.batch.keygen_derand(seeds)
    msgs = [os.urandom(5 * i) for i in range(n)]  # mixed lengths, one empty
    rnd = random_rows(n, 32)
    sigs = dsa.batch.sign(sks, msgs, b"ctx", rnd=rnd)
    det = dsa.batch.sign(sks, msgs, deterministic=True)
    ok = dsa.batch.verify(pks, msgs, sigs, b"ctx")
    assert ok.all() and dsa.batch.verify(pks, msgs, det).all()
    assert not dsa.batch.verify(pks, msgs, sigs).any()  # another context
    for i in range(n):
        pk, sk = dsa.keygen_derand(seeds[i].tobytes())
        assert (pks[i].tobytes(), sks[i].tobytes()) == (pk, sk)
        assert sigs[i].tobytes() == dsa.sign(sk, msgs[i], b"ctx", rnd=rnd[i].tobytes())
        assert det[i].tobytes() == dsa.sign(sk, msgs[i], deterministic=True)


def test_sig_broadcast_and_prehash() -> None:
    dsa = _sig("ML-DSA-65")
    pk, sk = dsa.keygen()
    msgs = [bytes([i]) * (i * 13) for i in range(10)]
    sigs = dsa.batch.sign(sk, msgs, deterministic=True)  # one signer, decoded once
    for i in range(10):
        assert sigs[i].tobytes() == dsa.sign(sk, msgs[i], deterministic=True)
    assert dsa.batch.verify(pk, msgs, sigs).all()  # one pk, decoded once
    assert dsa.batch.verify(pk, msgs[3], sigs).tolist() == [i == 3 for i in range(10)]
    hashed = dsa.batch.sign(sk, msgs[:3], prehash="SHA2-256", deterministic=True)
    for i in range(3):
        assert hashed[i].tobytes() == dsa.sign(sk, msgs[i], prehash="SHA2-256", deterministic=True)
    assert dsa.batch.verify(pk, msgs[:3], hashed, prehash="SHA2-256").all()


def test_sig_malformed_rows() -> None:
    dsa = _sig()
    p = dsa.params
    pks, sks = dsa.batch.keygen(4)
    msgs = [b"m0", b"m1", b"m2", b"m3"]
    sigs = dsa.batch.sign(sks, msgs, deterministic=True)
    rows: list[Any] = [s.tobytes() for s in sigs]
    rows[1] = rows[1][:-1]  # short
    hint = bytearray(rows[2])
    hint[p.c_tilde_bytes + p.l * 32 * p.z_bits + p.omega + p.k - 1] = p.omega + 1
    rows[2] = bytes(hint)  # hint count above omega
    out = dsa.batch.verify(pks, msgs, rows)
    assert out.tolist() == [True, False, False, True]
    assert out.tolist() == [dsa.verify(pks[i].tobytes(), msgs[i], rows[i]) for i in range(4)]
    flipped = sigs.copy()
    flipped[0, 0] ^= 1  # c_tilde
    assert dsa.batch.verify(pks, msgs, flipped).tolist() == [False, True, True, True]
    bad = sks.copy()
    bad[2, -1] ^= 1  # t0 no longer follows from s1, s2
    with pytest.raises(ValueError, match=r"^row 2: ML-DSA-44 secret key: t0 is not Power2Round"):
        dsa.batch.sign(bad, msgs, deterministic=True)
    bad = sks.copy()
    bad[1, 70] ^= 1  # tr
    with pytest.raises(ValueError, match=r"^row 0: ML-DSA-44 secret key: tr is not H"):
        dsa.batch.sign(bad[1], msgs, deterministic=True)


def test_chunks_on_threads_give_the_same_rows() -> None:
    kem = _kem("ML-KEM-512")
    seeds = random_rows(13, 64)
    whole = kem.batch.keygen_derand(seeds)
    view = kem.batch
    view.chunk = 4
    pks, sks = view.keygen_derand(seeds, workers=2)
    assert (pks == whole[0]).all() and (sks == whole[1]).all()
    ms = random_rows(13, 32)
    ss, cts = view.encaps_derand(pks, ms, workers=2)
    assert (ss == kem.batch.encaps_derand(pks, ms)[0]).all()
    assert (view.decaps(sks, cts, workers=2) == ss).all()
    dsa = _sig()
    sview = dsa.batch
    sview.chunk = 3
    spks, ssks = dsa.batch.keygen(7)
    msgs = [bytes([i]) for i in range(7)]
    sigs = sview.sign(ssks, msgs, deterministic=True, workers=2)
    assert (sigs == dsa.batch.sign(ssks, msgs, deterministic=True)).all()
    assert sview.verify(spks, msgs, sigs, workers=2).all()
    got = np.concatenate([p for p, _ in view.iter_keygen(9, workers=2)])
    assert got.shape == (9, kem.length_public_key)


@pytest.mark.parametrize("tau", [39, 49, 60])
def test_public_challenge_equals_the_masked_one(tau: int) -> None:
    # Verification samples c from the published c_tilde with Algorithm 29's
    # branches; signing keeps the masked scan. Same c, also when the first
    # prefix runs out (a 20-byte one always does) and a longer one is read.
    from pqkit.mldsa.kernels import jit_ops as ops

    for _ in range(20):
        c_tilde = np.frombuffer(os.urandom(48), np.uint8).copy()
        want = ops._sample_c(c_tilde, tau)
        for n in (136, 20):
            got = ops._challenge_public(c_tilde, ops._h(c_tilde, n), tau)
            assert (got == want).all()
        _, ok = ops._ball_public(ops._h(c_tilde, 20), tau)
        assert not ok
    assert int(np.abs(want).sum()) == tau


def test_automatic_backend_uses_the_batch_kernels_once_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Chosen automatically (no arith=, scope or PQKIT_ARITH): the jit kernels are
    # ready but the warm-up's "mlkem-batch" family has not run, so the view runs its
    # vectorised path on them (no wait for the compiler); then the compiled one.
    from pqkit.arith import auto

    monkeypatch.delenv("PQKIT_ARITH", raising=False)
    monkeypatch.setattr(auto, "_ready", {"mlkem": 0.0, "mldsa": 0.0})
    monkeypatch.setattr(auto, "_queue", [])  # the test processes start no warm-up
    kem = pqkit.kem("ML-KEM-512")
    view = kem.batch
    K = view._kernels()
    assert K.backend == "jit" and view._fast(K) is None
    seeds = random_rows(3, 64)
    vectorised = view.keygen_derand(seeds)
    assert kem.using(arith="jit").batch._fast(K) is not None  # explicit: compiled
    with arith.use("jit"):
        assert view._fast(K) is not None  # a scope is explicit too
    auto._ready["mlkem-batch"] = 0.0
    assert view._fast(K) is not None
    compiled = view.keygen_derand(seeds)
    assert (vectorised[0] == compiled[0]).all() and (vectorised[1] == compiled[1]).all()
    dsa = pqkit.sig("ML-DSA-44")
    assert dsa.batch._fast(dsa.batch._kernels()) is None  # its own family is not ready
    auto._ready["mldsa-batch"] = 0.0
    assert dsa.batch._fast(dsa.batch._kernels()) is not None

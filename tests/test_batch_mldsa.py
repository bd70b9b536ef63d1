"""ML-DSA batch view (pqkit.mldsa.batch) against the single operations: keygen,
sign (rows needing different numbers of attempts), verify (malformed rows False),
broadcasting, mixed message lengths, checks naming rows, n = 0 and 1."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest
from batch_cases import BACKENDS, CountingRng, random_rows, rows_for

import pqkit
from pqkit.mldsa.batch import MLDSABatch, hint_bit_pack, hint_bit_unpack
from pqkit.mldsa.core import hint_bit_unpack as single_hint_bit_unpack
from pqkit.mldsa.params import ML_DSA_44

NAMES = ("ML-DSA-44", "ML-DSA-65", "ML-DSA-87")


def _sig(name: str, backend: str) -> Any:
    return pqkit.sig(name).using(arith=backend)


def _names(backend: str) -> tuple[str, ...]:
    return NAMES[:1] if backend == "ref" else NAMES


@pytest.mark.parametrize("backend", BACKENDS)
def test_rows_equal_single_operations(backend: str) -> None:
    for name in _names(backend):
        dsa = _sig(name, backend)
        assert isinstance(dsa.batch, MLDSABatch)
        n = rows_for(backend)
        seeds = random_rows(n, 32)
        pks, sks = dsa.batch.keygen_derand(seeds)
        assert pks.shape == (n, dsa.length_public_key) and sks.shape == (n, dsa.length_secret_key)
        msgs = [os.urandom(3 * i) for i in range(n)]  # mixed lengths, one empty
        rnd = random_rows(n, 32)
        sigs = dsa.batch.sign(sks, msgs, b"context", rnd=rnd)
        assert sigs.shape == (n, dsa.length_signature)
        det = dsa.batch.sign(sks, msgs, deterministic=True)
        assert dsa.batch.verify(pks, msgs, sigs, b"context").all()
        assert dsa.batch.verify(pks, msgs, det).all()
        assert not dsa.batch.verify(pks, msgs, sigs).any()  # wrong context
        for i in range(n):
            pk, sk = dsa.keygen_derand(seeds[i].tobytes())
            assert (pks[i].tobytes(), sks[i].tobytes()) == (pk, sk)
            assert sigs[i].tobytes() == dsa.sign(sk, msgs[i], b"context", rnd=rnd[i].tobytes())
            assert det[i].tobytes() == dsa.sign(sk, msgs[i], deterministic=True)


def test_rows_with_many_attempts_sign_in_one_batch() -> None:
    # Enough rows that their attempt counts differ (ML-DSA-65 needs about 5 on
    # average, geometrically distributed); every row equals the single operation.
    dsa = pqkit.sig("ML-DSA-65")
    pk, sk = dsa.keygen()
    msgs = [i.to_bytes(4, "little") for i in range(24)]
    sigs = dsa.batch.sign(sk, msgs, deterministic=True)
    for i, msg in enumerate(msgs):
        assert sigs[i].tobytes() == dsa.sign(sk, msg, deterministic=True)
    assert dsa.batch.verify(pk, msgs, sigs).all()
    view = dsa.batch
    view.chunk = 5  # chunks, and the multi-attempt passes of small tails
    assert (view.sign(sk, msgs, deterministic=True, workers=2) == sigs).all()


def test_randomised_rows_follow_the_rng_like_a_loop() -> None:
    dsa = pqkit.sig("ML-DSA-44")
    rng_a, rng_b = CountingRng(11), CountingRng(11)
    pks, sks = dsa.batch.keygen(3, rng=rng_a)
    loop = [dsa.keygen(rng=rng_b) for _ in range(3)]
    assert [(p.tobytes(), s.tobytes()) for p, s in zip(pks, sks, strict=True)] == loop
    msgs = [b"a", b"bb", b"ccc"]
    sigs = dsa.batch.sign(sks, msgs, rng=rng_a)
    want = [dsa.sign(sk, m, rng=rng_b) for (_, sk), m in zip(loop, msgs, strict=True)]
    assert [s.tobytes() for s in sigs] == want
    assert rng_a.calls == rng_b.calls == [32] * 6
    assert dsa.batch.verify(pks, msgs, sigs).all()


def test_broadcasting_and_input_forms() -> None:
    dsa = pqkit.sig("ML-DSA-44")
    pk, sk = dsa.keygen()
    msgs = np.frombuffer(os.urandom(4 * 10), np.uint8).reshape(4, 10)  # 2-D messages
    sigs = dsa.batch.sign(np.frombuffer(sk, np.uint8), msgs, rnd=bytes(range(32)))
    for i in range(4):
        assert sigs[i].tobytes() == dsa.sign(sk, msgs[i].tobytes(), rnd=bytes(range(32)))
    assert dsa.batch.verify(pk, msgs, sigs).all()
    assert dsa.batch.verify(pk, msgs[0].tobytes(), sigs[:1]).tolist() == [True]
    # one message, many signatures: row 0 signs it, the others do not
    assert dsa.batch.verify(pk, msgs[0], sigs).tolist() == [True, False, False, False]


def test_malformed_signatures_are_false_rows() -> None:
    dsa = pqkit.sig("ML-DSA-44")
    p = dsa.params
    pk, sk = dsa.keygen()
    msgs = [b"m"] * 6
    sigs = dsa.batch.sign(sk, msgs)
    rows: list[Any] = [s.tobytes() for s in sigs]
    rows[1] = rows[1][:-1]  # short
    rows[2] = rows[2] + b"\0"  # long
    hint_at = p.c_tilde_bytes + p.l * 32 * p.z_bits
    bad = bytearray(rows[3])
    bad[hint_at + p.omega + p.k - 1] = p.omega + 1  # hint count above omega
    rows[3] = bytes(bad)
    bad = bytearray(rows[4])
    bad[-1] = 0xFF  # the last count too
    rows[4] = bytes(bad)
    out = dsa.batch.verify(pk, msgs, rows)
    assert out.dtype == np.bool_ and out.tolist() == [True, False, False, False, False, True]
    assert [dsa.verify(pk, m, s) for m, s in zip(msgs, rows, strict=True)] == out.tolist()
    # a 2-D array of the wrong width: every row False
    assert not dsa.batch.verify(pk, msgs, sigs[:, :-1]).any()
    with pytest.raises(TypeError, match=r"signatures\[0\] must be bytes-like"):
        dsa.batch.verify(pk, msgs[:1], ["x"])


def test_hint_unpack_rows_agree_with_single() -> None:
    # Random hint encodings, many malformed, against core.hint_bit_unpack.
    p = ML_DSA_44
    rng = np.random.default_rng(5)  # test data only
    rows = []
    for _ in range(300):
        y = np.zeros(p.omega + p.k, np.uint8)
        counts = np.sort(rng.integers(0, p.omega + 3, p.k))
        if rng.random() < 0.2:
            counts = rng.integers(0, p.omega + 3, p.k)
        y[p.omega :] = counts
        total = min(int(counts[-1]), p.omega)
        y[:total] = np.sort(rng.integers(0, 256, total))
        if rng.random() < 0.2:
            y[rng.integers(0, p.omega)] = rng.integers(0, 256)
        rows.append(y)
    ys = np.stack(rows)
    hint, ok = hint_bit_unpack(p, ys)
    for i, y in enumerate(rows):
        single = single_hint_bit_unpack(p, y.tobytes())
        assert ok[i] == (single is not None)
        if single is not None:
            assert (hint[i] == single).all()
            assert hint_bit_pack(p, hint[i : i + 1])[0].tobytes() == y.tobytes()
    assert 0 < ok.sum() < len(rows)


@pytest.mark.parametrize("n", [0, 1])
def test_zero_and_one_rows(n: int) -> None:
    dsa = pqkit.sig("ML-DSA-44")
    pks, sks = dsa.batch.keygen(n)
    assert pks.shape == (n, dsa.length_public_key)
    sigs = dsa.batch.sign(sks, [b"x"] * n)
    assert sigs.shape == (n, dsa.length_signature)
    ok = dsa.batch.verify(pks, [b"x"] * n, sigs)
    assert ok.shape == (n,) and ok.all()


def test_secret_key_check_names_the_row() -> None:
    dsa = pqkit.sig("ML-DSA-44")
    _, sks = dsa.batch.keygen(3)
    bad = sks.copy()
    bad[2, 64 + 64] = 0xFF  # s1 coefficient 7 > 2 eta
    rng = CountingRng()
    with pytest.raises(ValueError, match=r"^row 2: ML-DSA-44 secret key: s1/s2 coefficient"):
        dsa.batch.sign(bad, [b"m"] * 3, rng=rng)
    assert rng.calls == []


def test_argument_checks() -> None:
    dsa = pqkit.sig("ML-DSA-44")
    pks, sks = dsa.batch.keygen(2)
    with pytest.raises(ValueError, match=r"context string \(ctx\) must be at most 255 bytes"):
        dsa.batch.sign(sks, [b"m"] * 2, bytes(256))
    with pytest.raises(ValueError, match=r"context string \(ctx\) must be at most 255 bytes"):
        dsa.batch.verify(pks, [b"m"] * 2, np.zeros((2, dsa.length_signature), np.uint8), bytes(256))
    with pytest.raises(ValueError, match="give rnd or deterministic=True, not both"):
        dsa.batch.sign(sks, [b"m"] * 2, rnd=bytes(32), deterministic=True)
    with pytest.raises(ValueError, match=r"rnd must be 32 bytes"):
        dsa.batch.sign(sks, [b"m"] * 2, rnd=bytes(31))
    with pytest.raises(ValueError, match="different numbers of rows: sks has 2, messages has 3"):
        dsa.batch.sign(sks, [b"m"] * 3)
    with pytest.raises(TypeError, match=r"messages\[1\] must be bytes-like, not str"):
        dsa.batch.sign(sks, [b"m", "m"])
    with pytest.raises(TypeError, match="messages must be a uint8 array, bytes or a sequence"):
        dsa.batch.sign(sks, "mm")
    with pytest.raises(ValueError, match=r"seeds\[0\] must be 32 bytes"):
        dsa.batch.keygen_derand([bytes(31)])


def test_prehash_rows_equal_single() -> None:
    dsa = pqkit.sig("ML-DSA-44")
    pk, sk = dsa.keygen()
    msgs = [b"one", b"two!"]
    sigs = dsa.batch.sign(sk, msgs, prehash="SHA2-256", deterministic=True)
    for i, m in enumerate(msgs):
        assert sigs[i].tobytes() == dsa.sign(sk, m, prehash="SHA2-256", deterministic=True)
    assert dsa.batch.verify(pk, msgs, sigs, prehash="SHA2-256").all()
    assert not dsa.batch.verify(pk, msgs, sigs).any()


def test_round3_dilithium_gets_the_loop_view() -> None:
    dsa = pqkit.sig("Dilithium2")
    assert type(dsa.batch).__name__ == "SignatureBatch"
    seeds = random_rows(2, 32)
    pks, sks = dsa.batch.keygen_derand(seeds)
    assert dsa.keygen_derand(seeds[1].tobytes()) == (pks[1].tobytes(), sks[1].tobytes())
    sigs = dsa.batch.sign(sks, [b"a", b"bc"], deterministic=True)
    assert sigs[1].tobytes() == dsa.sign(sks[1].tobytes(), b"bc", deterministic=True)
    assert dsa.batch.verify(pks, [b"a", b"bc"], sigs).tolist() == [True, True]
    assert dsa.batch.verify(pks, [b"a", b"bc"], [sigs[0].tobytes(), b"short"]).tolist() == [
        True,
        False,
    ]
    with pytest.raises(ValueError, match=r"^row 0: .*context"):
        dsa.batch.sign(sks, [b"a", b"bc"], b"ctx")


def test_short_streams_are_reread(monkeypatch: pytest.MonkeyPatch) -> None:
    # First reads too short for most rows (ExpandA, ExpandS, SampleInBall): the
    # re-read paths must give the single operation's keys and signatures.
    import pqkit.mldsa.batch as mldsa_batch

    monkeypatch.setattr(mldsa_batch, "_REJ_UNIFORM_BYTES", 300)
    monkeypatch.setattr(mldsa_batch, "_REJ_BOUNDED_BYTES", 64)
    monkeypatch.setattr(mldsa_batch, "_BALL_BYTES", 40)
    dsa = pqkit.sig("ML-DSA-44")
    seeds = random_rows(2, 32)
    pks, sks = dsa.batch.keygen_derand(seeds)
    sigs = dsa.batch.sign(sks, [b"a", b"b"], deterministic=True)
    for i, msg in enumerate((b"a", b"b")):
        pk, sk = dsa.keygen_derand(seeds[i].tobytes())
        assert (pks[i].tobytes(), sks[i].tobytes()) == (pk, sk)
        assert sigs[i].tobytes() == dsa.sign(sk, msg, deterministic=True)
    assert dsa.batch.verify(pks, [b"a", b"b"], sigs).all()


@pytest.mark.parametrize(
    ("where", "check"), [("t0", "t0 is not Power2Round"), ("tr", "tr is not H")]
)
def test_inconsistent_secret_key_names_the_row(where: str, check: str) -> None:
    dsa = pqkit.sig("ML-DSA-44")
    _, sks = dsa.batch.keygen(3)
    bad = sks.copy()
    bad[1, -1 if where == "t0" else 64 + 5] ^= 1  # tr is bytes 64..127
    with pytest.raises(ValueError, match=rf"^row 1: ML-DSA-44 secret key: {check}"):
        dsa.batch.sign(bad, [b"m"] * 3, deterministic=True)
    with pytest.raises(ValueError, match=rf"^row 0: ML-DSA-44 secret key: {check}"):
        dsa.batch.sign(bad[1], [b"m"] * 3, deterministic=True)


def test_attempt_bound_names_the_row(monkeypatch: pytest.MonkeyPatch) -> None:
    import pqkit.mldsa.batch as mldsa_batch

    monkeypatch.setattr(mldsa_batch, "MAX_SIGN_ATTEMPTS", 1)
    dsa = pqkit.sig("ML-DSA-65")
    _, sk = dsa.keygen()
    msgs = [i.to_bytes(2, "little") for i in range(40)]  # some row needs 2+ attempts
    with pytest.raises(RuntimeError, match=r"^row \d+: ML-DSA-65 signing found no acceptable"):
        dsa.batch.sign(sk, msgs, deterministic=True)

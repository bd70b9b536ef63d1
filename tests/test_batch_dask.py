"""pqkit.batch.dask on Dask's local schedulers (threads and processes)."""

from __future__ import annotations

import numpy as np
import pytest
from batch_cases import random_rows

import pqkit

dask = pytest.importorskip("dask", reason="dask (the dask extra) not installed")
da = pytest.importorskip("dask.array", reason="dask.array not installed")
pqdask = pytest.importorskip("pqkit.batch.dask")


def test_kem_round_trip_on_threads() -> None:
    kem = pqkit.kem("ML-KEM-512")
    seeds = da.from_array(random_rows(7, 64), chunks=(3, 64))
    pks, sks = pqdask.keygen_derand("ML-KEM-512", seeds)
    ms = da.from_array(random_rows(7, 32), chunks=(4, 32))  # other row blocks: aligned
    ss, cts = pqdask.encaps_derand("ML-KEM-512", pks, ms)
    back = pqdask.decaps("ML-KEM-512", sks, cts)
    got = dask.compute(pks, sks, ss, cts, back, scheduler="threads")
    pk_rows, sk_rows, ss_rows, ct_rows, back_rows = got
    assert (back_rows == ss_rows).all()
    seeds_np, ms_np = seeds.compute(), ms.compute()
    for i in range(7):
        pk, sk = kem.keygen_derand(seeds_np[i].tobytes())
        assert (pk_rows[i].tobytes(), sk_rows[i].tobytes()) == (pk, sk)
        ss1, ct1 = kem.encaps_derand(pk, ms_np[i].tobytes())
        assert (ss_rows[i].tobytes(), ct_rows[i].tobytes()) == (ss1, ct1)


def test_random_keygen_is_stable_under_recomputation() -> None:
    pks, sks = pqdask.keygen("ML-KEM-512", 5, chunk=2)
    assert pks.chunks[0] == (2, 2, 1)
    a, b = dask.compute(pks, sks, scheduler="threads")
    assert (pks.compute(scheduler="sync") == a).all()  # same entropy, same keys
    assert len({bytes(r) for r in a}) == 5
    kem = pqkit.kem("ML-KEM-512")
    ss, ct = kem.encaps(a[3].tobytes())
    assert kem.decaps(b[3].tobytes(), ct) == ss


def test_signatures_on_processes() -> None:
    dsa = pqkit.sig("ML-DSA-44")
    seeds = da.from_array(random_rows(4, 32), chunks=(2, 32))
    pks, sks = pqdask.keygen_derand("ML-DSA-44", seeds)
    msgs = da.from_array(random_rows(4, 20), chunks=(2, 20))
    rnd = da.from_array(random_rows(4, 32), chunks=(2, 32))
    sigs = pqdask.sign("ML-DSA-44", sks, msgs, b"ctx", rnd=rnd)
    ok = pqdask.verify("ML-DSA-44", pks, msgs, sigs, b"ctx")
    bad = pqdask.verify("ML-DSA-44", pks, msgs, sigs)  # wrong context
    sk_rows, sig_rows, ok_rows, bad_rows = dask.compute(
        sks, sigs, ok, bad, scheduler="processes", num_workers=2
    )
    assert ok_rows.dtype == np.bool_ and ok_rows.tolist() == [True] * 4
    assert not bad_rows.any()
    m, r = msgs.compute(), rnd.compute()
    assert sig_rows[1].tobytes() == dsa.sign(
        sk_rows[1].tobytes(), m[1].tobytes(), b"ctx", rnd=r[1].tobytes()
    )


def test_argument_checks() -> None:
    with pytest.raises(ValueError, match="give rnd"):
        pqdask.sign("ML-DSA-44", da.zeros((1, 2560), np.uint8), da.zeros((1, 3), np.uint8))
    with pytest.raises(ValueError, match="expected a 2-D dask array"):
        pqdask.keygen_derand("ML-KEM-512", da.zeros((64,), np.uint8))
    with pytest.raises(TypeError, match="expected a uint8 dask array"):
        pqdask.keygen_derand("ML-KEM-512", da.zeros((1, 64), np.int32))
    with pytest.raises(ValueError, match="need n >= 0"):
        pqdask.keygen("ML-KEM-512", -1)
    with pytest.raises(pqkit.UnknownAlgorithm):
        pqdask.keygen("ML-KEM-1", 1)

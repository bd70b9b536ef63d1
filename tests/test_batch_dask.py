"""pqkit.batch.dask on Dask's local schedulers (threads and processes)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

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


def test_random_keygen_draws_in_the_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25 item 3: no entropy is drawn while the graph is built (so none
    travels in it to the scheduler); each task draws its own from os.urandom."""
    draws: list[int] = []
    real = os.urandom

    def counted(n: int) -> bytes:
        draws.append(n)
        return real(n)

    monkeypatch.setattr(os, "urandom", counted)
    pks, sks = pqdask.keygen("ML-KEM-512", 5, chunk=2)
    graph_draws = [n for n in draws if n != 16]  # 16: the graph key's fresh name
    assert graph_draws == [] and pks.chunks[0] == (2, 2, 1)
    a, b = dask.compute(pks, sks, scheduler="sync")
    assert sorted(draws[len(draws) - 3 :]) == [64, 128, 128]  # d || z per row, per block
    assert len({bytes(r) for r in a}) == 5
    kem = pqkit.kem("ML-KEM-512")
    for i in range(5):
        ss, ct = kem.encaps(a[i].tobytes())
        assert kem.decaps(b[i].tobytes(), ct) == ss


def test_two_keygen_calls_are_two_tasks() -> None:
    """Dask names map_blocks outputs by their arguments: equal calls must not merge."""
    one, _ = pqdask.keygen("ML-KEM-512", 2, chunk=2)
    two, _ = pqdask.keygen("ML-KEM-512", 2, chunk=2)
    assert one.name != two.name
    a, b = dask.compute(one, two, scheduler="threads")
    assert not (a == b).all(axis=1).any()


def test_encaps_uses_os_urandom_not_numpy_random(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25 item 3: ``encaps`` draws m from os.urandom inside each task; every
    generator of numpy.random raises if anything asks it."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("numpy.random was used")

    for name in ("default_rng", "bytes", "randint", "random", "integers", "Generator"):
        if hasattr(np.random, name):
            monkeypatch.setattr(np.random, name, refuse)
    monkeypatch.setattr(np.random, "RandomState", refuse)
    draws: list[int] = []
    real = os.urandom
    monkeypatch.setattr(os, "urandom", lambda n: draws.append(n) or real(n))

    kem = pqkit.kem("ML-KEM-768")
    pk_rows, sk_rows = kem.batch.keygen_derand(random_rows(6, 64))
    draws.clear()
    ss, cts = pqdask.encaps("ML-KEM-768", da.from_array(pk_rows, chunks=(4, -1)))
    assert [n for n in draws if n != 16] == []  # nothing drawn while building the graph
    ss_rows, ct_rows = dask.compute(ss, cts, scheduler="threads")
    assert sorted(n for n in draws if n != 16) == [2 * 32, 4 * 32]  # m per row, per block
    assert ss_rows.shape == (6, 32) and ct_rows.shape == (6, 1088)
    assert len({r.tobytes() for r in ct_rows}) == 6
    assert (kem.batch.decaps(sk_rows, ct_rows) == ss_rows).all()


def test_encaps_checks_the_keys() -> None:
    bad = np.full((2, 1184), 0xFF, np.uint8)  # coefficients 4095 >= q
    ss, cts = pqdask.encaps("ML-KEM-768", da.from_array(bad, chunks=(1, -1)))
    with pytest.raises(ValueError, match="modulus check"):
        dask.compute(ss, cts, scheduler="sync")


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


# --- store_npy / write_keypairs / load_npy on the local schedulers ---------------------
# (tests/test_batch_dask_cluster.py runs them on a dask.distributed cluster)


def test_write_keypairs_on_the_process_scheduler(tmp_path: Path) -> None:
    """The scheduler of the issue's all-zero files: here every row is a key pair."""
    pqdask.write_keypairs("ML-KEM-512", 5, tmp_path / "k", chunk=2, scheduler="processes")
    back = pqdask.load_npy(tmp_path / "k")
    kem = pqkit.kem("ML-KEM-512")
    assert back["public_keys"].shape == (5, 800) and back["secret_keys"].shape == (5, 1632)
    ss, cts = kem.batch.encaps(back["public_keys"])
    assert (kem.batch.decaps(back["secret_keys"], cts) == ss).all()
    manifest = json.loads((tmp_path / "k" / "manifest.json").read_text())
    assert manifest["algorithm"] == "ML-KEM-512"
    assert [b["rows"] for b in manifest["arrays"]["secret_keys"]["blocks"]] == [2, 2, 1]


def test_store_refuses_a_directory_in_use(tmp_path: Path) -> None:
    (tmp_path / "old.txt").write_text("x")
    x = da.zeros((2, 3), dtype=np.uint8)
    with pytest.raises(ValueError, match="is not empty"):
        pqdask.store_npy(tmp_path, {"x": x}, scheduler="sync")
    with pytest.raises(ValueError, match="use letters"):
        pqdask.store_npy(tmp_path / "a", {"../x": x})
    with pytest.raises(ValueError, match="not given"):
        pqdask.store_npy(tmp_path / "a", {"x": x}, secret=["y"])
    with pytest.raises(ValueError, match="has 3 rows"):
        pqdask.store_npy(tmp_path / "a", {"x": x, "y": da.zeros((3,), dtype=np.uint8)})
    with pytest.raises(TypeError, match="expected a dask array"):
        pqdask.store_npy(tmp_path / "a", {"x": np.zeros((2, 3), np.uint8)})  # type: ignore[dict-item]


def test_files_the_caller_cannot_see_are_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker on another machine writes to its own disk: refuse, write no manifest."""
    real = pqdask._write_block

    def elsewhere(directory: str, index: int, entries: list[Any]) -> list[dict[str, Any]]:
        written = real(directory, index, entries)
        for entry in written:
            os.unlink(os.path.join(directory, entry["file"]))
        return written

    monkeypatch.setattr(pqdask, "_write_block", elsewhere)
    with pytest.raises(ValueError, match="does not see it"):
        pqdask.write_keypairs("ML-KEM-512", 2, tmp_path / "k", scheduler="sync")
    assert not (tmp_path / "k" / "manifest.json").exists()
    with pytest.raises(ValueError, match="does not exist"):
        pqdask.load_npy(tmp_path / "k")


def test_load_checks_every_block(tmp_path: Path) -> None:
    x = da.from_array(random_rows(5, 7), chunks=(2, -1))
    pqdask.store_npy(tmp_path / "s", {"x": x}, scheduler="threads")
    assert (pqdask.load_npy(tmp_path / "s")["x"] == x.compute()).all()
    with pytest.raises(ValueError, match="holds no array 'y'"):
        pqdask.load_npy(tmp_path / "s", ["y"])
    block = tmp_path / "s" / "x.000001.npy"
    data = bytearray(block.read_bytes())
    data[-1] ^= 1
    block.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=r"x\.000001\.npy: SHA-256 does not match"):
        pqdask.load_npy(tmp_path / "s")
    manifest = tmp_path / "s" / "manifest.json"
    text = manifest.read_text().replace("x.000001.npy", "../x.000001.npy")
    manifest.write_text(text)
    with pytest.raises(ValueError, match="is not allowed"):
        pqdask.load_npy(tmp_path / "s")

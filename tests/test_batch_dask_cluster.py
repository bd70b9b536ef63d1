"""pqkit.batch.dask writing to files on a real ``dask.distributed`` cluster whose
workers are separate processes (issue 25 item 2): the documented ``np.memmap``
recipe wrote all-zero files there. Every result here is read back in a fresh
Python process. One cluster for the module: starting one costs seconds."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from batch_cases import random_rows

import pqkit

distributed = pytest.importorskip("distributed", reason="dask.distributed (the dask extra) missing")
da = pytest.importorskip("dask.array", reason="dask.array not installed")
pqdask = pytest.importorskip("pqkit.batch.dask")

ALG = "ML-KEM-768"
CHUNK = 64


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """Two single-threaded worker processes and a client that is the default
    scheduler while the module's tests run."""
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=40,
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


# Run in a fresh interpreter: loads what the cluster wrote and checks every row.
RELOAD = textwrap.dedent(
    """
    import sys
    import numpy as np
    import pqkit
    from pqkit.batch import dask as pqdask

    keys = pqdask.load_npy(sys.argv[1])
    pks, sks = keys["public_keys"], keys["secret_keys"]
    n = int(sys.argv[2])
    assert pks.shape == (n, 1184) and sks.shape == (n, 2400), (pks.shape, sks.shape)
    assert pks.any(axis=1).all() and sks.any(axis=1).all(), "an all-zero row"
    assert len({r.tobytes() for r in pks}) == n, "a repeated public key"
    kem = pqkit.kem("ML-KEM-768")
    ss, cts = kem.batch.encaps(pks)
    assert (kem.batch.decaps(sks, cts) == ss).all(), "a pair that does not round-trip"
    if len(sys.argv) > 3:   # the encapsulations written by the cluster
        enc = pqdask.load_npy(sys.argv[3])
        assert enc["ss"].any(axis=1).all() and enc["cts"].any(axis=1).all()
        assert (kem.batch.decaps(sks, enc["cts"]) == enc["ss"]).all()
    print("ok", n)
    """
)


def _reload(*args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", RELOAD, *args], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def _modes(directory: Path) -> dict[str, int]:
    return {p.name: stat.S_IMODE(p.stat().st_mode) for p in directory.iterdir()}


def test_keypairs_and_encapsulations_from_the_cluster(client: Any, tmp_path: Path) -> None:
    n = 3 * CHUNK
    keys = tmp_path / "keys"
    with distributed.get_task_stream(client) as stream:
        manifest = pqdask.write_keypairs(ALG, n, keys, chunk=CHUNK)
    assert manifest == keys / "manifest.json"
    # The blocks were written by tasks on the worker processes, not by this one.
    writers = [t for t in stream.data if str(t["key"]).startswith("_write_block-")]
    assert len(writers) == 3, [t["key"] for t in stream.data]
    assert {t["worker"] for t in writers} <= set(client.scheduler_info()["workers"])
    assert os.getpid() not in set(client.run(os.getpid).values())

    modes = _modes(keys)
    assert sorted(modes) == sorted(
        ["manifest.json"]
        + [f"{name}.{i:06d}.npy" for name in ("public_keys", "secret_keys") for i in range(3)]
    ), "block files missing or temporary files left behind"
    assert all(m == 0o600 for f, m in modes.items() if f.startswith("secret_keys"))
    umask = os.umask(0)
    os.umask(umask)
    assert all(m == 0o644 & ~umask for f, m in modes.items() if f.startswith("public_keys"))

    # Encapsulate on the cluster, to the keys read back, and write the results too.
    loaded = pqdask.load_npy(keys, ["public_keys"])["public_keys"]
    ss, cts = pqdask.encaps(ALG, da.from_array(loaded, chunks=(CHUNK, -1)))
    enc = tmp_path / "enc"
    pqdask.store_npy(enc, {"ss": ss, "cts": cts}, secret={"ss"})
    assert _reload(str(keys), str(n), str(enc)) == f"ok {n}\n"


def test_store_npy_of_arrays_with_other_row_blocks(client: Any, tmp_path: Path) -> None:
    """Arrays whose row blocks differ (40 and 30 rows) are written in the first
    one's blocks; a 1-D bool result too."""
    seeds = da.from_array(random_rows(100, 64), chunks=(40, -1))
    pks, sks = pqdask.keygen_derand(ALG, seeds)
    zeros = [da.zeros((100, n), dtype=np.uint8, chunks=(30, -1)) for n in (1312, 3, 2420)]
    ok = pqdask.verify("ML-DSA-44", *zeros)
    pqdask.store_npy(tmp_path / "s", {"pks": pks, "sks": sks, "ok": ok}, secret=["sks"])
    back = pqdask.load_npy(tmp_path / "s")
    want = pqkit.kem(ALG).keygen_derand(seeds[77].compute().tobytes())
    assert (back["pks"][77].tobytes(), back["sks"][77].tobytes()) == want
    assert back["ok"].shape == (100,) and not back["ok"].any()
    files = sorted(p.name for p in (tmp_path / "s").iterdir())
    assert [f for f in files if f.startswith("ok.")] == [f"ok.{i:06d}.npy" for i in range(3)]

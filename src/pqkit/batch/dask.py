"""Batch operations over Dask arrays, block by block (``pip install pqkit[dask]``).

Each function maps a scheme's batch view (:mod:`pqkit.batch`) over the row blocks
of ``dask.array`` inputs with ``map_blocks``: any scheduler runs them (threads,
processes, a ``dask.distributed`` cluster), and no block holds more than its own
rows. Schemes are passed by name (and arithmetic backend), so the tasks pickle.

Recipe: a million ML-KEM-768 key pairs to ``.npy`` files with a progress bar::

    import dask.array as da, numpy as np
    from dask.diagnostics import ProgressBar
    from pqkit.batch import dask as pqdask

    pks, sks = pqdask.keygen("ML-KEM-768", 1_000_000, chunk=16384)
    out_pk = np.lib.format.open_memmap("pks.npy", "w+", np.uint8, pks.shape)
    out_sk = np.lib.format.open_memmap("sks.npy", "w+", np.uint8, sks.shape)
    with ProgressBar():
        da.store([pks, sks], [out_pk, out_sk], lock=False)

(``pks.to_zarr(...)`` works the same way with Zarr installed.)

Randomness: :func:`keygen` draws 48 bytes of entropy per block from
``os.urandom`` when the graph is built and runs the block's key generation on a
:class:`pqkit.common.CtrDrbg` seeded with it, so recomputing a block (a retried
task, or computing ``pks`` and ``sks`` separately) gives the same key pairs. The
graph therefore holds that entropy: keep it as secret as the keys.
"""

from __future__ import annotations

import os
from typing import Any

import dask.array as da
import numpy as np
import numpy.typing as npt

import pqkit
from pqkit.common import CtrDrbg

__all__ = ["decaps", "encaps_derand", "keygen", "keygen_derand", "sign", "verify"]

U8 = npt.NDArray[np.uint8]


def _scheme(alg: str, arith: str | None) -> Any:
    from pqkit import registry

    kind = registry.algorithm(alg).kind
    scheme: Any = pqkit.kem(alg) if kind == "kem" else pqkit.sig(alg)
    return scheme.using(arith=arith)


def _rows(x: da.Array, like: da.Array | None = None) -> da.Array:
    """x with one block along axis 1 (and the row blocks of ``like``)."""
    if x.ndim != 2:
        raise ValueError(f"expected a 2-D dask array (n, length), got shape {x.shape}")
    if x.dtype != np.uint8:
        raise TypeError(f"expected a uint8 dask array, not {x.dtype}")
    rows = like.chunks[0] if like is not None else x.chunks[0]
    out: da.Array = x.rechunk({0: rows, 1: -1})  # type: ignore[no-untyped-call]
    return out


def _map(func: Any, *args: Any, **kwargs: Any) -> da.Array:
    """``dask.array.map_blocks`` (typed here: dask's own signature is untyped)."""
    out: da.Array = da.map_blocks(func, *args, **kwargs)  # type: ignore[no-untyped-call]
    return out


def _split(pairs: da.Array, first: int) -> tuple[da.Array, da.Array]:
    return pairs[:, :first], pairs[:, first:]


# --- block functions (module level: they pickle for the process scheduler) ------------


def _keygen_block(
    block: U8, alg: str, arith: str | None, entropy: list[bytes], block_info: Any = None
) -> U8:
    info = block_info[None]
    index = info["chunk-location"][0]
    rows = info["chunk-shape"][0]
    pks, sks = _scheme(alg, arith).batch.keygen(rows, rng=CtrDrbg(entropy[index]))
    return np.concatenate([pks, sks], axis=1)


def _keygen_derand_block(seeds: U8, alg: str, arith: str | None) -> U8:
    pks, sks = _scheme(alg, arith).batch.keygen_derand(seeds)
    return np.concatenate([pks, sks], axis=1)


def _encaps_block(pks: U8, ms: U8, alg: str, arith: str | None) -> U8:
    ss, cts = _scheme(alg, arith).batch.encaps_derand(pks, ms)
    return np.concatenate([ss, cts], axis=1)


def _decaps_block(sks: U8, cts: U8, alg: str, arith: str | None) -> U8:
    out: U8 = _scheme(alg, arith).batch.decaps(sks, cts)
    return out


def _sign_block(
    sks: U8, msgs: U8, rnd: U8 | None, alg: str, arith: str | None, ctx: bytes, det: bool
) -> U8:
    out: U8 = _scheme(alg, arith).batch.sign(sks, msgs, ctx, deterministic=det, rnd=rnd)
    return out


def _verify_block(pks: U8, msgs: U8, sigs: U8, alg: str, arith: str | None, ctx: bytes) -> Any:
    return _scheme(alg, arith).batch.verify(pks, msgs, sigs, ctx)


# --- the operations -------------------------------------------------------------------


def keygen(
    alg: str, n: int, *, chunk: int = 16384, arith: str | None = None
) -> tuple[da.Array, da.Array]:
    """n fresh key pairs of ``alg`` as two dask arrays (pks, sks), ``chunk`` rows per
    block (see the module docstring for where the randomness comes from)."""
    if n < 0 or chunk < 1:
        raise ValueError(f"need n >= 0 and chunk >= 1, got n={n}, chunk={chunk}")
    s = _scheme(alg, arith)
    widths = (s.length_public_key, s.length_secret_key)
    rows = da.zeros((n, 1), dtype=np.uint8, chunks=(chunk, 1))
    entropy = [os.urandom(48) for _ in range(len(rows.chunks[0]))]
    pairs = _map(
        _keygen_block,
        rows,
        alg,
        arith,
        entropy,
        dtype=np.uint8,
        chunks=(rows.chunks[0], (sum(widths),)),
        meta=np.empty((0, 0), np.uint8),
    )
    return _split(pairs, widths[0])


def keygen_derand(
    alg: str, seeds: da.Array, *, arith: str | None = None
) -> tuple[da.Array, da.Array]:
    """The key pairs of the seed rows (``length_seed`` bytes each): (pks, sks)."""
    s = _scheme(alg, arith)
    x = _rows(seeds)
    widths = (s.length_public_key, s.length_secret_key)
    pairs = _map(
        _keygen_derand_block, x, alg, arith, dtype=np.uint8, chunks=(x.chunks[0], (sum(widths),))
    )
    return _split(pairs, widths[0])


def encaps_derand(
    alg: str, pks: da.Array, ms: da.Array, *, arith: str | None = None
) -> tuple[da.Array, da.Array]:
    """Encapsulations to the public-key rows with the m rows (n, 32): (ss, cts)."""
    s = _scheme(alg, arith)
    p = _rows(pks)
    m = _rows(ms, p)
    widths = (s.length_shared_secret, s.length_ciphertext)
    out = _map(
        _encaps_block, p, m, alg, arith, dtype=np.uint8, chunks=(p.chunks[0], (sum(widths),))
    )
    return _split(out, widths[0])


def decaps(alg: str, sks: da.Array, cts: da.Array, *, arith: str | None = None) -> da.Array:
    """Shared secrets of the ciphertext rows under the secret-key rows: (n, 32)."""
    s = _scheme(alg, arith)
    k = _rows(sks)
    c = _rows(cts, k)
    return _map(
        _decaps_block,
        k,
        c,
        alg,
        arith,
        dtype=np.uint8,
        chunks=(k.chunks[0], (s.length_shared_secret,)),
    )


def sign(
    alg: str,
    sks: da.Array,
    messages: da.Array,
    ctx: bytes = b"",
    *,
    rnd: da.Array | None = None,
    deterministic: bool = False,
    arith: str | None = None,
) -> da.Array:
    """Signatures of the message rows (a 2-D uint8 array: messages of one length)
    under the secret-key rows, with the rnd rows (n, 32) or ``deterministic``.
    Hedged signing needs ``rnd``: a graph must give the same result when a block is
    recomputed, so fresh randomness inside a task is not offered."""
    if rnd is None and not deterministic:
        raise ValueError("give rnd (a dask array of 32-byte rows) or deterministic=True")
    s = _scheme(alg, arith)
    k = _rows(sks)
    m = _rows(messages, k)
    args: list[Any] = [k, m, None if rnd is None else _rows(rnd, k)]
    return _map(
        _sign_block,
        *args,
        alg,
        arith,
        bytes(ctx),
        deterministic,
        dtype=np.uint8,
        chunks=(k.chunks[0], (s.length_signature,)),
    )


def verify(
    alg: str,
    pks: da.Array,
    messages: da.Array,
    signatures: da.Array,
    ctx: bytes = b"",
    *,
    arith: str | None = None,
) -> da.Array:
    """A bool dask array (n,): whether each signature row verifies."""
    k = _rows(pks)
    m = _rows(messages, k)
    g = _rows(signatures, k)
    return _map(
        _verify_block,
        k,
        m,
        g,
        alg,
        arith,
        bytes(ctx),
        dtype=bool,
        drop_axis=1,
        chunks=(k.chunks[0],),
    )

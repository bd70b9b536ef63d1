"""Batch operations over Dask arrays, block by block (``pip install pqkit[dask]``).

Each function maps a scheme's batch view (:mod:`pqkit.batch`) over the row blocks
of ``dask.array`` inputs with ``map_blocks``: the threaded, process and
``dask.distributed`` schedulers all compute them, and no block holds more than its
own rows. Schemes are passed by name (and arithmetic backend), so the tasks pickle.

Results to files: :func:`write_keypairs` (key generation) and :func:`store_npy`
(any arrays with the same rows) write each row block from the task that computed
it, one ``.npy`` file per block and array, and then a ``manifest.json`` naming
every block with its row count and SHA-256; :func:`load_npy` reads them back and
checks them. This works on every scheduler, a cluster included, as long as the
directory is on a file system that the workers and the calling process share;
when the calling process cannot see what the workers wrote, they raise
``ValueError`` saying so. A recipe that computes into a ``numpy`` array or an
``np.memmap`` opened by the calling process (``da.store(x, np.lib.format
.open_memmap(...))``) writes only on the threaded scheduler: process and cluster
workers receive a copy of the target and write into that copy, leaving the file
all zeros with no error::

    from pqkit.batch import dask as pqdask

    pqdask.write_keypairs("ML-KEM-768", 1_000_000, "keys", chunk=16384)
    arrays = pqdask.load_npy("keys")      # {"public_keys": ..., "secret_keys": ...}

Randomness: :func:`keygen`, :func:`encaps` and :func:`write_keypairs` draw their
randomness inside each task, from ``os.urandom`` on the worker (never from
``numpy.random``), so no secret travels in the task graph or through the
scheduler. The price: a block computed twice gives different keys (or
encapsulations). Compute the two outputs of one call together
(``dask.compute(pks, sks)``), or use :func:`write_keypairs`, which generates and
writes a block's public and secret keys in one task. For reproducible blocks, give
the seeds yourself: :func:`keygen_derand`, :func:`encaps_derand`.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import socket
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

import dask
import dask.array as da
import numpy as np
import numpy.typing as npt

import pqkit
from pqkit._files import create_file, replace_file

__all__ = [
    "decaps",
    "encaps",
    "encaps_derand",
    "keygen",
    "keygen_derand",
    "load_npy",
    "sign",
    "store_npy",
    "verify",
    "write_keypairs",
]

U8 = npt.NDArray[np.uint8]

MANIFEST = "manifest.json"
"""The file :func:`store_npy` writes last, naming every block file."""
FORMAT = "pqkit.batch.dask npy blocks"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


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


def _byte_rows(func: Any, rows: da.Array, *args: Any, width: int, **kwargs: Any) -> da.Array:
    """``func`` mapped over the blocks of ``rows`` (and of ``args``): ``width`` bytes a row."""
    return _map(func, rows, *args, dtype=np.uint8, chunks=(rows.chunks[0], (width,)), **kwargs)


def _fresh_name(what: str) -> str:
    """A graph key prefix of its own for a random operation: Dask names a
    ``map_blocks`` output by hashing its arguments, so two ``keygen`` calls with the
    same arguments would otherwise be one task computed once (the same keys)."""
    return f"pqkit-{what}-{os.urandom(16).hex()}"


def _split(pairs: da.Array, first: int) -> tuple[da.Array, da.Array]:
    return pairs[:, :first], pairs[:, first:]


# --- block functions (module level: they pickle for the process scheduler) ------------


def _keygen_block(block: U8, alg: str, arith: str | None) -> U8:
    # rng None: the batch view draws every seed from os.urandom, here, on the worker.
    pks, sks = _scheme(alg, arith).batch.keygen(block.shape[0])
    return np.concatenate([pks, sks], axis=1)


def _encaps_random_block(pks: U8, alg: str, arith: str | None) -> U8:
    ss, cts = _scheme(alg, arith).batch.encaps(pks)  # m rows from os.urandom, here
    return np.concatenate([ss, cts], axis=1)


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


def _keygen_pairs(alg: str, n: int, chunk: int, arith: str | None) -> tuple[da.Array, int]:
    """The key pairs as one array (pk || sk per row) and the public-key width."""
    if not isinstance(n, int) or isinstance(n, bool) or not isinstance(chunk, int):
        raise TypeError("n and chunk must be int")
    if n < 0 or chunk < 1:
        raise ValueError(f"need n >= 0 and chunk >= 1, got n={n}, chunk={chunk}")
    s = _scheme(alg, arith)
    widths = (s.length_public_key, s.length_secret_key)
    rows = da.zeros((n, 1), dtype=np.uint8, chunks=(chunk, 1))
    pairs = _byte_rows(
        _keygen_block,
        rows,
        alg,
        arith,
        width=sum(widths),
        name=_fresh_name("keygen"),
        meta=np.empty((0, 0), np.uint8),
    )
    return pairs, widths[0]


def keygen(
    alg: str, n: int, *, chunk: int = 16384, arith: str | None = None
) -> tuple[da.Array, da.Array]:
    """n fresh key pairs of ``alg`` as two dask arrays (pks, sks), ``chunk`` rows per
    block. Each task draws its seeds from ``os.urandom`` where it runs: the graph
    holds no secret, and a block computed twice gives other keys, so compute
    ``pks`` and ``sks`` together (``dask.compute(pks, sks)``) or use
    :func:`write_keypairs`."""
    pairs, first = _keygen_pairs(alg, n, chunk, arith)
    return _split(pairs, first)


def keygen_derand(
    alg: str, seeds: da.Array, *, arith: str | None = None
) -> tuple[da.Array, da.Array]:
    """The key pairs of the seed rows (``length_seed`` bytes each): (pks, sks)."""
    s = _scheme(alg, arith)
    x = _rows(seeds)
    widths = (s.length_public_key, s.length_secret_key)
    pairs = _byte_rows(_keygen_derand_block, x, alg, arith, width=sum(widths))
    return _split(pairs, widths[0])


def encaps(alg: str, pks: da.Array, *, arith: str | None = None) -> tuple[da.Array, da.Array]:
    """Encapsulations to the public-key rows: (ss, cts). Each task draws its m rows
    from ``os.urandom`` where it runs (FIPS 203, Algorithm 20: m is 32 random
    bytes), after the input checks of its keys; compute ``ss`` and ``cts``
    together, as a block computed twice gives other encapsulations."""
    s = _scheme(alg, arith)
    p = _rows(pks)
    widths = (s.length_shared_secret, s.length_ciphertext)
    out = _byte_rows(
        _encaps_random_block, p, alg, arith, width=sum(widths), name=_fresh_name("encaps")
    )
    return _split(out, widths[0])


def encaps_derand(
    alg: str, pks: da.Array, ms: da.Array, *, arith: str | None = None
) -> tuple[da.Array, da.Array]:
    """Encapsulations to the public-key rows with the m rows (n, 32): (ss, cts)."""
    s = _scheme(alg, arith)
    p = _rows(pks)
    m = _rows(ms, p)
    widths = (s.length_shared_secret, s.length_ciphertext)
    out = _byte_rows(_encaps_block, p, m, alg, arith, width=sum(widths))
    return _split(out, widths[0])


def decaps(alg: str, sks: da.Array, cts: da.Array, *, arith: str | None = None) -> da.Array:
    """Shared secrets of the ciphertext rows under the secret-key rows: (n, 32)."""
    s = _scheme(alg, arith)
    k = _rows(sks)
    c = _rows(cts, k)
    return _byte_rows(_decaps_block, k, c, alg, arith, width=s.length_shared_secret)


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
    Hedged signing takes its rnd rows as an array here (unlike :func:`keygen` and
    :func:`encaps`, which draw inside the tasks), so a recomputed block gives the
    same signatures."""
    if rnd is None and not deterministic:
        raise ValueError("give rnd (a dask array of 32-byte rows) or deterministic=True")
    s = _scheme(alg, arith)
    k = _rows(sks)
    m = _rows(messages, k)
    r = None if rnd is None else _rows(rnd, k)
    return _byte_rows(
        _sign_block, k, m, r, alg, arith, bytes(ctx), deterministic, width=s.length_signature
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


# --- results to files, written by the workers -------------------------------------------


def _npy_bytes(block: npt.NDArray[Any]) -> bytes:
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, np.ascontiguousarray(block), allow_pickle=False)
    return buffer.getvalue()


def _row_blocks(x: da.Array) -> list[Any]:
    """One ``Delayed`` per row block of x (x has one block along axis 1), over the
    unoptimised graph: optimising each array on its own would fuse a shared block
    (``ss`` and ``cts`` of one :func:`encaps` block) into each, computing it twice,
    with other randomness each time."""
    delayed: Any = x.to_delayed(optimize_graph=False)  # type: ignore[no-untyped-call]
    return list(delayed.reshape(-1))


def _delayed(func: Any) -> Any:
    """``dask.delayed(func, pure=False)``: every call a task of its own."""
    return dask.delayed(func, pure=False)  # type: ignore[attr-defined]


def _write_block(
    directory: str, index: int, entries: list[tuple[str, bool, Any, tuple[int, int] | None]]
) -> list[dict[str, Any]]:
    """Runs on a worker: write row block ``index`` of every named array to
    ``directory/NAME.INDEX.npy`` (through a new temporary file renamed over it: a
    retried task replaces its own files whole) and return what the manifest needs."""
    if not os.path.isdir(directory):
        raise ValueError(
            f"directory {directory!r} does not exist on the worker on "
            f"{socket.gethostname()!r}: store_npy needs a directory that the workers "
            "and the calling process share"
        )
    written = []
    for name, secret, block, columns in entries:
        part = block if columns is None else block[:, columns[0] : columns[1]]
        data = _npy_bytes(part)
        file = f"{name}.{index:06d}.npy"
        replace_file(os.path.join(directory, file), data, secret=secret)
        written.append(
            {
                "name": name,
                "file": file,
                "rows": int(part.shape[0]),
                "bytes": len(data),
                "sha256": hashlib.sha256(data).hexdigest(),
            }
        )
    return written


def _prepare_directory(directory: str | os.PathLike[str], secret: bool) -> Path:
    out = Path(directory).absolute()  # the workers may run in another directory
    out.mkdir(mode=0o700 if secret else 0o777, parents=True, exist_ok=True)
    if any(out.iterdir()):
        raise ValueError(f"{str(out)!r} is not empty: the block files go to a new or empty one")
    return out


def _store(
    out: Path,
    arrays: list[tuple[str, bool, da.Array, tuple[int, int] | None]],
    scheduler: str | None,
    extra: dict[str, Any],
) -> Path:
    """Compute and write every row block (one task per block writes all its files),
    check from this process that every file arrived, then write the manifest."""
    blocks = [_row_blocks(x) for _, _, x, _ in arrays]
    tasks = [
        _delayed(_write_block)(
            str(out),
            i,
            [
                (name, secret, parts[i], cols)
                for (name, secret, _, cols), parts in zip(arrays, blocks, strict=True)
            ],
        )
        for i in range(len(blocks[0]))
    ]
    compute: Any = dask.compute  # type: ignore[attr-defined]
    results: tuple[list[dict[str, Any]], ...] = compute(*tasks, scheduler=scheduler)
    manifest: dict[str, Any] = {"format": FORMAT, "version": 1, **extra, "arrays": {}}
    for name, secret, x, cols in arrays:
        width = x.shape[1:] if cols is None else (cols[1] - cols[0],)
        manifest["arrays"][name] = {
            "dtype": np.dtype(x.dtype).str,
            "shape": [int(x.shape[0]), *map(int, width)],
            "secret": secret,
            "blocks": [],
        }
    for block in results:
        for entry in block:
            path = out / entry["file"]
            if not path.is_file() or path.stat().st_size != entry["bytes"]:
                raise ValueError(
                    f"the workers wrote {entry['file']!r} but this process does not see it "
                    f"in {str(out)!r}: put the directory on a file system that the workers "
                    "and this process share"
                )
            manifest["arrays"][entry["name"]]["blocks"].append(
                {k: entry[k] for k in ("file", "rows", "sha256")}
            )
    path = out / MANIFEST
    create_file(path, (json.dumps(manifest, indent=1) + "\n").encode(), secret=False)
    return path


def store_npy(
    directory: str | os.PathLike[str],
    arrays: Mapping[str, da.Array],
    *,
    secret: Collection[str] = (),
    scheduler: str | None = None,
) -> Path:
    """Compute ``arrays`` (1-D or 2-D dask arrays with the same number of rows, by
    name) and write them to the new or empty ``directory``, one ``.npy`` file per
    row block and array, written by the task that computed the block; then
    ``directory/manifest.json``, whose path is returned. The arrays named in
    ``secret`` get mode 0600 (and the directory 0700). ``scheduler`` is Dask's (None:
    the default, a ``dask.distributed`` client if one is active). Every scheduler
    works when the directory is on a file system shared by the workers and this
    process; otherwise ``ValueError`` names the file this process cannot see.
    Read the result back with :func:`load_npy`."""
    if not arrays:
        raise ValueError("give at least one array to store")
    names = list(arrays)
    for name in names:
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise ValueError(f"array name {name!r}: use letters, digits, '_' and '-' (<= 64)")
    unknown = set(secret) - set(names)
    if unknown:
        raise ValueError(f"secret names arrays that are not given: {sorted(unknown)}")
    first = arrays[names[0]]
    entries: list[tuple[str, bool, da.Array, tuple[int, int] | None]] = []
    for name in names:
        x = arrays[name]
        if not isinstance(x, da.Array):
            raise TypeError(f"{name}: expected a dask array, not {type(x).__name__}")
        if x.ndim not in (1, 2) or x.dtype == object:
            raise ValueError(
                f"{name}: expected a 1-D or 2-D numeric array, got {x.shape} {x.dtype}"
            )
        if x.shape[0] != first.shape[0]:
            raise ValueError(f"{name} has {x.shape[0]} rows, {names[0]} {first.shape[0]}")
        spec = {0: first.chunks[0], 1: -1} if x.ndim == 2 else {0: first.chunks[0]}
        entries.append((name, name in secret, x.rechunk(spec), None))  # type: ignore[no-untyped-call]
    out = _prepare_directory(directory, bool(secret))
    return _store(out, entries, scheduler, {})


def write_keypairs(
    alg: str,
    n: int,
    directory: str | os.PathLike[str],
    *,
    chunk: int = 16384,
    arith: str | None = None,
    scheduler: str | None = None,
) -> Path:
    """n fresh key pairs of ``alg`` into the new or empty ``directory``, as
    :func:`store_npy` writes them: ``public_keys`` and ``secret_keys`` (mode 0600),
    ``chunk`` rows per block. One task generates a block (its seeds from
    ``os.urandom`` on the worker) and writes both of its files, so the public and
    secret keys of a row always belong together. Returns the manifest's path."""
    pairs, first = _keygen_pairs(alg, n, chunk, arith)
    width = int(pairs.shape[1])
    out = _prepare_directory(directory, True)
    entries: list[tuple[str, bool, da.Array, tuple[int, int] | None]] = [
        ("public_keys", False, pairs, (0, first)),
        ("secret_keys", True, pairs, (first, width)),
    ]
    name = _scheme(alg, arith).name
    return _store(out, entries, scheduler, {"algorithm": name})


def _manifest(directory: Path) -> dict[str, Any]:
    path = directory / MANIFEST
    if not path.is_file():
        raise ValueError(
            f"{str(path)!r} does not exist: not a store_npy directory, or its writing "
            "did not finish (the manifest is written last)"
        )
    try:
        manifest: dict[str, Any] = json.loads(path.read_bytes())
    except ValueError as exc:
        raise ValueError(f"{str(path)!r} is not valid JSON: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ValueError(f"{str(path)!r} is not a manifest of {FORMAT}")
    if manifest.get("version") != 1:
        raise ValueError(f"{str(path)!r}: unknown version {manifest.get('version')!r}")
    return manifest


def load_npy(
    directory: str | os.PathLike[str], names: Collection[str] | None = None
) -> dict[str, npt.NDArray[Any]]:
    """The arrays :func:`store_npy` or :func:`write_keypairs` wrote to ``directory``
    (those in ``names``, or all), each block checked against the manifest (its file
    name, SHA-256, dtype and shape) before the blocks are joined. ``ValueError``
    names the first thing that does not match; the manifest's ``algorithm`` (from
    :func:`write_keypairs`) is not returned here: read ``manifest.json``."""
    root = Path(directory)
    manifest = _manifest(root)
    arrays: dict[str, Any] = manifest["arrays"]
    wanted = list(arrays) if names is None else list(names)
    missing = [name for name in wanted if name not in arrays]
    if missing:
        raise ValueError(f"{str(root)!r} holds no array {missing[0]!r}; it has {sorted(arrays)}")
    loaded: dict[str, npt.NDArray[Any]] = {}
    for name in wanted:
        spec = arrays[name]
        dtype, shape = np.dtype(spec["dtype"]), tuple(spec["shape"])
        parts = []
        for block in spec["blocks"]:
            file = block["file"]
            if not isinstance(file, str) or not re.fullmatch(rf"{re.escape(name)}\.\d+\.npy", file):
                raise ValueError(f"manifest: block file name {file!r} of {name!r} is not allowed")
            data = (root / file).read_bytes()
            if hashlib.sha256(data).hexdigest() != block["sha256"]:
                raise ValueError(f"{file}: SHA-256 does not match the manifest")
            part = np.load(io.BytesIO(data), allow_pickle=False)
            if part.dtype != dtype or part.shape != (block["rows"], *shape[1:]):
                raise ValueError(f"{file}: {part.shape} {part.dtype}, not as the manifest says")
            parts.append(part)
        joined = np.concatenate(parts) if parts else np.empty(shape, dtype)
        if joined.shape != shape:
            raise ValueError(f"{name}: the blocks hold {joined.shape[0]} rows, not {shape[0]}")
        loaded[name] = joined
    return loaded

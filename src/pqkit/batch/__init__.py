"""Batch operations: many keys, encapsulations and signatures per call.

Every scheme object has a ``batch`` view (:attr:`pqkit.schemes.KemBase.batch`,
:attr:`pqkit.schemes.SignatureBase.batch`) with the single-operation methods,
taking and returning arrays with one row per item::

    kem = pqkit.kem("ML-KEM-768")
    pks, sks = kem.batch.keygen(1000)             # (1000, 1184), (1000, 2400) uint8
    sss, cts = kem.batch.encaps(pks)              # (1000, 32), (1000, 1088)
    assert (kem.batch.decaps(sks, cts) == sss).all()

    dsa = pqkit.sig("ML-DSA-65")
    pks, sks = dsa.batch.keygen(100)
    sigs = dsa.batch.sign(sks[0], [b"a", b"bc", b"def"])   # one signer, three messages
    ok = dsa.batch.verify(pks[0], [b"a", b"bc", b"def"], sigs)   # bool (3,)

Rules shared by every view (docs/decisions.md, "Batch operations"):

- **Inputs.** A 2-D ``uint8`` array ``(n, length)`` or a sequence of bytes-like
  objects, one per row. A single item (``bytes`` or a 1-D ``uint8`` array)
  broadcasts against the other arguments' rows (one key, many ciphertexts or
  messages). Messages may differ in length (a sequence of ``bytes``). Every
  argument with rows must have the same number; when all are single, n = 1.
- **Outputs.** 2-D ``uint8`` arrays ``(n, length)``; ``verify`` returns a bool
  array ``(n,)`` and never raises for a malformed signature (that row is False).
- **Rows equal single operations.** Row i is byte-identical to the single
  operation on row i's inputs and randomness. Randomness is drawn in the order a
  loop of single calls would draw it (see each method), so an ``rng`` gives the
  same rows as that loop.
- **Input checks.** Types and lengths as the single operations, each message
  naming the row (``pks[3]``); a FIPS input check that fails on a row raises
  ``ValueError("row 3: FIPS 203 §7.2 modulus check failed ...")``. Every check
  runs on every row before anything is computed or any randomness is drawn.
- **Bounded memory.** Rows are processed in chunks of a fixed size (the view's
  ``chunk``); outputs are allocated once. :meth:`iter_keygen` and
  :func:`write_keypairs` stream key pairs without holding them all.
- **Threads.** ``workers=`` (or the ``PQKIT_WORKERS`` environment variable) runs
  up to that many chunks at once on a thread pool; the kernels release the GIL
  (NumPy's large-array operations, Numba kernels compiled ``nogil``). Default:
  the CPUs this process may run on (:func:`available_cpus`; the one rule of
  :func:`resolve_workers`, which the jit hash kernels and ``pqkit compile`` follow
  too).

Families without a vectorised batch (round-3 Kyber and Dilithium, and any future
family until it gets one) get :class:`KemBatch` / :class:`SignatureBatch`,
which apply the same rules by looping over the single operations.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import numpy.typing as npt

from pqkit._checks import as_bytes
from pqkit._files import replacing
from pqkit._rng import RNG, draw
from pqkit._workers import available_cpus, resolve_workers

if TYPE_CHECKING:
    from pqkit.schemes import KemBase, SignatureBase

__all__ = [
    "DEFAULT_CHUNK",
    "KemBatch",
    "Messages",
    "Rows",
    "SignatureBatch",
    "as_messages",
    "as_rows",
    "available_cpus",
    "batch_size",
    "kem_batch",
    "resolve_workers",
    "run_chunks",
    "signature_batch",
    "write_keypairs",
]

U8 = npt.NDArray[np.uint8]
_T = TypeVar("_T")

DEFAULT_CHUNK = 256
"""Rows per chunk of the loop views and the default of the vectorised ones.

Why 256: the vectorised ML-KEM-768 and ML-DSA-65 paths hold about 150-250 kB
of intermediates per row (the matrix A_hat as int64 and its products), so a
chunk of 256 rows stays around 40-60 MB, while NumPy's per-call overhead
(1-3 µs) is already spread over enough rows to be negligible: measured per-row
time stops improving between 128 and 256 rows (benchmarks/batch_throughput.py).
"""

# --- argument handling ----------------------------------------------------------------


@dataclass(frozen=True)
class Rows:
    """A checked batch argument: ``data`` is uint8 ``(m, length)``; ``single`` says
    it was one item (m = 1) that broadcasts against the other arguments' rows."""

    data: U8
    single: bool

    @property
    def count(self) -> int | None:
        """The number of rows, or None for a single item."""
        return None if self.single else int(self.data.shape[0])

    def take(self, lo: int, hi: int) -> U8:
        """Rows lo..hi (the single row, unexpanded, for a broadcast item)."""
        return self.data if self.single else self.data[lo:hi]

    def row(self, i: int) -> bytes:
        """Row i as bytes (the single row for a broadcast item)."""
        return bytes(self.data[0 if self.single else i].tobytes())


def _row_len_error(name: str, length: int, got: int) -> ValueError:
    return ValueError(f"{name} must be {length} bytes, got {got}")


def as_rows(value: Any, name: str, length: int) -> Rows:
    """Check a batch argument of fixed-length items.

    Accepts a 2-D uint8 array ``(n, length)``, a sequence of bytes-like objects of
    ``length`` bytes each, or one item (bytes-like or a 1-D uint8 array) that
    broadcasts. TypeError for other types (naming the row), ValueError for wrong
    lengths (naming the row). The input is never modified.
    """
    if isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        if len(data) != length:
            raise _row_len_error(name, length, len(data))
        return Rows(np.frombuffer(data, dtype=np.uint8).reshape(1, length), True)
    if isinstance(value, np.ndarray):
        if value.dtype != np.uint8:
            raise TypeError(f"{name} must be a uint8 array, not {value.dtype}")
        if value.ndim == 1:
            if value.shape[0] != length:
                raise _row_len_error(name, length, value.shape[0])
            return Rows(value.reshape(1, length), True)
        if value.ndim != 2:
            raise ValueError(f"{name} must be a 1-D or 2-D uint8 array, got shape {value.shape}")
        if value.shape[1] != length:
            raise ValueError(f"{name} rows must be {length} bytes, got shape {value.shape}")
        return Rows(np.ascontiguousarray(value), False)
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise TypeError(
            f"{name} must be a uint8 array, bytes or a sequence of bytes, "
            f"not {type(value).__name__}"
        )
    out = np.empty((len(value), length), dtype=np.uint8)
    for i, item in enumerate(value):
        row = as_bytes(item, f"{name}[{i}]")
        if len(row) != length:
            raise _row_len_error(f"{name}[{i}]", length, len(row))
        out[i] = np.frombuffer(row, dtype=np.uint8)
    return Rows(out, False)


def as_signature_rows(value: Any, name: str, length: int) -> tuple[Rows, npt.NDArray[np.bool_]]:
    """Like :func:`as_rows` for signatures to verify, where a wrong length is not an
    error but a False row: returns the rows (a wrong-length row zero-filled) and
    the mask of rows with the right length. TypeError for wrong types still."""
    if isinstance(value, (bytes, bytearray, memoryview)) or (
        isinstance(value, np.ndarray) and value.ndim == 1
    ):
        items = [value]
        single = True
    elif isinstance(value, np.ndarray) and value.ndim == 2:
        if value.dtype != np.uint8:
            raise TypeError(f"{name} must be a uint8 array, not {value.dtype}")
        if value.shape[1] == length:
            return Rows(np.ascontiguousarray(value), False), np.ones(value.shape[0], dtype=bool)
        zero = np.zeros((value.shape[0], length), dtype=np.uint8)
        return Rows(zero, False), np.zeros(value.shape[0], dtype=bool)
    elif isinstance(value, Sequence) and not isinstance(value, str):
        items = list(value)
        single = False
    else:
        raise TypeError(
            f"{name} must be a uint8 array, bytes or a sequence of bytes, "
            f"not {type(value).__name__}"
        )
    out = np.zeros((len(items), length), dtype=np.uint8)
    ok = np.zeros(len(items), dtype=bool)
    for i, item in enumerate(items):
        if isinstance(item, np.ndarray):
            if item.dtype != np.uint8 or item.ndim != 1:
                raise TypeError(f"{name}[{i}] must be bytes or a 1-D uint8 array")
            row = item.tobytes()
        else:
            row = as_bytes(item, f"{name}[{i}]" if not single else name)
        if len(row) == length:
            out[i] = np.frombuffer(row, dtype=np.uint8)
            ok[i] = True
    return Rows(out, single), ok


@dataclass(frozen=True)
class Messages:
    """A checked message argument: one ``bytes`` per row, or one broadcast item."""

    items: list[bytes]
    single: bool

    @property
    def count(self) -> int | None:
        return None if self.single else len(self.items)

    def item(self, i: int) -> bytes:
        """Message i (the single one for a broadcast message)."""
        return self.items[0 if self.single else i]

    def take(self, lo: int, hi: int) -> list[bytes]:
        """Rows lo..hi, the single item repeated for a broadcast message."""
        return self.items * (hi - lo) if self.single else self.items[lo:hi]


def as_messages(value: Any, name: str = "messages") -> Messages:
    """Messages of any lengths: a sequence of bytes-like objects, a 2-D uint8 array
    (rows of equal length), or one message (bytes-like, 1-D uint8 array) that
    broadcasts."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return Messages([bytes(value)], True)
    if isinstance(value, np.ndarray):
        if value.dtype != np.uint8:
            raise TypeError(f"{name} must be a uint8 array, not {value.dtype}")
        if value.ndim == 1:
            return Messages([value.tobytes()], True)
        if value.ndim != 2:
            raise ValueError(f"{name} must be a 1-D or 2-D uint8 array, got shape {value.shape}")
        return Messages([row.tobytes() for row in value], False)
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise TypeError(
            f"{name} must be a uint8 array, bytes or a sequence of bytes, "
            f"not {type(value).__name__}"
        )
    items = []
    for i, item in enumerate(value):
        if isinstance(item, np.ndarray) and item.dtype == np.uint8 and item.ndim == 1:
            items.append(item.tobytes())
        else:
            items.append(as_bytes(item, f"{name}[{i}]"))
    return Messages(items, False)


def batch_size(**args: Rows | Messages) -> int:
    """n: the common row count of the arguments with rows (1 if all are single).
    ValueError naming the arguments whose counts differ."""
    counts = {name: a.count for name, a in args.items() if a.count is not None}
    if not counts:
        return 1
    values = set(counts.values())
    if len(values) > 1:
        listed = ", ".join(f"{name} has {c}" for name, c in counts.items())
        raise ValueError(f"batch arguments have different numbers of rows: {listed}")
    return values.pop()


def row_error(index: int, exc: ValueError) -> ValueError:
    """The ValueError of a failed input check on row ``index``."""
    return ValueError(f"row {index}: {exc}")


def call_row(index: int, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    """``fn(*args, **kwargs)`` for row ``index``: a ValueError it raises is re-raised
    naming the row (:func:`row_error`)."""
    try:
        return fn(*args, **kwargs)
    except ValueError as exc:
        raise row_error(index, exc) from exc


def raise_first_bad(bad: npt.NDArray[np.bool_], lo: int, check: Callable[[int], object]) -> None:
    """For a vectorised input check over rows lo, lo + 1, ...: if any row is ``bad``,
    run the single operation's ``check(i)`` on the first one (row index i) so that
    its exact ValueError is raised, prefixed ``row i: ``."""
    if not bad.any():
        return
    i = lo + int(np.argmax(bad))
    try:
        check(i)
    except ValueError as exc:
        raise row_error(i, exc) from exc
    raise AssertionError(f"row {i}: the batch input check and the single operation's disagree")


def draw_rows(rng: RNG | None, count: int, sizes: tuple[int, ...]) -> U8:
    """``count`` rows of randomness, each the concatenation of draws of ``sizes``
    bytes made in that order, row after row: exactly the calls a loop of single
    operations makes. With rng None, one os.urandom call."""
    width = sum(sizes)
    if rng is None:
        return np.frombuffer(bytearray(os.urandom(count * width)), dtype=np.uint8).reshape(
            count, width
        )
    out = bytearray()
    for _ in range(count):
        for size in sizes:
            out += draw(rng, size)
    return np.frombuffer(out, dtype=np.uint8).reshape(count, width)


def as_count(n: Any) -> int:
    """A row count: a non-negative int."""
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
        raise TypeError(f"n must be an int, not {type(n).__name__}")
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    return int(n)


# --- chunks and threads ---------------------------------------------------------------


def chunk_bounds(n: int, chunk: int) -> list[tuple[int, int]]:
    """(lo, hi) of every chunk of ``chunk`` rows covering 0..n."""
    return [(lo, min(lo + chunk, n)) for lo in range(0, n, chunk)]


def run_chunks(
    n: int,
    chunk: int,
    prepare: Callable[[int, int], _T],
    compute: Callable[[_T], tuple[Any, ...]],
    workers: int,
) -> Iterator[tuple[int, int, tuple[Any, ...]]]:
    """Yield (lo, hi, compute(prepare(lo, hi))) for every chunk, in order.

    ``prepare`` runs in the calling thread, chunk after chunk (it draws the
    randomness, so the order of draws does not depend on ``workers``);
    ``compute`` runs on up to ``workers`` threads, in the caller's context
    variables, with at most 2 ``workers`` chunks in flight (bounded memory).
    """
    bounds = chunk_bounds(n, chunk)
    if workers <= 1 or len(bounds) <= 1:
        for lo, hi in bounds:
            yield lo, hi, compute(prepare(lo, hi))
        return
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="pqkit-batch") as pool:
        pending: deque[tuple[int, int, Future[tuple[Any, ...]]]] = deque()
        for lo, hi in bounds:
            # Each task runs in a copy of the caller's context, so the backend
            # scopes (pqkit.arith.use, pqkit.common.use: context variables) hold in
            # the worker threads too.
            task = pool.submit(contextvars.copy_context().run, compute, prepare(lo, hi))
            pending.append((lo, hi, task))
            if len(pending) >= 2 * workers:
                a, b, fut = pending.popleft()
                yield a, b, fut.result()
        while pending:
            a, b, fut = pending.popleft()
            yield a, b, fut.result()


def collect(
    n: int, widths: tuple[int, ...], parts: Iterator[tuple[int, int, tuple[Any, ...]]]
) -> tuple[npt.NDArray[Any], ...]:
    """Fill output arrays (n, width) (uint8; bool for width 0: a (n,) mask) from the
    chunks ``parts`` yields."""
    outs: list[npt.NDArray[Any]] = [
        np.zeros(n, dtype=bool) if w == 0 else np.empty((n, w), dtype=np.uint8) for w in widths
    ]
    for lo, hi, results in parts:
        for out, res in zip(outs, results, strict=True):
            out[lo:hi] = res
    return tuple(outs)


# --- the views ------------------------------------------------------------------------


class BatchBase:
    """What every view shares: the scheme, the chunk size, key-pair streaming."""

    chunk: int = DEFAULT_CHUNK

    def __init__(self, scheme: Any) -> None:
        self.scheme = scheme

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.scheme!r}>"

    def _keygen_rows(self, count: int, rng: RNG | None) -> Any:
        """Prepare ``count`` key pairs (calling thread, so rng is asked in order).
        The loop views run the single keygen here; vectorised views draw seeds."""
        return [self.scheme.keygen(rng=rng) for _ in range(count)]

    def _keygen_compute(self, prepared: Any) -> tuple[U8, U8]:
        """The (pks, sks) of one chunk from what :meth:`_keygen_rows` prepared."""
        return _stack_pairs(prepared)

    def keygen_derand(self, seeds: Any, *, workers: int | None = None) -> tuple[U8, U8]:
        """The key pair of each seed row (``length_seed`` bytes)."""
        s = self.scheme
        rows = as_rows(seeds, "seeds", s.length_seed)
        n = batch_size(seeds=rows)

        def compute(b: tuple[int, int]) -> tuple[U8, U8]:
            return _stack_pairs([call_row(i, s.keygen_derand, rows.row(i)) for i in range(*b)])

        w = resolve_workers(workers)
        parts = run_chunks(n, self.chunk, lambda lo, hi: (lo, hi), compute, w)
        pks, sks = collect(n, (s.length_public_key, s.length_secret_key), parts)
        return pks, sks

    def iter_keygen(
        self, n: int, *, rng: RNG | None = None, workers: int | None = None
    ) -> Iterator[tuple[U8, U8]]:
        """Key pairs in chunks: yields (pks, sks) of at most ``chunk`` rows each,
        n rows in all, the same rows as ``keygen(n, rng=rng)``; memory stays
        bounded by the chunk size whatever n is."""
        count = as_count(n)
        w = resolve_workers(workers)
        parts = run_chunks(
            count,
            self.chunk,
            lambda lo, hi: self._keygen_rows(hi - lo, rng),
            self._keygen_compute,
            w,
        )
        for _lo, _hi, (pks, sks) in parts:
            yield pks, sks

    def _seed_rows(self, count: int, rng: RNG | None) -> U8:
        """``count`` fresh key-generation seeds (``length_seed`` bytes each), drawn
        row after row as the single keygen draws them (one draw per row here; a
        family whose keygen draws its seed in parts overrides this)."""
        return draw_rows(rng, count, (self.scheme.length_seed,))

    def iter_keygen_seeded(
        self, n: int, *, rng: RNG | None = None, workers: int | None = None
    ) -> Iterator[tuple[U8, U8, U8]]:
        """Like :meth:`iter_keygen`, yielding (seeds, pks, sks): each pair is
        ``keygen_derand`` of its seed row, for callers that keep the seeds (the
        compact private-key form)."""
        count = as_count(n)

        def compute(seeds: U8) -> tuple[U8, U8, U8]:
            pks, sks = self.keygen_derand(seeds, workers=1)
            return seeds, pks, sks

        parts = run_chunks(
            count,
            self.chunk,
            lambda lo, hi: self._seed_rows(hi - lo, rng),
            compute,
            resolve_workers(workers),
        )
        for _lo, _hi, (seeds, pks, sks) in parts:
            yield seeds, pks, sks

    def keygen(
        self, n: int, *, rng: RNG | None = None, workers: int | None = None
    ) -> tuple[U8, U8]:
        """n new key pairs: (pks (n, length_public_key), sks (n, length_secret_key))."""
        count = as_count(n)
        s = self.scheme
        parts = run_chunks(
            count,
            self.chunk,
            lambda lo, hi: self._keygen_rows(hi - lo, rng),
            self._keygen_compute,
            resolve_workers(workers),
        )
        pks, sks = collect(count, (s.length_public_key, s.length_secret_key), parts)
        return pks, sks


class KemBatch(BatchBase):
    """The batch view of a KEM without a vectorised one: each row is the single
    operation, with the batch rules of :mod:`pqkit.batch`."""

    chunk = 64

    def _check_encapsulation_keys(self, keys: Rows) -> None:
        """The family's public-key checks (``check_encapsulation_key``, if it has
        one) on every row, first."""
        check = getattr(self.scheme, "check_encapsulation_key", None)
        if check is not None:
            for i in range(keys.data.shape[0]):
                call_row(i, check, keys.row(i))

    def encaps(
        self, pks: Any, *, rng: RNG | None = None, workers: int | None = None
    ) -> tuple[U8, U8]:
        """(shared_secrets, ciphertexts): row i is ``encaps(pks[i], rng=rng)``, run
        row after row in the calling thread (so rng is asked exactly as by a loop),
        after every key passed the family's checks."""
        s = self.scheme
        keys = as_rows(pks, "pks", s.length_public_key)
        n = batch_size(pks=keys)
        self._check_encapsulation_keys(keys)

        def prepare(lo: int, hi: int) -> list[Any]:
            return [call_row(i, s.encaps, keys.row(i), rng=rng) for i in range(lo, hi)]

        parts = run_chunks(n, self.chunk, prepare, _stack_pairs, resolve_workers(workers))
        ss, cts = collect(n, (s.length_shared_secret, s.length_ciphertext), parts)
        return ss, cts

    def encaps_derand(self, pks: Any, ms: Any, *, workers: int | None = None) -> tuple[U8, U8]:
        """Row i is ``encaps_derand(pks[i], ms[i])``; an m row has the scheme's
        ``length_randomness`` bytes (32 for ML-KEM and Kyber)."""
        s = self.scheme
        keys = as_rows(pks, "pks", s.length_public_key)
        m_rows = as_rows(ms, "ms", int(getattr(s, "length_randomness", 32)))
        n = batch_size(pks=keys, ms=m_rows)
        self._check_encapsulation_keys(keys)

        def compute(b: tuple[int, int]) -> tuple[U8, U8]:
            pairs = [call_row(i, s.encaps_derand, keys.row(i), m_rows.row(i)) for i in range(*b)]
            return _stack_pairs(pairs)

        parts = run_chunks(
            n, self.chunk, lambda lo, hi: (lo, hi), compute, resolve_workers(workers)
        )
        ss, cts = collect(n, (s.length_shared_secret, s.length_ciphertext), parts)
        return ss, cts

    def decaps(self, sks: Any, cts: Any, *, workers: int | None = None) -> U8:
        """Row i is ``decaps(sks[i], cts[i])`` (implicit rejection as there)."""
        s = self.scheme
        keys = as_rows(sks, "sks", s.length_secret_key)
        cs = as_rows(cts, "cts", s.length_ciphertext)
        n = batch_size(sks=keys, cts=cs)

        def compute(b: tuple[int, int]) -> tuple[U8]:
            return (_stack([call_row(i, s.decaps, keys.row(i), cs.row(i)) for i in range(*b)]),)

        parts = run_chunks(
            n, self.chunk, lambda lo, hi: (lo, hi), compute, resolve_workers(workers)
        )
        (out,) = collect(n, (s.length_shared_secret,), parts)
        return out


class SignatureBatch(BatchBase):
    """The batch view of a signature scheme without a vectorised one."""

    chunk = 16

    def sign(
        self,
        sks: Any,
        messages: Any,
        ctx: bytes = b"",
        *,
        deterministic: bool = False,
        rnd: Any = None,
        rng: RNG | None = None,
        workers: int | None = None,
    ) -> U8:
        """Row i is ``sign(sks[i], messages[i], ctx, deterministic=..., rnd=rnd[i],
        rng=rng)``; rows are signed in order, so rng is asked in the order of a loop."""
        s = self.scheme
        keys = as_rows(sks, "sks", s.length_secret_key)
        msgs = as_messages(messages)
        rnds = None if rnd is None else as_messages(rnd, "rnd")
        n = (
            batch_size(sks=keys, messages=msgs)
            if rnds is None
            else batch_size(sks=keys, messages=msgs, rnd=rnds)
        )
        sigs = [
            call_row(
                i,
                s.sign,
                keys.row(i),
                msgs.item(i),
                ctx,
                deterministic=deterministic,
                rnd=None if rnds is None else rnds.items[0 if rnds.single else i],
                rng=rng,
            )
            for i in range(n)
        ]
        return self._signature_rows(sigs)

    def _signature_rows(self, sigs: list[bytes]) -> U8:
        """The signatures as :meth:`sign` returns them: an (n, length_signature) array."""
        out = np.empty((len(sigs), self.scheme.length_signature), dtype=np.uint8)
        for i, sig in enumerate(sigs):
            out[i] = np.frombuffer(sig, dtype=np.uint8)
        return out

    def _signatures(self, signatures: Any) -> tuple[Any, Callable[[int], bytes | None]]:
        """The signatures :meth:`verify` reads: what :func:`batch_size` counts, and
        row i's signature, None for one of a wrong length (a False row)."""
        sigs, ok = as_signature_rows(signatures, "signatures", self.scheme.length_signature)
        return sigs, lambda i: sigs.row(i) if ok[0 if sigs.single else i] else None

    def verify(
        self,
        pks: Any,
        messages: Any,
        signatures: Any,
        ctx: bytes = b"",
        *,
        workers: int | None = None,
    ) -> npt.NDArray[np.bool_]:
        """Row i is ``verify(pks[i], messages[i], signatures[i], ctx)``: a bool array,
        False for a malformed signature."""
        s = self.scheme
        keys = as_rows(pks, "pks", s.length_public_key)
        msgs = as_messages(messages)
        sigs, signature = self._signatures(signatures)
        n = batch_size(pks=keys, messages=msgs, signatures=sigs)
        out = np.zeros(n, dtype=bool)
        for i in range(n):
            sig = signature(i)
            if sig is not None:
                out[i] = s.verify(keys.row(i), msgs.item(i), sig, ctx)
        return out


def _stack_pairs(pairs: list[Any]) -> tuple[U8, U8]:
    """Two arrays from a list of 2-tuples of bytes (key pairs, encapsulations)."""
    return _stack([a for a, _ in pairs]), _stack([b for _, b in pairs])


def _stack(items: list[bytes]) -> U8:
    if not items:
        return np.zeros((0, 0), dtype=np.uint8)
    return np.frombuffer(b"".join(items), dtype=np.uint8).reshape(len(items), -1)


# --- the views of a scheme ------------------------------------------------------------


def kem_batch(scheme: KemBase) -> KemBatch:
    """The batch view of a KEM: the family's vectorised view if it has one."""
    view: KemBatch = _view(scheme, KemBatch)
    return view


def signature_batch(scheme: SignatureBase) -> SignatureBatch:
    """The batch view of a signature scheme."""
    view: SignatureBatch = _view(scheme, SignatureBatch)
    return view


def _view(scheme: Any, fallback: type[BatchBase]) -> Any:
    path: str | None = getattr(type(scheme), "BATCH", None)
    if path is None:
        return fallback(scheme)
    import importlib

    module, _, name = path.partition(":")
    cls = getattr(importlib.import_module(module), name)
    return cls(scheme)


# --- streaming to disk ------------------------------------------------------------------


def write_keypairs(
    scheme: KemBase | SignatureBase,
    n: int,
    directory: str | os.PathLike[str],
    *,
    rng: RNG | None = None,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    seeds: bool = False,
) -> tuple[Path, ...]:
    """Generate n key pairs and write them to ``directory/public_keys.npy`` and
    ``directory/secret_keys.npy`` (uint8 ``(n, length)`` arrays, loadable with
    ``numpy.load(..., mmap_mode="r")``), chunk by chunk: memory stays bounded
    whatever n is. With ``seeds``, also ``directory/seeds.npy``: the key-generation
    seed of each row (``length_seed`` bytes; the pair is ``keygen_derand`` of it).
    ``progress(rows)`` is called after each chunk with the number of rows just
    written. Returns the paths written (public keys, secret keys[, seeds]).

    Existing files are replaced, never written into: each file is written as a new
    file beside its target (created with ``O_EXCL``, mode 0600 for secret keys and
    seeds, 0644 less the umask for public keys) and renamed over it once every row
    is written (:func:`pqkit._files.replacing`), so a pre-existing file's
    permissions or a symlink planted at the name never reach the secrets, and an
    error leaves the old files as they were."""
    count = as_count(n)
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "public_keys.npy", out / "secret_keys.npy"]
    widths = [scheme.length_public_key, scheme.length_secret_key]
    if seeds:
        paths.append(out / "seeds.npy")
        widths.append(scheme.length_seed)
    view = scheme.batch
    with contextlib.ExitStack() as stack:
        files = []
        for i, (path, width) in enumerate(zip(paths, widths, strict=True)):
            f = stack.enter_context(replacing(path, secret=i > 0))
            header = {"descr": "|u1", "fortran_order": False, "shape": (count, width)}
            np.lib.format.write_array_header_1_0(f, header)
            files.append(f)
        chunks: Iterator[tuple[U8, ...]] = (
            (
                (pks, sks, sd)
                for sd, pks, sks in view.iter_keygen_seeded(count, rng=rng, workers=workers)
            )
            if seeds
            else view.iter_keygen(count, rng=rng, workers=workers)
        )
        for rows in chunks:
            for f, block in zip(files, rows, strict=True):
                f.write(block.tobytes())
            if progress is not None:
                progress(int(rows[0].shape[0]))
    return tuple(paths)

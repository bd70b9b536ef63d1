"""``pqkit speed kernels``: each arithmetic kernel on each backend, and the
symmetric kernels (Keccak-f[1600], matrix expansion) on each symmetric backend.

The inputs follow the ML-KEM-768 / ML-DSA-65 shapes (k = 3; k x l = 6 x 5): one
polynomial for the per-polynomial kernels, the k x k matrix times a k-vector for
the dot products, as the schemes call them. They are fixed, arbitrary-looking
values; the kernel contracts are in :mod:`pqkit.arith.api`.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit import arith, common
from pqkit.bench.runner import Group, Operation
from pqkit.bench.suites import deterministic_bytes

__all__ = ["kernel_groups", "mldsa_operations", "mlkem_operations", "symmetric_operations"]

MLKEM_Q = 3329
MLDSA_Q = 8380417
MLKEM_K = 3  # ML-KEM-768
MLDSA_K, MLDSA_L = 6, 5  # ML-DSA-65
MLDSA_GAMMA2 = (MLDSA_Q - 1) // 32  # ML-DSA-65
MLDSA_TAU = 49  # ML-DSA-65


def _u8(label: str, *shape: int) -> npt.NDArray[np.uint8]:
    data = np.frombuffer(deterministic_bytes(label, int(np.prod(shape))), dtype=np.uint8)
    out: npt.NDArray[np.uint8] = data.reshape(shape).copy()
    return out


def _poly(label: str, q: int, *shape: int) -> npt.NDArray[np.int64]:
    """Canonical coefficients in [0, q), shape (*shape, 256)."""
    raw = _u8(label, *shape, 256, 4).view("<u4")[..., 0].astype(np.int64)
    return raw % q


Op = tuple[str, Callable[[], object]]


def mlkem_operations(K: Any) -> list[Op]:
    """The ML-KEM kernels of the table ``K`` on ML-KEM-768 shapes."""
    k = MLKEM_K
    f = _poly("f", MLKEM_Q)
    a_hat = _poly("A_hat", MLKEM_Q, k, k)
    s_hat = _poly("s_hat", MLKEM_Q, k)
    cache = K.mulcache(s_hat)
    stream = _u8("xof", 3 * 168)
    cbd2, cbd3 = _u8("prf2", 64 * 2), _u8("prf3", 64 * 3)
    packed12 = K.byte_encode(f, 12)
    compressed10 = K.compress(f, 10)
    compressed4 = K.compress(f, 4)
    return [
        ("ntt", lambda: K.ntt(f)),
        ("intt", lambda: K.intt(f)),
        (f"ntt (vector of {k})", lambda: K.ntt(s_hat)),
        (f"mulcache (vector of {k})", lambda: K.mulcache(s_hat)),
        (f"basemul_acc {k}x{k} (with mulcache)", lambda: K.basemul_acc(a_hat, s_hat, cache)),
        (f"basemul_acc {k}x{k} (no mulcache)", lambda: K.basemul_acc(a_hat, s_hat, None)),
        ("rej_uniform (504 B)", lambda: K.rej_uniform(stream)),
        ("cbd eta=2", lambda: K.cbd(cbd2, 2)),
        ("cbd eta=3", lambda: K.cbd(cbd3, 3)),
        ("byte_encode d=12", lambda: K.byte_encode(f, 12)),
        ("byte_decode d=12", lambda: K.byte_decode(packed12, 12)),
        ("compress d=10", lambda: K.compress(f, 10)),
        ("decompress d=10", lambda: K.decompress(compressed10, 10)),
        ("compress d=4", lambda: K.compress(f, 4)),
        ("decompress d=4", lambda: K.decompress(compressed4, 4)),
    ]


def mldsa_operations(K: Any) -> list[Op]:
    """The ML-DSA kernels of the table ``K`` on ML-DSA-65 shapes (pointwise_mul,
    infinity_norm and bit packing where the table has them)."""
    k, l = MLDSA_K, MLDSA_L  # noqa: E741 - the name FIPS 204 uses
    f = _poly("f", MLDSA_Q)
    a_hat = _poly("A_hat", MLDSA_Q, k, l)
    s_hat = _poly("s1_hat", MLDSA_Q, l)
    r = _poly("r", MLDSA_Q)
    z = _poly("z", MLDSA_Q)
    hint = K.make_hint(z, r, MLDSA_GAMMA2)
    uniform = _u8("xof", 5 * 168)
    bounded = _u8("prf", 2 * 136)
    ball = _u8("H(rho)", 136)
    t1 = _poly("t1", 1 << 10)
    packed_t1 = K.bit_pack(t1, 10) if hasattr(K, "bit_pack") else None
    optional: list[Op] = []
    if hasattr(K, "pointwise_mul"):
        optional.append(("pointwise_mul", lambda: K.pointwise_mul(f, r)))
    if hasattr(K, "infinity_norm"):
        optional.append((f"infinity_norm (vector of {l})", lambda: K.infinity_norm(s_hat)))
    if packed_t1 is not None:
        optional.append(("bit_pack width=10", lambda: K.bit_pack(t1, 10)))
        optional.append(("bit_unpack width=10", lambda: K.bit_unpack(packed_t1, 10)))
    return [
        ("ntt", lambda: K.ntt(f)),
        ("intt", lambda: K.intt(f)),
        (f"pointwise_acc {k}x{l}", lambda: K.pointwise_acc(a_hat, s_hat)),
        ("power2round", lambda: K.power2round(r)),
        ("decompose", lambda: K.decompose(r, MLDSA_GAMMA2)),
        ("make_hint", lambda: K.make_hint(z, r, MLDSA_GAMMA2)),
        ("use_hint", lambda: K.use_hint(hint, r, MLDSA_GAMMA2)),
        ("rej_uniform (840 B)", lambda: K.rej_uniform(uniform)),
        ("rej_bounded eta=4 (272 B)", lambda: K.rej_bounded(bounded, 4)),
        (f"sample_in_ball tau={MLDSA_TAU}", lambda: K.sample_in_ball(ball, MLDSA_TAU)),
        *optional,
    ]


def _keccak_f1600(backend: str) -> Callable[[list[int]], None] | None:
    """The bare permutation of a symmetric backend, where it exposes one."""
    try:
        module = importlib.import_module(f"pqkit.common.{backend}.keccak")
    except ImportError:
        return None
    permutation: Callable[[list[int]], None] | None = getattr(module, "keccak_f1600", None)
    return permutation


def _matrix_expansion(arith_backend: str, rho: bytes, k: int) -> tuple[str, Callable[[], object]]:
    """ML-KEM's own matrix expansion (``pqkit.mlkem.kpke.expand_matrix``: one batched
    XOF call, rej_uniform, the rare retry) on the SHA-3 provider in scope; where that
    helper is missing, its two steps: SHAKE-128 of the k x k seeds, then rej_uniform."""
    K: Any = arith.kernels("mlkem", arith_backend)
    label = f"matrix expansion k={k} (rej_uniform: {arith_backend})"
    try:
        from pqkit.mlkem.kpke import expand_matrix
        from pqkit.mlkem.symmetric import FIPS203
    except ImportError:  # pragma: no cover - the ML-KEM helper moved
        seeds = [rho + bytes([j, i]) for i in range(k) for j in range(k)]
        return label, lambda: K.rej_uniform(common.shake128_many(seeds, 504))
    return label, lambda: expand_matrix(FIPS203.bind(), K, rho, k)


def symmetric_operations(backend: str, arith_backend: str | None) -> list[Op]:
    """Keccak-f[1600] (where the backend exposes it), SHAKE-128 of the k x k seeds
    rho || j || i of ML-KEM-768's matrix, and the whole matrix expansion. Run inside
    ``common.use(sha3=backend)`` (see :func:`kernel_groups`)."""
    ops: list[Op] = []
    permutation = _keccak_f1600(backend)
    if permutation is not None:
        state = [int.from_bytes(deterministic_bytes(f"lane{i}", 8), "little") for i in range(25)]
        ops.append(("Keccak-f[1600]", lambda: permutation(state)))
    k = MLKEM_K
    rho = deterministic_bytes("rho", 32)
    seeds = [rho + bytes([j, i]) for i in range(k) for j in range(k)]
    n = _xof_bytes()
    ops.append(
        (
            f"SHAKE-128 x{k * k} (34 -> {n} B)",
            lambda: common.shake128_many(seeds, n, backend=backend),
        )
    )
    if arith_backend is not None:
        ops.append(_matrix_expansion(arith_backend, rho, k))
    return ops


def _xof_bytes() -> int:
    """How many SHAKE-128 bytes ML-KEM's matrix expansion reads first per entry."""
    try:
        from pqkit.mlkem.kpke import XOF_BYTES
    except ImportError:  # pragma: no cover - the ML-KEM helper moved
        return 3 * 168
    return int(XOF_BYTES)


def _group(
    name: str, make: Callable[[], list[Op]], context: Callable[[], Any] = contextlib.nullcontext
) -> Group:
    return Group(name, lambda: [Operation(op, run) for op, run in make()], context)


def _mlkem(backend: str) -> list[Op]:
    return mlkem_operations(arith.kernels("mlkem", backend))


def _mldsa(backend: str) -> list[Op]:
    return mldsa_operations(arith.kernels("mldsa", backend))


def kernel_groups(
    *, arith_backends: list[str] | None = None, symmetric_backends: list[str] | None = None
) -> list[Group]:
    """One group per (scheme, arithmetic backend) and per symmetric backend.

    ``None`` means every available backend; a backend that does not serve a scheme
    is left out.
    """
    groups: list[Group] = []
    mlkem_arith, mldsa_arith = arith.available("mlkem"), arith.available("mldsa")
    for backend in arith_backends or mlkem_arith:
        if backend in mlkem_arith:
            groups.append(_group(f"ML-KEM kernels ({backend})", partial(_mlkem, backend)))
    for backend in arith_backends or mldsa_arith:
        if backend in mldsa_arith:
            groups.append(_group(f"ML-DSA kernels ({backend})", partial(_mldsa, backend)))
    # Matrix expansion samples with the first chosen (else the fastest) ML-KEM backend.
    chosen = [b for b in (arith_backends or mlkem_arith) if b in mlkem_arith]
    expansion_arith = chosen[0] if chosen else None
    for backend in symmetric_backends or common.backends()["sha3"]["available"]:
        groups.append(
            _group(
                f"Symmetric kernels ({backend})",
                partial(symmetric_operations, backend, expansion_arith),
                partial(common.use, sha3=backend),
            )
        )
    return groups

"""Composite kernels, written once over the selected backend's own primitives.

A composite kernel (today: the fused K-PKE steps of FIPS 203) is a fixed sequence
of primitive kernels. Each is written here once, as a factory that takes a
backend's table of primitives and returns the composite bound to them, so a
backend without its own copy runs the composite on *its own* NTT, basemul and
packing: never on another backend's (the old fallback to ``ref`` ran K-PKE in pure
Python). A backend overrides a composite only where its copy is measurably faster
(``jit``: one compiled call instead of eight; see docs/decisions.md).

The glue between the primitives is public-shape NumPy work (slicing, stacking,
additions of canonical values) with no branch, ``%`` or lookup on secret data;
every reduction is a primitive's: sums are left lazily reduced (below 4q) where
the next primitive (Compress_d) accepts that.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith.api import Poly, named_table
from pqkit.mlkem.kernels.contract import kpke_decrypt_args, kpke_encrypt_args, kpke_keygen_args
from pqkit.mlkem.kernels.tables import MLKEM_Q

__all__ = [
    "COMPOSITES",
    "encrypt_rows",
    "kpke_cache",
    "kpke_decrypt",
    "kpke_decrypt_entry",
    "kpke_encrypt",
    "kpke_encrypt_entry",
    "kpke_keygen",
]

Factory = Callable[[Any], Callable[..., Any]]
"""Takes a table of primitives (attribute access), returns the composite kernel."""

U8 = npt.NDArray[np.uint8]
Arrays = tuple[npt.NDArray[Any], ...]
DecryptCore = Callable[[U8, U8, int, int, int, Any, Any], U8]
"""A backend's K-PKE.Decrypt on checked arguments: (dk, c, k, du, dv, s_hat, s_cache)."""
EncryptCore = Callable[[int, int, int, Arrays, int, int, Any, Any], U8]
"""A backend's K-PKE.Encrypt on checked arguments: (k, eta1, eta2, (t_hat, A_hat,
prf_y, prf_e, m), du, dv, rows, rows_cache)."""


def kpke_decrypt_entry(core: DecryptCore) -> Callable[..., U8]:
    """The contract's ``kpke_decrypt`` (:class:`~pqkit.mlkem.kernels.contract.MLKEMKernels`)
    around a backend's ``core``: the arguments are checked here
    (:func:`~pqkit.mlkem.kernels.contract.kpke_decrypt_args`), once for every backend."""

    def kpke_decrypt(
        dk_pke: Any, c: Any, k: int, du: int, dv: int, s_hat: Any = None, s_cache: Any = None
    ) -> U8:
        dk, ct = kpke_decrypt_args(dk_pke, c, k, du, dv)
        return core(dk, ct, k, du, dv, s_hat, s_cache)

    kpke_decrypt.__doc__ = core.__doc__
    return kpke_decrypt


def kpke_encrypt_entry(core: EncryptCore) -> Callable[..., U8]:
    """The contract's ``kpke_encrypt`` around a backend's ``core``, as
    :func:`kpke_decrypt_entry` (:func:`~pqkit.mlkem.kernels.contract.kpke_encrypt_args`)."""

    def kpke_encrypt(
        t_hat: Any,
        A_hat: Any,
        prf_y: Any,
        prf_e: Any,
        m: Any,
        du: int,
        dv: int,
        rows: Any = None,
        rows_cache: Any = None,
    ) -> U8:
        k, eta1, eta2, arrays = kpke_encrypt_args(t_hat, A_hat, prf_y, prf_e, m, du, dv)
        return core(k, eta1, eta2, arrays, du, dv, rows, rows_cache)

    kpke_encrypt.__doc__ = core.__doc__
    return kpke_encrypt


def kpke_decrypt(K: Any) -> Callable[..., npt.NDArray[np.uint8]]:
    """FIPS 203, Algorithm 15 (K-PKE.Decrypt) lines 1-7 over ``K``'s primitives."""
    byte_decode, decompress, ntt, intt = K.byte_decode, K.decompress, K.ntt, K.intt
    basemul_acc, compress, byte_encode = K.basemul_acc, K.compress, K.byte_encode

    def kpke_decrypt(
        dk: U8, ct: U8, k: int, du: int, dv: int, s_hat: Poly | None, s_cache: Any
    ) -> U8:
        """FIPS 203, Algorithm 15 (K-PKE.Decrypt) lines 1-7; see the contract."""
        c1 = ct[: 32 * du * k].reshape(k, 32 * du)  # line 1
        c2 = ct[32 * du * k :]  # line 2
        u_prime = decompress(byte_decode(c1, du), du)  # line 3
        v_prime = decompress(byte_decode(c2, dv), dv)  # line 4
        # line 5, unless the caller has dk_pke decoded already (ByteDecode_12(dk_pke)
        # and kpke_cache of it: the secret-key state cache of pqkit.mlkem.fips203).
        if s_hat is None:
            s_hat = byte_decode(dk.reshape(k, 384), 12)
            s_cache = None
        # line 6: w = v' - NTT^-1(s_hat^T o NTT(u')), kept as v' - (...) + q in [1, 2q):
        # Compress_1 takes its input mod q. (The product is commutative: s_hat is
        # the multiplier whose mulcache is known.)
        w = v_prime - intt(basemul_acc(ntt(u_prime), s_hat, s_cache)) + MLKEM_Q
        m: npt.NDArray[np.uint8] = byte_encode(compress(w, 1), 1)  # line 7
        return m

    return kpke_decrypt_entry(kpke_decrypt)


def kpke_encrypt(K: Any) -> Callable[..., npt.NDArray[np.uint8]]:
    """FIPS 203, Algorithm 14 (K-PKE.Encrypt) lines 9-24 over ``K``'s primitives."""
    byte_decode, decompress, ntt, intt = K.byte_decode, K.decompress, K.ntt, K.intt
    basemul_acc, compress, byte_encode, cbd = K.basemul_acc, K.compress, K.byte_encode, K.cbd

    def kpke_encrypt(
        k: int, eta1: int, eta2: int, arrays: Arrays, du: int, dv: int, rows: Any, rows_cache: Any
    ) -> U8:
        """FIPS 203, Algorithm 14 (K-PKE.Encrypt) lines 9-24; see the contract."""
        t, a, py, pe, mb = arrays
        y_hat = ntt(cbd(py, eta1))  # lines 9-12 and 18
        e = cbd(pe, eta2)  # lines 13-17: e1, then e2
        # Lines 19 and 21 in one basemul and one NTT^-1: the rows of A_hat^T
        # (A_hat^T[i, j] = A_hat[j, i]) and t_hat^T, each dotted with y_hat.
        # ``rows`` and ``rows_cache`` (= kpke_cache(rows)) may come with the decoded ek
        # (public state); the product is commutative, so y_hat is the left factor.
        if rows is None:
            rows = encrypt_rows(t, a)
            rows_cache = None
        w = intt(basemul_acc(y_hat, rows, rows_cache))
        mu = decompress(byte_decode(mb, 1), 1)  # line 20
        # u and v are sums of canonical terms, below 3q: Compress_d takes them mod q.
        # (In place: w is this call's own array.)
        w += e  # lines 19 and 21: u = w[:k] + e1, v = w[k] + e2 (+ mu)
        u = w[:k]
        v = w[k]
        v += mu  # line 21
        c1 = byte_encode(compress(u, du), du)  # line 22
        c2 = byte_encode(compress(v, dv), dv)  # line 23
        out: U8 = np.concatenate([c1.reshape(-1), c2])  # line 24
        return out

    return kpke_encrypt_entry(kpke_encrypt)


def kpke_keygen(K: Any) -> Callable[..., npt.NDArray[np.uint8]]:
    """FIPS 203, Algorithm 13 (K-PKE.KeyGen) lines 8-20 over ``K``'s primitives."""
    ntt, mulcache, basemul_acc, cbd = K.ntt, K.mulcache, K.basemul_acc, K.cbd
    add, byte_encode = K.add, K.byte_encode

    def kpke_keygen(A_hat: Poly, prf: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        k, eta, a, x = kpke_keygen_args(A_hat, prf)
        se_hat = ntt(cbd(x, eta))  # lines 8-17: s, then e
        s_hat, e_hat = se_hat[:k], se_hat[k:]
        t_hat = add(basemul_acc(a, s_hat, mulcache(s_hat)), e_hat)  # line 18
        out: npt.NDArray[np.uint8] = byte_encode(np.concatenate([t_hat, s_hat]), 12)
        return out  # lines 19-20 (without rho)

    return kpke_keygen


def encrypt_rows(t_hat: npt.ArrayLike, A_hat: npt.ArrayLike) -> Poly:
    """The (k + 1, k, 256) left factors of K-PKE.Encrypt lines 19 and 21: the rows of
    A_hat^T (A_hat^T[i, j] = A_hat[j, i]), then t_hat^T. Public values."""
    a = np.asarray(A_hat)
    rows: Poly = np.concatenate([a.swapaxes(0, 1), np.asarray(t_hat)[None]]).astype(
        np.int64, copy=False
    )
    return rows


def kpke_cache(K: Any) -> Callable[..., Any]:
    """The fused K-PKE kernels' precomputed multiplier: by default ``mulcache``, which
    the composites above pass to ``basemul_acc`` (one form, reused or not)."""
    mulcache: Callable[[Poly], Any] = K.mulcache

    def kpke_cache(b_hat: Poly, reused: bool = False) -> Any:
        return mulcache(b_hat)

    return kpke_cache


COMPOSITES: Mapping[str, Factory] = named_table(
    globals(), "kpke_cache", "kpke_decrypt", "kpke_encrypt", "kpke_keygen"
)
"""ML-KEM's composite kernels: name -> factory over the backend's primitives
(declared as the family's ``composites``)."""

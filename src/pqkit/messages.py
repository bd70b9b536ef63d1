"""What FIPS 204 and FIPS 205 build around the message before signing: the
context check, the domain-separated M' (the same layout in both standards:
``0 || |ctx| || ctx || M``, or ``1 || |ctx| || ctx || OID || PH(M)`` for the
pre-hash variants), and ML-DSA's per-signature randomness rnd. Every signing and
verifying path (the scheme APIs in :mod:`pqkit.mldsa.fips204` and
:mod:`pqkit.slhdsa.fips205`, the key objects, the command line) uses these, so each
fact has one owner. The pre-hash functions are :mod:`pqkit.prehash`.
"""

from __future__ import annotations

from typing import Any

from pqkit._checks import as_bytes, as_bytes_len
from pqkit._rng import RNG, draw
from pqkit.prehash import lookup

__all__ = [
    "MAX_CONTEXT",
    "RND_LENGTH",
    "context",
    "m_prime",
    "m_prime_for",
    "m_prime_prefix",
    "prehash_m_prime",
    "signing_rnd",
]

MAX_CONTEXT = 255
"""The longest context string (FIPS 204 §5.2, FIPS 205 §10.2: its length is one
byte of M')."""

RND_LENGTH = 32
"""Bytes of rnd (FIPS 204, Algorithm 2 line 5)."""


def context(ctx: Any, name: str = "ctx") -> bytes:
    """The context string ``ctx`` as bytes (``None`` is empty), at most 255 bytes.

    TypeError if it is not bytes-like, ValueError if longer (FIPS 204, Algorithm 2
    line 1 / Algorithm 4 line 1; FIPS 205, Algorithm 22 line 1 / Algorithm 23 line 1);
    ``name`` is the argument named in the message.
    """
    data = b"" if ctx is None else as_bytes(ctx, name)
    if len(data) > MAX_CONTEXT:
        raise ValueError(
            f"FIPS 204 §5.2 / FIPS 205 §10.2: the context string ({name}) must be at most "
            f"{MAX_CONTEXT} bytes, got {len(data)}"
        )
    return data


def m_prime_prefix(ctx: bytes, *, prehashed: bool = False) -> bytes:
    """The bytes of M' before the message: ``0 || |ctx| || ctx`` (FIPS 204, Algorithm 2
    line 10; FIPS 205, Algorithm 22 line 8) or ``1 || |ctx| || ctx`` for HashML-DSA and
    HashSLH-DSA (FIPS 204, Algorithm 4 line 23; FIPS 205, Algorithm 23 line 24).
    ``ctx`` must already have passed :func:`context`."""
    return bytes([1 if prehashed else 0, len(ctx)]) + ctx


def m_prime(message: Any, ctx: Any = b"") -> bytes:
    """M' = ``0 || |ctx| || ctx || M`` of pure ML-DSA and SLH-DSA (FIPS 204, Algorithm 2
    line 10; FIPS 205, Algorithm 22 line 8)."""
    msg = as_bytes(message, "message")
    return m_prime_prefix(context(ctx)) + msg


def prehash_m_prime(digest: Any, prehash: str, ctx: Any = b"") -> bytes:
    """M' = ``1 || |ctx| || ctx || OID || PH(M)`` of HashML-DSA and HashSLH-DSA (FIPS 204,
    Algorithm 4 line 23; FIPS 205, Algorithm 23 line 24); ``digest`` is PH(M), which
    must have the output length of ``prehash`` (an ACVP name such as "SHA2-512")."""
    ph = lookup(prehash)
    value = as_bytes_len(digest, f"{ph.name} digest", ph.digest_size)
    return m_prime_prefix(context(ctx), prehashed=True) + ph.der + value


def m_prime_for(message: Any, ctx: Any, prehash: str | None) -> bytes:
    """M' of a whole message: pure (:func:`m_prime`) when ``prehash`` is None, else
    the pre-hash variant over PH(``message``) (:func:`prehash_m_prime`). The context
    is checked before the pre-hash name, so a too-long context is the error named
    when both are wrong."""
    if prehash is None:
        return m_prime(message, ctx)
    msg = as_bytes(message, "message")
    context(ctx)
    return prehash_m_prime(lookup(prehash).function(msg), prehash, ctx)


def signing_rnd(deterministic: bool, rng: RNG | None) -> bytes:
    """rnd of FIPS 204, Algorithm 2 line 5: 32 zero bytes for the deterministic
    variant, else 32 bytes from ``rng`` (``os.urandom`` if None), hedged signing."""
    if deterministic:
        return bytes(RND_LENGTH)
    return draw(rng, RND_LENGTH)

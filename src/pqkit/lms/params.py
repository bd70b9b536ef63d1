"""Parameter sets of LMS / HSS (RFC 8554, NIST SP 800-208, RFC 9858) and the
family's catalogue entries.

An LM-OTS type fixes (hash, n, w) and an LMS type (hash, m, h); RFC 8554 §4.1 and
§5.1 give the typecodes of the SHA-256 sets, RFC 9858 §3 (and SP 800-208 §4) those
of SHA-256/192 (SHA-256 truncated to 24 bytes) and SHAKE256 with 24 or 32 output
bytes. An HSS parameter set is a list of (LMS, LM-OTS) pairs, top level first.

Names follow liboqs where liboqs has the set (``LMS_SHA256_H10_W4``, two levels
``LMS_SHA256_H10_W4_H5_W8``); the RFC 9858 sets add the hash and output size:
``LMS_SHA256_M24_H10_W4``, ``LMS_SHAKE_M32_H10_W4``, ``LMS_SHAKE_M24_H10_W4``.
No object identifier is given to the catalogue: every HSS set shares
id-alg-hss-lms-hashsig (RFC 9802), and the key files of :mod:`pqkit.stateful.files`
read the set from the key itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pqkit.registry import Algorithm

__all__ = [
    "CATALOG",
    "HSS_PARAMS",
    "LMOTS_TYPES",
    "LMS_TYPES",
    "HssParams",
    "LmotsType",
    "LmsType",
]

Hash = Literal["SHA256", "SHAKE"]


@dataclass(frozen=True)
class LmotsType:
    """An LM-OTS parameter set (RFC 8554 §4.1, Table 1; RFC 9858 §3)."""

    code: int
    hash: Hash
    n: int
    w: int

    @property
    def u(self) -> int:
        """ceil(8n / w) message digits (RFC 8554, Appendix B)."""
        return -(-8 * self.n // self.w)

    @property
    def v(self) -> int:
        """ceil((floor(lg((2^w - 1) u)) + 1) / w) checksum digits (Appendix B)."""
        bits = (((1 << self.w) - 1) * self.u).bit_length()  # floor(lg x) + 1
        return -(-bits // self.w)

    @property
    def p(self) -> int:
        """u + v: the number of chains."""
        return self.u + self.v

    @property
    def ls(self) -> int:
        """16 - v w: the left shift of the checksum (Appendix B)."""
        return 16 - self.v * self.w

    @property
    def length_signature(self) -> int:
        """u32str(type) || C || y[0] .. y[p-1] (RFC 8554 §4.5)."""
        return 4 + self.n * (self.p + 1)


@dataclass(frozen=True)
class LmsType:
    """An LMS parameter set (RFC 8554 §5.1, Table 2; RFC 9858 §3)."""

    code: int
    hash: Hash
    m: int
    h: int


def _lmots() -> dict[int, LmotsType]:
    out: dict[int, LmotsType] = {}
    # RFC 8554: 1-4 SHA256 n = 32; RFC 9858: 5-8 SHA256/192, 9-12 SHAKE n = 32, 13-16 n = 24
    for base, hash_, n in (
        (1, "SHA256", 32),
        (5, "SHA256", 24),
        (9, "SHAKE", 32),
        (13, "SHAKE", 24),
    ):
        for i, w in enumerate((1, 2, 4, 8)):
            out[base + i] = LmotsType(base + i, hash_, n, w)  # type: ignore[arg-type]
    return out


def _lms() -> dict[int, LmsType]:
    out: dict[int, LmsType] = {}
    # RFC 8554: 5-9 SHA256 m = 32; RFC 9858: 10-14 SHA256/192, 15-19 SHAKE m = 32, 20-24 m = 24
    for base, hash_, m in (
        (5, "SHA256", 32),
        (10, "SHA256", 24),
        (15, "SHAKE", 32),
        (20, "SHAKE", 24),
    ):
        for i, h in enumerate((5, 10, 15, 20, 25)):
            out[base + i] = LmsType(base + i, hash_, m, h)  # type: ignore[arg-type]
    return out


LMOTS_TYPES: dict[int, LmotsType] = _lmots()
LMS_TYPES: dict[int, LmsType] = _lms()


@dataclass(frozen=True)
class HssParams:
    """An HSS parameter set: L levels of (LMS type, LM-OTS type), top first (RFC 8554 §6)."""

    name: str
    levels: tuple[tuple[LmsType, LmotsType], ...]
    nist_level: int = 5
    stateful: bool = True

    @property
    def n(self) -> int:
        return self.levels[0][0].m

    @property
    def max_signatures(self) -> int:
        """2^(h_0 + ... + h_{L-1}): every one-time key of the bottom trees."""
        return 1 << sum(lms.h for lms, _ in self.levels)

    @property
    def length_public_key(self) -> int:
        """u32str(L) || u32str(lms type) || u32str(ots type) || I || T[1] (§6.1, §5.3)."""
        return 4 + 4 + 4 + 16 + self.n

    @property
    def length_secret_key(self) -> int:
        """The private key material without state: I || SEED of the top tree
        (lower trees derive from them, :mod:`pqkit.lms.hss`)."""
        return 16 + self.n

    @property
    def length_seed(self) -> int:
        """SEED || I for ``keygen_derand``."""
        return self.n + 16

    @property
    def length_signature(self) -> int:
        """u32str(Nspk) || (sig, pub) for each upper level || sig of the bottom (§6.2)."""
        total = 4
        for d, (lms, ots) in enumerate(self.levels):
            total += 4 + ots.length_signature + 4 + lms.h * lms.m  # LMS signature (§5.4)
            if d + 1 < len(self.levels):
                total += 4 + 4 + 16 + lms.m  # the next level's LMS public key
        return total


def _name(levels: tuple[tuple[LmsType, LmotsType], ...]) -> str:
    lms0 = levels[0][0]
    prefixes = {
        ("SHA256", 32): "LMS_SHA256",
        ("SHA256", 24): "LMS_SHA256_M24",
        ("SHAKE", 32): "LMS_SHAKE_M32",
        ("SHAKE", 24): "LMS_SHAKE_M24",
    }
    prefix = prefixes[(lms0.hash, lms0.m)]
    return prefix + "".join(f"_H{lms.h}_W{ots.w}" for lms, ots in levels)


def _pair(hash_: Hash, n: int, h: int, w: int) -> tuple[LmsType, LmotsType]:
    lms = next(t for t in LMS_TYPES.values() if (t.hash, t.m, t.h) == (hash_, n, h))
    ots = next(t for t in LMOTS_TYPES.values() if (t.hash, t.n, t.w) == (hash_, n, w))
    return lms, ots


# liboqs's two-level sets (sig_stfl: LMS_SHA256_H<h>_W<w>_H<h>_W<w>)
_HSS_LIBOQS = (
    ((5, 8), (5, 8)), ((10, 4), (5, 8)), ((10, 8), (5, 8)), ((10, 2), (10, 2)),
    ((10, 4), (10, 4)), ((10, 8), (10, 8)), ((15, 8), (5, 8)), ((15, 8), (10, 8)),
    ((15, 8), (15, 8)), ((20, 8), (5, 8)), ((20, 8), (10, 8)), ((20, 8), (15, 8)),
    ((20, 8), (20, 8)),
)  # fmt: skip


def _all() -> tuple[HssParams, ...]:
    out = []
    levels: tuple[tuple[LmsType, LmotsType], ...]
    hashes: tuple[tuple[Hash, int], ...] = (
        ("SHA256", 32),
        ("SHA256", 24),
        ("SHAKE", 32),
        ("SHAKE", 24),
    )
    for hash_, n in hashes:
        for h in (5, 10, 15, 20, 25):
            for w in (1, 2, 4, 8):
                levels = (_pair(hash_, n, h, w),)
                out.append(HssParams(_name(levels), levels, 3 if n == 24 else 5))
    for top, bottom in _HSS_LIBOQS:
        levels = (_pair("SHA256", 32, *top), _pair("SHA256", 32, *bottom))
        out.append(HssParams(_name(levels), levels))
    return tuple(out)


HSS_PARAMS: dict[str, HssParams] = {p.name: p for p in _all()}


def params_for(levels: tuple[tuple[LmsType, LmotsType], ...]) -> HssParams:
    """The parameter set of ``levels`` (a catalogued one if it is there, else an
    uncatalogued one: verification accepts every valid HSS public key)."""
    name = _name(levels)
    found = HSS_PARAMS.get(name)
    if found is not None and found.levels == levels:
        return found
    return HssParams(name + "_custom", levels)


CATALOG = tuple(Algorithm(p.name, "sig", "LMS", "pqkit.lms.scheme", p) for p in HSS_PARAMS.values())

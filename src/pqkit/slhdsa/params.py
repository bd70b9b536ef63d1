"""Parameter sets of SLH-DSA (FIPS 205, Table 2) and the family's catalogue entries.

One frozen dataclass describes every set; every size follows from (n, h, d, a, k)
and lg_w = 4. The object identifiers are RFC 9909's id-slh-dsa-* (NIST sigAlgs
arc 2.16.840.1.101.3.4.3.20-31, SHA2 sets first, then SHAKE, each 128s, 128f,
192s, 192f, 256s, 256f).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pqkit.registry import Algorithm

__all__ = ["CATALOG", "PARAMS", "Params"]

HashFamily = Literal["SHA2", "SHAKE"]


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class Params:
    """One SLH-DSA parameter set (FIPS 205, Table 2)."""

    name: str
    hash_family: HashFamily
    """"SHAKE" (§11.1) or "SHA2" (§11.2)."""
    n: int
    """Security parameter: bytes of every hash value."""
    h: int
    """Total height of the hypertree."""
    d: int
    """Number of XMSS layers."""
    hp: int
    """h' = h / d: the height of one XMSS tree."""
    a: int
    """Height of one FORS tree."""
    k: int
    """Number of FORS trees."""
    m: int
    """Bytes of H_msg output (FIPS 205, Table 2)."""
    nist_level: int
    """Security category."""
    lg_w: int = 4

    def __post_init__(self) -> None:
        if self.hp * self.d != self.h:  # pragma: no cover - a table bug
            raise ValueError(f"{self.name}: h' * d != h")
        if self.m != self.md_bytes + self.tree_bytes + self.leaf_bytes:  # pragma: no cover
            raise ValueError(f"{self.name}: m does not match FIPS 205 §9.2")

    @property
    def w(self) -> int:
        """2^lg_w: the Winternitz parameter (FIPS 205 §5, equation 5.1)."""
        return 1 << self.lg_w

    @property
    def len1(self) -> int:
        """8n / lg_w message digits (equation 5.2)."""
        return 8 * self.n // self.lg_w

    @property
    def len2(self) -> int:
        """Checksum digits: floor(log2(len1 (w - 1)) / lg_w) + 1 (FIPS 205, Algorithm 1)."""
        return ((self.len1 * (self.w - 1)).bit_length() - 1) // self.lg_w + 1

    @property
    def len(self) -> int:
        """len1 + len2: the number of WOTS+ chains (equation 5.4)."""
        return self.len1 + self.len2

    @property
    def is_sha2(self) -> bool:
        return self.hash_family == "SHA2"

    @property
    def md_bytes(self) -> int:
        """ceil(k a / 8): the FORS message digest part of H_msg (Algorithm 19 line 7)."""
        return _ceil_div(self.k * self.a, 8)

    @property
    def tree_bytes(self) -> int:
        """ceil((h - h/d) / 8): the tree index part (Algorithm 19 line 8)."""
        return _ceil_div(self.h - self.hp, 8)

    @property
    def leaf_bytes(self) -> int:
        """ceil(h / 8d): the leaf index part (Algorithm 19 line 9)."""
        return _ceil_div(self.hp, 8)

    @property
    def length_seed(self) -> int:
        """SK.seed || SK.prf || PK.seed: 3n bytes (Algorithm 18's inputs)."""
        return 3 * self.n

    @property
    def length_public_key(self) -> int:
        """PK.seed || PK.root (FIPS 205 §9.1)."""
        return 2 * self.n

    @property
    def length_secret_key(self) -> int:
        """SK.seed || SK.prf || PK.seed || PK.root (FIPS 205 §9.1)."""
        return 4 * self.n

    @property
    def length_fors_signature(self) -> int:
        """k (a + 1) n bytes (FIPS 205 §8.3)."""
        return self.k * (self.a + 1) * self.n

    @property
    def length_xmss_signature(self) -> int:
        """(len + h') n bytes (FIPS 205 §6.2)."""
        return (self.len + self.hp) * self.n

    @property
    def length_signature(self) -> int:
        """R || SIG_FORS || SIG_HT: (1 + k (a + 1) + h + d len) n bytes (Table 2)."""
        return self.n + self.length_fors_signature + self.d * self.length_xmss_signature


def _set(family: HashFamily, size: str, n: int, h: int, d: int, a: int, k: int, m: int) -> Params:
    level = {16: 1, 24: 3, 32: 5}[n]
    return Params(f"SLH-DSA-{family}-{size}", family, n, h, d, h // d, a, k, m, level)


def _family(family: HashFamily) -> tuple[Params, ...]:
    return (
        _set(family, "128s", 16, 63, 7, 12, 14, 30),
        _set(family, "128f", 16, 66, 22, 6, 33, 34),
        _set(family, "192s", 24, 63, 7, 14, 17, 39),
        _set(family, "192f", 24, 66, 22, 8, 33, 42),
        _set(family, "256s", 32, 64, 8, 14, 22, 47),
        _set(family, "256f", 32, 68, 17, 9, 35, 49),
    )


PARAMS: dict[str, Params] = {p.name: p for p in (*_family("SHA2"), *_family("SHAKE"))}
"""The twelve parameter sets, in RFC 9909 order (SHA2 128s ... SHAKE 256f)."""

_SIG_OID = "2.16.840.1.101.3.4.3."  # NIST sigAlgs arc, id-slh-dsa-* (RFC 9909 §3)
_MODULE = "pqkit.slhdsa.fips205"

CATALOG: tuple[Algorithm, ...] = tuple(
    Algorithm(p.name, "sig", "SLH-DSA", _MODULE, p, _SIG_OID + str(20 + i))
    for i, p in enumerate(PARAMS.values())
)

"""Parameter sets of XMSS and XMSS^MT (RFC 8391 §5, NIST SP 800-208 §5) and the
family's catalogue entries.

Each set is (hash function, n, padding length, h, d) with w = 16. RFC 8391 §5.3
gives the XMSS OIDs 0x01-0x0c and §5.4 the XMSS^MT OIDs 0x01-0x20; SP 800-208
§5 adds SHA-256/192 (SHA-256 truncated to 24 bytes, 4-byte padding) and SHAKE256
with n = 32 or 24 (XMSS 0x0d-0x15, Table 10; XMSS^MT 0x21-0x38, Table 11). Names
are liboqs's (``XMSS-SHA2_10_256``, ``XMSSMT-SHA2_20/2_256``). As for LMS, no OID
is given to the catalogue: the RFC 9802 key files name XMSS / XMSS^MT, the 4-byte
OID in the key names the set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pqkit.registry import Algorithm

__all__ = ["CATALOG", "PARAMS", "XmssParams"]

Func = Literal["sha256", "sha512", "shake128", "shake256"]


@dataclass(frozen=True)
class XmssParams:
    """One XMSS (d = 1) or XMSS^MT parameter set."""

    name: str
    oid: int
    func: Func
    n: int
    padding: int
    h: int
    d: int = 1
    w: int = 16
    nist_level: int = 5
    stateful: bool = True

    @property
    def mt(self) -> bool:
        return self.name.startswith("XMSSMT")

    @property
    def tree_height(self) -> int:
        return self.h // self.d

    @property
    def len1(self) -> int:
        return 8 * self.n // 4  # RFC 8391 §3.1.1: ceil(8n / lg(w)), w = 16

    @property
    def len2(self) -> int:
        return ((self.len1 * (self.w - 1)).bit_length() - 1) // 4 + 1

    @property
    def len(self) -> int:
        return self.len1 + self.len2

    @property
    def index_bytes(self) -> int:
        """4 for XMSS (RFC 8391 §4.1.8), ceil(h / 8) for XMSS^MT (§4.2.3)."""
        return (self.h + 7) // 8 if self.mt else 4

    @property
    def max_signatures(self) -> int:
        """2^h - 1: the reference implementation keeps the last index back (its
        ``max``), and so does pqkit (files signed by either agree on ``remain``)."""
        return (1 << self.h) - 1

    @property
    def length_public_key(self) -> int:
        """OID || root || SEED (RFC 8391 Appendix B / C)."""
        return 4 + 2 * self.n

    @property
    def length_secret_key(self) -> int:
        """SK_SEED || SK_PRF || root || PUB_SEED (without the index: the counter)."""
        return 4 * self.n

    @property
    def length_seed(self) -> int:
        """SK_SEED || SK_PRF || PUB_SEED, as the reference's seeded key generation."""
        return 3 * self.n

    @property
    def length_signature(self) -> int:
        return self.index_bytes + self.n + self.d * (self.len + self.tree_height) * self.n


# (function, name part, n, padding length), in OID order: RFC 8391 §5.3 / §5.4,
# then SP 800-208 §5 (Tables 10 and 11)
_RFC8391 = (
    ("sha256", "SHA2", 32, 32),
    ("sha512", "SHA2", 64, 64),
    ("shake128", "SHAKE", 32, 32),
    ("shake256", "SHAKE", 64, 64),
)
_SP800_208 = (
    ("sha256", "SHA2", 24, 4),
    ("shake256", "SHAKE256", 32, 32),
    ("shake256", "SHAKE256", 24, 4),
)


def _xmss() -> list[XmssParams]:
    out: list[XmssParams] = []
    for func, family, n, pad in _RFC8391 + _SP800_208:
        for h in (10, 16, 20):
            level = 3 if n == 24 else 5
            name = f"XMSS-{family}_{h}_{8 * n}"
            out.append(XmssParams(name, len(out) + 1, func, n, pad, h, 1, 16, level))  # type: ignore[arg-type]
    return out


def _xmssmt() -> list[XmssParams]:
    """RFC 8391 §5.4 (OIDs 0x01-0x20), then SP 800-208 §5 Table 11 (0x21-0x38:
    SHA2_*_192, SHAKE256_*_256, SHAKE256_*_192)."""
    out = []
    code = 1
    for func, family, n, pad in _RFC8391 + _SP800_208:
        for h, d in ((20, 2), (20, 4), (40, 2), (40, 4), (40, 8), (60, 3), (60, 6), (60, 12)):
            name = f"XMSSMT-{family}_{h}/{d}_{8 * n}"
            level = 3 if n == 24 else 5
            out.append(XmssParams(name, code, func, n, pad, h, d, 16, level))  # type: ignore[arg-type]
            code += 1
    return out


PARAMS: dict[str, XmssParams] = {p.name: p for p in _xmss() + _xmssmt()}
XMSS_BY_OID = {p.oid: p for p in PARAMS.values() if not p.mt}
XMSSMT_BY_OID = {p.oid: p for p in PARAMS.values() if p.mt}

CATALOG = tuple(Algorithm(p.name, "sig", "XMSS", "pqkit.xmss.scheme", p) for p in PARAMS.values())

"""Parameter sets of Classic McEliece (NIST round 4 submission, "Classic McEliece:
conservative code-based cryptography: cryptosystem specification", 2022, §7
"Parameter sets"; the same ten sets as liboqs), and the family's entries in the
algorithm catalogue (:mod:`pqkit.registry`). Light: no NumPy."""

from __future__ import annotations

from dataclasses import dataclass

from pqkit.registry import Algorithm

__all__ = ["CATALOG", "PARAMS", "Params"]


@dataclass(frozen=True)
class Params:
    """One parameter set (spec §2.1 and §7).

    ``m``: the field GF(2^m) = F_2[z]/f(z), ``field_poly`` f(z) as an int with bit
    i the coefficient of z^i; ``n`` the code length, ``t`` the number of errors;
    ``ext_poly`` the low terms of F(y) = y^t + sum c_i y^i over GF(2^m) as
    ``(i, c_i)`` pairs; ``semi``: the ``f`` variant (semi-systematic form, mu = 32,
    nu = 64, spec §2.2.1).
    """

    m: int
    n: int
    t: int
    field_poly: int
    ext_poly: tuple[tuple[int, int], ...]
    semi: bool
    nist_level: int

    @property
    def q(self) -> int:
        """Field size 2^m."""
        return 1 << self.m

    @property
    def mt(self) -> int:
        """Rows of the parity-check matrix (the codimension m t)."""
        return self.m * self.t

    @property
    def k(self) -> int:
        """Code dimension n - m t."""
        return self.n - self.mt

    @property
    def row_bytes(self) -> int:
        """Bytes of one row of T in the public key: ceil(k / 8) (spec §2.5.2)."""
        return (self.k + 7) // 8

    @property
    def cond_bytes(self) -> int:
        """Bytes of the Benes network's control bits: (2m - 1) 2^(m-1) / 8."""
        return (2 * self.m - 1) * (1 << (self.m - 4))

    @property
    def length_public_key(self) -> int:
        """The public key T: m t rows of ceil(k / 8) bytes."""
        return self.mt * self.row_bytes

    @property
    def length_secret_key(self) -> int:
        """delta (32) || c (8) || g (2 t) || alpha's control bits || s (n / 8)."""
        return 40 + 2 * self.t + self.cond_bytes + self.n // 8

    @property
    def length_ciphertext(self) -> int:
        """The syndrome C: ceil(m t / 8) bytes (round 4: no confirmation hash)."""
        return (self.mt + 7) // 8

    @property
    def length_shared_secret(self) -> int:
        """Session key bytes: 32."""
        return 32

    @property
    def length_seed(self) -> int:
        """The key-generation seed delta: 32 bytes (spec §2.4, SeededKeyGen)."""
        return 32

    @property
    def weight_bytes(self) -> int:
        """Bytes one FixedWeight attempt draws: sigma_1 tau / 8 with tau = t when
        n = q, else 2 t (spec §2.4.4; the reference's ``randombytes`` call)."""
        return 2 * self.t if self.n == self.q else 4 * self.t


_F12 = 0x1009  # z^12 + z^3 + 1
_F13 = 0x201B  # z^13 + z^4 + z^3 + z + 1
_Y64 = ((3, 1), (1, 1), (0, 2))  # y^64 + y^3 + y + z
_Y96 = ((10, 1), (9, 1), (6, 1), (0, 1))  # y^96 + y^10 + y^9 + y^6 + 1
_Y119 = ((8, 1), (0, 1))  # y^119 + y^8 + 1
_Y128 = ((7, 1), (2, 1), (1, 1), (0, 1))  # y^128 + y^7 + y^2 + y + 1

_BASE = {
    "348864": (12, 3488, 64, _F12, _Y64, 1),
    "460896": (13, 4608, 96, _F13, _Y96, 3),
    "6688128": (13, 6688, 128, _F13, _Y128, 5),
    "6960119": (13, 6960, 119, _F13, _Y119, 5),
    "8192128": (13, 8192, 128, _F13, _Y128, 5),
}

PARAMS: dict[str, Params] = {
    f"Classic-McEliece-{size}{suffix}": Params(m, n, t, f, ext, suffix == "f", level)
    for size, (m, n, t, f, ext, level) in _BASE.items()
    for suffix in ("", "f")
}
"""liboqs's names -> parameter sets."""

CATALOG: tuple[Algorithm, ...] = tuple(
    Algorithm(name, "kem", "Classic McEliece", "pqkit.mceliece.scheme", params)
    for name, params in PARAMS.items()
)
"""Classic McEliece has no OID: keys are raw bytes (PEM labels of their own)."""

"""TLS 1.3 hybrid key shares (draft-ietf-tls-ecdhe-mlkem).

Three NamedGroups concatenate an ECDHE share and an ML-KEM share:

============================  ======  =========================  ============================
group                         code    client share               shared secret
============================  ======  =========================  ============================
``X25519MLKEM768``            0x11EC  ek (1184) || X25519 (32)   ML-KEM ss || X25519 ss
``SecP256r1MLKEM768``         0x11EB  P-256 point (65) || ek     ECDH ss || ML-KEM ss
``SecP384r1MLKEM1024``        0x11ED  P-384 point (97) || ek     ECDH ss || ML-KEM ss
============================  ======  =========================  ============================

The server share is the ML-KEM ciphertext and the server's ECDH public value in the
same order. The secret is the plain concatenation (no hashing: TLS feeds it to its
key schedule). Checks, as the draft requires: the ML-KEM encapsulation key check
(FIPS 203 modulus check) by the server, point validation of both ECDH shares,
and an all-zero X25519 output is an error (RFC 8446 §7.4.2).

Usage (the ``*_derand`` variants take the randomness explicitly, for tests)::

    state, client_share = X25519MLKEM768.client_share()
    server_share, secret = X25519MLKEM768.server_share(client_share)
    assert X25519MLKEM768.client_finish(state, server_share) == secret
"""

from __future__ import annotations

from dataclasses import dataclass

from pqkit._checks import as_bytes_len
from pqkit._secret import Uncopyable
from pqkit.hybrid.groups import GROUPS, Group
from pqkit.schemes import RNG, Kem, draw

__all__ = [
    "GROUPS_BY_CODEPOINT",
    "X25519MLKEM768",
    "ClientState",
    "HybridGroup",
    "SecP256r1MLKEM768",
    "SecP384r1MLKEM1024",
]


class ClientState(Uncopyable):
    """What the client keeps between its share and the server's: the ML-KEM seed
    d || z (64 bytes) and the ECDH private scalar, read-only. Like the private keys
    it refuses copy and pickle (``TypeError``) and its ``repr`` shows no secret
    bytes: a copy would let two handshakes finish with one ephemeral key."""

    __slots__ = ("_ecdh_private", "_group", "_mlkem_seed")

    _uncopyable_hint = "finish the handshake with this state, or start a new one"

    def __init__(self, group: str, mlkem_seed: bytes, ecdh_private: bytes) -> None:
        self._group = group
        self._mlkem_seed = mlkem_seed
        self._ecdh_private = ecdh_private

    @property
    def group(self) -> str:
        """The name of the hybrid group this state belongs to."""
        return self._group

    @property
    def mlkem_seed(self) -> bytes:
        """The ML-KEM seed d || z (64 bytes)."""
        return self._mlkem_seed

    @property
    def ecdh_private(self) -> bytes:
        """The ECDH private key (X25519: 32 bytes; NIST curves: the big-endian scalar)."""
        return self._ecdh_private

    def __repr__(self) -> str:
        return f"<ClientState {self._group} (secret)>"


@dataclass(frozen=True)
class HybridGroup:
    """One hybrid NamedGroup of draft-ietf-tls-ecdhe-mlkem."""

    name: str
    codepoint: int
    mlkem: str
    ecdh: str
    ecdh_first: bool
    """True where the ECDH part comes first in shares and secret (the NIST curves)."""

    @property
    def _kem(self) -> Kem:
        from pqkit.registry import kem

        return kem(self.mlkem)

    @property
    def _group(self) -> Group:
        return GROUPS[self.ecdh]

    @property
    def length_client_share(self) -> int:
        return self._kem.length_public_key + self._group.length_element

    @property
    def length_server_share(self) -> int:
        return self._kem.length_ciphertext + self._group.length_element

    @property
    def length_shared_secret(self) -> int:
        return self._kem.length_shared_secret + self._group.length_shared

    def _join(self, pq: bytes, ecdh: bytes) -> bytes:
        return ecdh + pq if self.ecdh_first else pq + ecdh

    def _split(self, data: bytes, n_ecdh: int) -> tuple[bytes, bytes]:
        """(pq part, ecdh part)."""
        if self.ecdh_first:
            return data[n_ecdh:], data[:n_ecdh]
        return data[: len(data) - n_ecdh], data[len(data) - n_ecdh :]

    def _ecdh_private(self, secret: bytes, what: str) -> bytes:
        g = self._group
        secret = as_bytes_len(secret, what, g.length_scalar)
        return g.scalar(g.check_seed(secret, what))

    def _random_ecdh_private(self, rng: RNG | None) -> bytes:
        g = self._group
        # RandomScalar over four candidates (X25519 takes the first 32 bytes as is).
        candidates = draw(rng, 4 * g.length_scalar)
        if g.name == "X25519":
            return candidates[:32]
        return g.scalar(candidates)

    # --- client ------------------------------------------------------------------------

    def client_share_derand(
        self, mlkem_seed: bytes, ecdh_private: bytes
    ) -> tuple[ClientState, bytes]:
        """The client's state and key share from a 64-byte ML-KEM seed d || z and an
        ECDH private key (X25519: 32 bytes; NIST curves: a big-endian scalar in
        [1, order), ``ValueError`` otherwise)."""
        seed = as_bytes_len(mlkem_seed, "mlkem_seed (d || z)", 64)
        scalar = self._ecdh_private(ecdh_private, "ecdh_private")
        ek, _dk = self._kem.keygen_derand(seed)
        share = self._join(ek, self._group.public(scalar))
        return ClientState(self.name, seed, scalar), share

    def client_share(self, *, rng: RNG | None = None) -> tuple[ClientState, bytes]:
        """A fresh client state and key share."""
        seed = draw(rng, 64)
        return self.client_share_derand(seed, self._random_ecdh_private(rng))

    def client_finish(self, state: ClientState, server_share: bytes) -> bytes:
        """The shared secret from the client's state and the server's share. A
        modified ML-KEM ciphertext gives a wrong secret (implicit rejection); an
        invalid ECDH share raises ``ValueError``."""
        if not isinstance(state, ClientState):
            raise TypeError(f"state must be a ClientState, not {type(state).__name__}")
        if state.group != self.name:
            raise ValueError(f"state belongs to {state.group}, not {self.name}")
        share = as_bytes_len(server_share, "server share", self.length_server_share)
        g = self._group
        ct, ecdh = self._split(share, g.length_element)
        point = g.check_element(ecdh, "server share")
        _ek, dk = self._kem.keygen_derand(state.mlkem_seed)
        ss_pq = self._kem.decaps(dk, ct)
        return self._join(ss_pq, g.dh(state.ecdh_private, point, "server share"))

    # --- server ------------------------------------------------------------------------

    def server_share_derand(
        self, client_share: bytes, m: bytes, ecdh_private: bytes
    ) -> tuple[bytes, bytes]:
        """(server share, shared secret) for ``client_share`` with ML-KEM randomness
        ``m`` (32 bytes) and the server's ECDH private key."""
        share = as_bytes_len(client_share, "client share", self.length_client_share)
        m = as_bytes_len(m, "m", 32)
        scalar = self._ecdh_private(ecdh_private, "ecdh_private")
        return self._serve(share, m, scalar)

    def server_share(self, client_share: bytes, *, rng: RNG | None = None) -> tuple[bytes, bytes]:
        """(server share, shared secret) for ``client_share``."""
        share = as_bytes_len(client_share, "client share", self.length_client_share)
        return self._serve(share, draw(rng, 32), self._random_ecdh_private(rng))

    def _serve(self, share: bytes, m: bytes, scalar: bytes) -> tuple[bytes, bytes]:
        g = self._group
        ek, ecdh = self._split(share, g.length_element)
        point = g.check_element(ecdh, "client share")
        ss_pq, ct = self._kem.encaps_derand(ek, m)
        ss_t = g.dh(scalar, point, "client share")
        return self._join(ct, g.public(scalar)), self._join(ss_pq, ss_t)


X25519MLKEM768 = HybridGroup("X25519MLKEM768", 0x11EC, "ML-KEM-768", "X25519", False)
SecP256r1MLKEM768 = HybridGroup("SecP256r1MLKEM768", 0x11EB, "ML-KEM-768", "P-256", True)
SecP384r1MLKEM1024 = HybridGroup("SecP384r1MLKEM1024", 0x11ED, "ML-KEM-1024", "P-384", True)

GROUPS_BY_CODEPOINT: dict[int, HybridGroup] = {
    g.codepoint: g for g in (X25519MLKEM768, SecP256r1MLKEM768, SecP384r1MLKEM1024)
}
"""The hybrid NamedGroups by TLS codepoint."""

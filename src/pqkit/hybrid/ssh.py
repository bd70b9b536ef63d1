"""SSH hybrid key exchanges: a post-quantum KEM and X25519, hashed together.

==========================================  ==========  =====================================
method                                      hash        messages (SSH strings Q_C, Q_S)
==========================================  ==========  =====================================
``sntrup761x25519-sha512`` (RFC 9941;      SHA-512     Q_C = sntrup761 pk (1158) || X25519
``sntrup761x25519-sha512@openssh.com``)                 Q_S = ciphertext (1039) || X25519
``mlkem768x25519-sha256``                   SHA-256     Q_C = ML-KEM-768 ek (1184) || X25519
(draft-ietf-sshm-mlkem-hybrid-kex)                      Q_S = ciphertext (1088) || X25519
==========================================  ==========  =====================================

The client sends Q_C in SSH_MSG_KEX_ECDH_INIT (the hybrid draft's
SSH_MSG_KEX_HYBRID_INIT, number 30), the server Q_S in the reply (31). Both compute
K = HASH(K_PQ || K_CL), the KEM's 32-byte shared secret then the raw 32-byte X25519
output (an all-zero one is an error, as in RFC 8731 §3.1). K enters the exchange
hash and the key derivation (RFC 4253 §7.2) as an SSH **string** (uint32 length ||
K), not as an mpint (RFC 9941 §2.3; draft-ietf-sshm-mlkem-hybrid-kex §2.4):
:meth:`SshHybridKex.encode_secret`. :meth:`SshHybridKex.exchange_hash` computes
H = HASH(V_C || V_S || I_C || I_S || K_S || Q_C || Q_S || K), every field a string.

Usage (the ``*_derand`` variants take the randomness explicitly, for tests)::

    state, q_c = SNTRUP761X25519_SHA512.client_init()
    q_s, k = SNTRUP761X25519_SHA512.server_reply(q_c)
    assert SNTRUP761X25519_SHA512.client_finish(state, q_s) == k
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass

from pqkit._checks import as_bytes, as_bytes_len
from pqkit._secret import Uncopyable
from pqkit.hybrid.groups import GROUPS
from pqkit.schemes import RNG, Kem, draw

__all__ = [
    "METHODS",
    "MLKEM768X25519_SHA256",
    "SNTRUP761X25519_SHA512",
    "SshClientState",
    "SshHybridKex",
    "ssh_string",
]


def ssh_string(data: bytes) -> bytes:
    """The SSH wire encoding of a string (RFC 4251 §5): uint32 length || data."""
    return struct.pack(">I", len(data)) + data


class SshClientState(Uncopyable):
    """What the client keeps between its init message and the reply: the KEM
    secret key and the X25519 private key. Refuses copy and pickle; its ``repr``
    shows no secret."""

    __slots__ = ("_kem_secret", "_method", "_x25519_private")

    _uncopyable_hint = "finish the key exchange with this state, or start a new one"

    def __init__(self, method: str, kem_secret: bytes, x25519_private: bytes) -> None:
        self._method = method
        self._kem_secret = kem_secret
        self._x25519_private = x25519_private

    @property
    def method(self) -> str:
        return self._method

    @property
    def kem_secret_key(self) -> bytes:
        return self._kem_secret

    @property
    def x25519_private(self) -> bytes:
        return self._x25519_private

    def __repr__(self) -> str:
        return f"<SshClientState {self._method} (secret)>"


@dataclass(frozen=True)
class SshHybridKex:
    """One SSH hybrid key-exchange method."""

    name: str
    kem: str
    """The pqkit name of the KEM half."""
    hash_name: str
    """``"sha512"`` or ``"sha256"``: the method's HASH."""
    aliases: tuple[str, ...] = ()

    @property
    def _kem(self) -> Kem:
        from pqkit.registry import kem

        return kem(self.kem)

    @property
    def length_client_init(self) -> int:
        return self._kem.length_public_key + 32

    @property
    def length_server_reply(self) -> int:
        return self._kem.length_ciphertext + 32

    def hash(self, data: bytes) -> bytes:
        """HASH(data): the method's hash (also that of the exchange hash and the key
        derivation)."""
        return hashlib.new(self.hash_name, data).digest()

    def encode_secret(self, k: bytes) -> bytes:
        """K as it enters the exchange hash and the key derivation: an SSH string."""
        return ssh_string(as_bytes(k, "K"))

    def exchange_hash(
        self,
        v_c: bytes,
        v_s: bytes,
        i_c: bytes,
        i_s: bytes,
        k_s: bytes,
        q_c: bytes,
        q_s: bytes,
        k: bytes,
    ) -> bytes:
        """H = HASH(string V_C || string V_S || string I_C || string I_S || string K_S
        || string Q_C || string Q_S || string K) (RFC 5656 §4 with K a string):
        version lines without CR LF, the KEXINIT payloads, the host key blob."""
        parts = (v_c, v_s, i_c, i_s, k_s, q_c, q_s)
        names = ("V_C", "V_S", "I_C", "I_S", "K_S", "Q_C", "Q_S")
        body = b"".join(ssh_string(as_bytes(p, n)) for p, n in zip(parts, names, strict=True))
        return self.hash(body + self.encode_secret(k))

    def _combine(self, k_pq: bytes, k_cl: bytes) -> bytes:
        return self.hash(k_pq + k_cl)

    # --- client ------------------------------------------------------------------------

    def client_init_derand(
        self, kem_seed: bytes, x25519_private: bytes
    ) -> tuple[SshClientState, bytes]:
        """(state, Q_C) from the KEM's key-generation seed (``length_seed`` bytes of
        the KEM: sntrup761 48, ML-KEM-768 64 = d || z) and a 32-byte X25519 key."""
        kem = self._kem
        seed = as_bytes_len(kem_seed, "kem_seed", kem.length_seed)
        x = as_bytes_len(x25519_private, "x25519_private", 32)
        pk, sk = kem.keygen_derand(seed)
        return SshClientState(self.name, sk, x), pk + GROUPS["X25519"].public(x)

    def client_init(self, *, rng: RNG | None = None) -> tuple[SshClientState, bytes]:
        """A fresh client state and Q_C (the KEM's own key generation, then 32 bytes
        for X25519, from ``rng``)."""
        pk, sk = self._kem.keygen(rng=rng)
        x = draw(rng, 32)
        return SshClientState(self.name, sk, x), pk + GROUPS["X25519"].public(x)

    def client_finish(self, state: SshClientState, q_s: bytes) -> bytes:
        """K from the client's state and the server's Q_S. A modified ciphertext
        gives a wrong K (implicit rejection); an all-zero X25519 output raises
        ``ValueError``."""
        if not isinstance(state, SshClientState):
            raise TypeError(f"state must be an SshClientState, not {type(state).__name__}")
        if state.method != self.name:
            raise ValueError(f"state belongs to {state.method}, not {self.name}")
        reply = as_bytes_len(q_s, "Q_S (server reply)", self.length_server_reply)
        g = GROUPS["X25519"]
        k_pq = self._kem.decaps(state.kem_secret_key, reply[:-32])
        k_cl = g.dh(state.x25519_private, g.check_element(reply[-32:], "Q_S"), "Q_S")
        return self._combine(k_pq, k_cl)

    # --- server ------------------------------------------------------------------------

    def server_reply_derand(
        self, q_c: bytes, m: bytes, x25519_private: bytes
    ) -> tuple[bytes, bytes]:
        """(Q_S, K) for the client's Q_C with the KEM's encapsulation randomness
        ``m`` (sntrup761: 3044 bytes; ML-KEM-768: 32) and a 32-byte X25519 key."""
        init = as_bytes_len(q_c, "Q_C (client init)", self.length_client_init)
        kem = self._kem
        m = as_bytes_len(m, "m", int(getattr(kem, "length_randomness", 32)))
        x = as_bytes_len(x25519_private, "x25519_private", 32)
        g = GROUPS["X25519"]
        point = g.check_element(init[-32:], "Q_C")
        k_pq, ct = kem.encaps_derand(init[:-32], m)
        k_cl = g.dh(x, point, "Q_C")
        return ct + g.public(x), self._combine(k_pq, k_cl)

    def server_reply(self, q_c: bytes, *, rng: RNG | None = None) -> tuple[bytes, bytes]:
        """(Q_S, K) for the client's Q_C, with fresh randomness."""
        init = as_bytes_len(q_c, "Q_C (client init)", self.length_client_init)
        m = draw(rng, int(getattr(self._kem, "length_randomness", 32)))
        return self.server_reply_derand(init, m, draw(rng, 32))


SNTRUP761X25519_SHA512 = SshHybridKex(
    "sntrup761x25519-sha512", "sntrup761", "sha512", ("sntrup761x25519-sha512@openssh.com",)
)
MLKEM768X25519_SHA256 = SshHybridKex("mlkem768x25519-sha256", "ML-KEM-768", "sha256")

METHODS: dict[str, SshHybridKex] = {
    name: method
    for method in (SNTRUP761X25519_SHA512, MLKEM768X25519_SHA256)
    for name in (method.name, *method.aliases)
}
"""The methods by SSH name (``@openssh.com`` aliases included)."""

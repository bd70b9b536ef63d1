"""What composite ML-DSA and composite ML-KEM share: a key is an ML-x key next to a
traditional one, serialized by concatenation (draft-ietf-lamps-pq-composite-sigs-19
§4.1 / §4.2, draft-ietf-lamps-pq-composite-kem-17 §4.1 / §4.2), and key generation
takes a fresh ML-x seed and a traditional key (§3.1 of both)."""

from __future__ import annotations

from typing import Any, NoReturn

from pqkit._checks import as_bytes
from pqkit.composite.params import KeyParts
from pqkit.composite.traditional import TradKey, pyca
from pqkit.schemes import RNG, Kem, KeyPair, Signature, draw

__all__ = ["Halves"]


class _NoBatch:
    """What ``scheme.batch`` is for a composite: every operation refuses."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str) -> NoReturn:
        raise TypeError(
            f"{self._name} has no batch view (composite keys vary in length and their "
            "traditional half is pyca's); loop over the single operations"
        )


class Halves:
    """The split and the key generation of a composite scheme object; the scheme says
    which ML-x (:attr:`mlx`, whose name and sizes are the first half's) and how a
    seed expands (:meth:`expand`)."""

    name: str
    key: TradKey

    @property
    def mlx(self) -> Kem | Signature:
        """The ML-x half's scheme object (``pqkit.sig("ML-DSA-65")``,
        ``pqkit.kem("ML-KEM-768")``), bound as the composite is."""
        raise NotImplementedError

    def expand(self, seed: bytes, trad: Any) -> KeyParts:
        """The ML-x key pair of ``seed`` next to the parsed traditional key ``trad``."""
        raise NotImplementedError

    @property
    def batch(self) -> Any:
        """No batch view: a composite's keys vary in length and its traditional key is
        pyca's, so the batch views (fixed-width rows drawn from one rng) do not apply;
        any use of this object raises ``TypeError`` saying so."""
        return _NoBatch(self.name)

    def split_public_key(self, public_key: bytes) -> tuple[bytes, bytes, Any]:
        """DeserializePublicKey (§4.1): (ML-x public key, traditional public key bytes,
        its checked pyca key); ``ValueError`` naming the half that is wrong."""
        pk = as_bytes(public_key, "public key")
        pyca()  # MissingExtra first: without pyca nothing is checked (nor "invalid")
        n = self.mlx.length_public_key
        if len(pk) <= n:
            raise ValueError(
                f"{self.name} public key: {len(pk)} bytes leave no traditional key after "
                f"the {n}-byte {self.mlx.name} public key"
            )
        return pk[:n], pk[n:], self.key.public(pk[n:], f"{self.name} traditional public key")

    def _no_traditional(self, length: int) -> ValueError:
        return ValueError(
            f"{self.name} secret key: {length} bytes leave no traditional key after the "
            f"{self.mlx.length_seed}-byte {self.mlx.name} seed"
        )

    def split_secret_key(self, secret_key: bytes) -> tuple[bytes, Any]:
        """DeserializePrivateKey (§4.2): (ML-x seed, checked pyca traditional key)."""
        sk = as_bytes(secret_key, "secret key")
        pyca()
        n = self.mlx.length_seed
        if len(sk) <= n:
            raise self._no_traditional(len(sk))
        return sk[:n], self.key.private(sk[n:], f"{self.name} traditional private key")

    def keygen(self, *, rng: RNG | None = None) -> KeyPair:
        """A fresh key pair (§3.1): the ML-x seed from ``rng`` (os.urandom), the
        traditional key from pyca's generator."""
        return self.keygen_derand(draw(rng, self.mlx.length_seed), self.key.generate())

    def keygen_derand(self, seed: bytes, traditional: bytes | None = None) -> KeyPair:
        """The key pair of the ML-x seed (ML-DSA xi, 32 bytes, FIPS 204 Algorithm 6;
        ML-KEM d || z, 64 bytes, FIPS 203 Algorithm 16) and the traditional private
        key in its draft encoding (RSAPrivateKey / ECPrivateKey DER, raw EdDSA, X25519
        and X448), which the drafts derive from no seed."""
        if traditional is None:
            raise TypeError(
                f"{self.name}.keygen_derand needs the traditional private key too: "
                "keygen_derand(seed, traditional_private_key)"
            )
        trad = as_bytes(traditional, "traditional private key")
        if not trad:
            raise self._no_traditional(len(seed))
        parts = self.expand(seed, self.key.private(trad, f"{self.name} traditional private key"))
        return KeyPair(parts.public_key, bytes(seed) + trad)

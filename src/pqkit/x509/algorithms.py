"""Which signature AlgorithmIdentifier signs how: the one owner of that question
for X.509 (:mod:`pqkit.x509`) and CMS.

pqkit keys sign under their own OID with absent parameters: ML-DSA (RFC 9881 §2,
pure ML-DSA with the empty context), HashML-DSA (RFC 9881 §2, FIPS 204
Algorithm 4 with SHA-512), SLH-DSA and HashSLH-DSA (RFC 9909 §3), the composite
ML-DSA OIDs (draft-ietf-lamps-pq-composite-sigs §7); the OIDs come from
:mod:`pqkit.keys` (each key class's ``algorithm``), not from a table here.
Classical keys go through pyca/cryptography (the ``openssl`` extra), with pyca's
OIDs: ECDSA with SHA-256 / 384 / 512 (RFC 5758 §3.2; the hash follows the curve
unless given), RSA PKCS#1 v1.5 with SHA-256 / 384 / 512 (RFC 4055 §5, NULL
parameters), RSASSA-PSS (RFC 4055 §3.1, MGF1 with the same hash, salt = hash
length), Ed25519 and Ed448 (RFC 8410 §6).
"""

from __future__ import annotations

from typing import Any

from pqkit.errors import InvalidSignature
from pqkit.keys import PrivateKey, PublicKey
from pqkit.x509._asn1 import decode, encode, pyasn1_modules

__all__ = ["algorithm_name", "sign", "signature_algorithm_identifier", "verify"]

_HASH_NAMES = ("sha256", "sha384", "sha512")


def _identifier(oid: str, parameters_der: bytes | None = None) -> bytes:
    rfc5280 = pyasn1_modules().rfc5280
    from pyasn1.type import univ

    ai = rfc5280.AlgorithmIdentifier()
    ai["algorithm"] = univ.ObjectIdentifier(oid)
    if parameters_der is not None:
        ai["parameters"] = parameters_der
    return encode(ai, "AlgorithmIdentifier")


def _parse(algorithm_identifier: bytes) -> tuple[str, bytes | None]:
    """(dotted OID, parameters DER or None) of a DER AlgorithmIdentifier."""
    from pqkit._checks import as_bytes

    raw = as_bytes(algorithm_identifier, "algorithm_identifier")
    rfc5280 = pyasn1_modules().rfc5280
    ai = decode(raw, rfc5280.AlgorithmIdentifier(), "signature AlgorithmIdentifier")
    params = ai["parameters"]
    return str(ai["algorithm"]), (bytes(params) if params.isValue else None)


def _pyca() -> Any:
    from pqkit._extras import require

    return require("openssl", "classical signatures in certificates", "cryptography.hazmat")


def _hash(name: str) -> Any:
    from cryptography.hazmat.primitives import hashes

    return {"sha256": hashes.SHA256(), "sha384": hashes.SHA384(), "sha512": hashes.SHA512()}[name]


def _classical_oids() -> dict[str, tuple[str, str | None]]:
    """pyca's signature OIDs -> (kind, hash name)."""
    from cryptography.x509.oid import SignatureAlgorithmOID as S

    return {
        S.ECDSA_WITH_SHA256.dotted_string: ("ecdsa", "sha256"),
        S.ECDSA_WITH_SHA384.dotted_string: ("ecdsa", "sha384"),
        S.ECDSA_WITH_SHA512.dotted_string: ("ecdsa", "sha512"),
        S.RSA_WITH_SHA256.dotted_string: ("rsa", "sha256"),
        S.RSA_WITH_SHA384.dotted_string: ("rsa", "sha384"),
        S.RSA_WITH_SHA512.dotted_string: ("rsa", "sha512"),
        S.RSASSA_PSS.dotted_string: ("pss", None),
        S.ED25519.dotted_string: ("ed25519", None),
        S.ED448.dotted_string: ("ed448", None),
    }


def _pss_parameters(hash_name: str) -> bytes:
    """RSASSA-PSS-params (RFC 4055 §3.1): the hash, MGF1 with it, salt = its length."""
    rfc4055 = pyasn1_modules().rfc4055
    rfc5280 = pyasn1_modules().rfc5280

    oids = {"sha256": rfc4055.id_sha256, "sha384": rfc4055.id_sha384, "sha512": rfc4055.id_sha512}
    hash_ai = rfc5280.AlgorithmIdentifier()
    hash_ai["algorithm"] = oids[hash_name]
    params = rfc4055.RSASSA_PSS_params()
    params["hashAlgorithm"]["algorithm"] = oids[hash_name]
    params["maskGenAlgorithm"]["algorithm"] = rfc4055.id_mgf1
    params["maskGenAlgorithm"]["parameters"] = encode(hash_ai)
    params["saltLength"] = _hash(hash_name).digest_size
    return encode(params, "RSASSA-PSS-params")


def _read_pss(parameters: bytes | None) -> tuple[str, int]:
    """(hash name, salt length) of RSASSA-PSS-params; only MGF1 with the same hash."""
    if parameters is None:
        raise ValueError("RSASSA-PSS AlgorithmIdentifier without parameters")
    rfc4055 = pyasn1_modules().rfc4055
    params = decode(parameters, rfc4055.RSASSA_PSS_params(), "RSASSA-PSS-params")
    names = {
        str(rfc4055.id_sha256): "sha256",
        str(rfc4055.id_sha384): "sha384",
        str(rfc4055.id_sha512): "sha512",
    }
    hash_oid = str(params["hashAlgorithm"]["algorithm"])
    if hash_oid not in names:
        raise ValueError(f"RSASSA-PSS with hash {hash_oid} (supported: SHA-256/384/512)")
    if str(params["maskGenAlgorithm"]["algorithm"]) != str(rfc4055.id_mgf1):
        raise ValueError("RSASSA-PSS with a mask generation function other than MGF1")
    rfc5280 = pyasn1_modules().rfc5280
    mgf_hash = decode(
        bytes(params["maskGenAlgorithm"]["parameters"]), rfc5280.AlgorithmIdentifier(), "MGF1 hash"
    )
    if str(mgf_hash["algorithm"]) != hash_oid:
        raise ValueError("RSASSA-PSS with MGF1 over a different hash (not supported)")
    return names[hash_oid], int(params["saltLength"])


def _classical_identifier(private_key: Any, hash_name: str | None, pss: bool) -> tuple[bytes, str]:
    _pyca()
    from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, rsa
    from cryptography.x509.oid import SignatureAlgorithmOID as S

    if isinstance(private_key, ed25519.Ed25519PrivateKey):
        return _identifier(S.ED25519.dotted_string), ""
    if isinstance(private_key, ed448.Ed448PrivateKey):
        return _identifier(S.ED448.dotted_string), ""
    if isinstance(private_key, ec.EllipticCurvePrivateKey):
        size = private_key.curve.key_size
        name = hash_name or ("sha256" if size <= 256 else "sha384" if size <= 384 else "sha512")
        oid = {
            "sha256": S.ECDSA_WITH_SHA256,
            "sha384": S.ECDSA_WITH_SHA384,
            "sha512": S.ECDSA_WITH_SHA512,
        }[name]
        return _identifier(oid.dotted_string), name
    if isinstance(private_key, rsa.RSAPrivateKey):
        name = hash_name or "sha256"
        if pss:
            return _identifier(S.RSASSA_PSS.dotted_string, _pss_parameters(name)), name
        oid = {
            "sha256": S.RSA_WITH_SHA256,
            "sha384": S.RSA_WITH_SHA384,
            "sha512": S.RSA_WITH_SHA512,
        }[name]
        return _identifier(oid.dotted_string, b"\x05\x00"), name
    raise TypeError(
        "private_key must be a pqkit signature key or a pyca ECDSA, RSA, Ed25519 or Ed448 "
        f"private key, not {type(private_key).__module__}.{type(private_key).__name__}"
    )


def _check_hash(hash_algorithm: str | None) -> str | None:
    if hash_algorithm is None:
        return None
    if not isinstance(hash_algorithm, str):
        name = getattr(hash_algorithm, "name", None)  # a pyca hash object
        if not isinstance(name, str):
            raise TypeError("hash_algorithm must be 'sha256', 'sha384', 'sha512' or None")
        hash_algorithm = name
    if hash_algorithm.lower() not in _HASH_NAMES:
        raise ValueError(
            f"hash_algorithm must be one of {', '.join(_HASH_NAMES)}, not {hash_algorithm!r}"
        )
    return hash_algorithm.lower()


def _pqkit_signer(private_key: Any) -> bool:
    if isinstance(private_key, PrivateKey):
        if private_key.algorithm.is_kem:
            raise TypeError(
                f"a {private_key.algorithm.name} key is a KEM key: it cannot sign "
                "(RFC 9935 §6: a KEM certificate is issued by a signature key)"
            )
        return True
    return False


def signature_algorithm_identifier(
    private_key: Any, *, hash_algorithm: Any = None, rsa_padding: str = "pkcs1v15"
) -> bytes:
    """The DER AlgorithmIdentifier that :func:`sign` with these arguments writes.

    ``hash_algorithm`` ('sha256', 'sha384', 'sha512' or a pyca hash) and
    ``rsa_padding`` ('pkcs1v15' or 'pss') apply to classical keys only."""
    if _pqkit_signer(private_key):
        if hash_algorithm is not None:
            raise ValueError("hash_algorithm is for classical keys (a pqkit key's OID fixes it)")
        return _identifier(private_key.algorithm.oid)
    if rsa_padding not in ("pkcs1v15", "pss"):
        raise ValueError(f"rsa_padding must be 'pkcs1v15' or 'pss', not {rsa_padding!r}")
    return _classical_identifier(private_key, _check_hash(hash_algorithm), rsa_padding == "pss")[0]


def sign(
    private_key: Any, data: bytes, *, hash_algorithm: Any = None, rsa_padding: str = "pkcs1v15"
) -> tuple[bytes, bytes]:
    """(DER AlgorithmIdentifier, signature) of ``data`` signed with ``private_key``."""
    from pqkit._checks import as_bytes

    message = as_bytes(data, "data")
    if _pqkit_signer(private_key):
        if hash_algorithm is not None:
            raise ValueError("hash_algorithm is for classical keys (a pqkit key's OID fixes it)")
        signature: bytes = private_key.sign(message)
        return _identifier(private_key.algorithm.oid), signature
    if rsa_padding not in ("pkcs1v15", "pss"):
        raise ValueError(f"rsa_padding must be 'pkcs1v15' or 'pss', not {rsa_padding!r}")
    identifier, name = _classical_identifier(
        private_key, _check_hash(hash_algorithm), rsa_padding == "pss"
    )
    from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa

    if isinstance(private_key, ec.EllipticCurvePrivateKey):
        return identifier, private_key.sign(message, ec.ECDSA(_hash(name)))
    if isinstance(private_key, rsa.RSAPrivateKey):
        if rsa_padding == "pss":
            pad: Any = padding.PSS(
                mgf=padding.MGF1(_hash(name)), salt_length=_hash(name).digest_size
            )
        else:
            pad = padding.PKCS1v15()
        return identifier, private_key.sign(message, pad, _hash(name))
    return identifier, private_key.sign(message)


def algorithm_name(algorithm_identifier: bytes) -> str:
    """A readable name for a signature AlgorithmIdentifier ("ML-DSA-65",
    "ecdsa-with-SHA256", or the dotted OID when unknown)."""
    from pqkit.serialization.algorithms import by_oid

    oid, _ = _parse(algorithm_identifier)
    alg = by_oid(oid)
    if alg is not None:
        return alg.name
    try:
        from cryptography.x509 import ObjectIdentifier
        from cryptography.x509.oid import _OID_NAMES  # type: ignore[attr-defined]

        return str(_OID_NAMES.get(ObjectIdentifier(oid), oid))
    except ImportError:
        return oid


def verify(public_key: Any, algorithm_identifier: bytes, data: bytes, signature: bytes) -> None:
    """Check ``signature`` over ``data`` under ``algorithm_identifier`` (DER) with
    ``public_key`` (a pqkit public key or a pyca one).

    :class:`pqkit.InvalidSignature` when the signature does not verify;
    ``ValueError`` when the identifier does not fit the key (another algorithm, or
    parameters where the RFC says absent); ``TypeError`` for a key that cannot
    verify (a KEM key)."""
    from pqkit._checks import as_bytes

    message = as_bytes(data, "data")
    sig = as_bytes(signature, "signature")
    oid, parameters = _parse(algorithm_identifier)
    if isinstance(public_key, PublicKey):
        alg = public_key.algorithm
        if alg.is_kem:
            raise TypeError(f"a {alg.name} key is a KEM key: it cannot verify a signature")
        if oid != alg.oid:
            raise ValueError(
                f"signature algorithm {oid} does not match the key's {alg.name} ({alg.oid})"
            )
        if parameters is not None:
            raise ValueError(
                f"{alg.name} AlgorithmIdentifier with parameters (they must be absent)"
            )
        public_key.verify(sig, message)  # type: ignore[attr-defined]
        return
    _verify_classical(public_key, oid, parameters, message, sig)


def _verify_classical(
    public_key: Any, oid: str, parameters: bytes | None, message: bytes, sig: bytes
) -> None:
    _pyca()
    from cryptography.exceptions import InvalidSignature as PycaInvalidSignature
    from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, padding, rsa

    known = _classical_oids()
    if oid not in known:
        raise ValueError(f"unsupported signature algorithm {oid}")
    kind, name = known[oid]
    expected: Any = {
        "ecdsa": ec.EllipticCurvePublicKey,
        "rsa": rsa.RSAPublicKey,
        "pss": rsa.RSAPublicKey,
        "ed25519": ed25519.Ed25519PublicKey,
        "ed448": ed448.Ed448PublicKey,
    }[kind]
    if not isinstance(public_key, expected):
        raise ValueError(
            f"signature algorithm {oid} ({kind}) does not match a {type(public_key).__name__}"
        )
    if kind in ("ecdsa", "ed25519", "ed448") and parameters is not None:
        raise ValueError(f"{kind} AlgorithmIdentifier with parameters (they must be absent)")
    if kind == "rsa" and parameters not in (None, b"\x05\x00"):
        raise ValueError("RSA PKCS#1 v1.5 AlgorithmIdentifier parameters must be NULL")
    try:
        if kind == "ecdsa":
            public_key.verify(sig, message, ec.ECDSA(_hash(str(name))))
        elif kind == "rsa":
            public_key.verify(sig, message, padding.PKCS1v15(), _hash(str(name)))
        elif kind == "pss":
            hash_name, salt = _read_pss(parameters)
            pad = padding.PSS(mgf=padding.MGF1(_hash(hash_name)), salt_length=salt)
            public_key.verify(sig, message, pad, _hash(hash_name))
        else:
            public_key.verify(sig, message)
    except PycaInvalidSignature:  # pyca's exception becomes pqkit's (a subclass of both)
        raise InvalidSignature(f"the {kind} signature does not verify") from None

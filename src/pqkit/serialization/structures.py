"""SubjectPublicKeyInfo and PKCS#8 OneAsymmetricKey for ML-KEM, ML-DSA and SLH-DSA.

The ASN.1, from RFC 5280 §4.1 (SPKI), RFC 5958 §2 (OneAsymmetricKey), RFC 9935
§6 (ML-KEM) and RFC 9881 §6 (ML-DSA)::

    SubjectPublicKeyInfo ::= SEQUENCE {
        algorithm         AlgorithmIdentifier,  -- SEQUENCE { OID }, parameters absent
        subjectPublicKey  BIT STRING }          -- the raw FIPS public key

    OneAsymmetricKey ::= SEQUENCE {
        version                   INTEGER { v1(0), v2(1) },
        privateKeyAlgorithm       AlgorithmIdentifier,
        privateKey                OCTET STRING,  -- the DER of the CHOICE below
        attributes            [0] Attributes OPTIONAL,
        publicKey             [1] IMPLICIT BIT STRING OPTIONAL }  -- v2 only

    ML-KEM-PrivateKey / ML-DSA-PrivateKey ::= CHOICE {
        seed         [0] IMPLICIT OCTET STRING (SIZE (64 | 32)),
        expandedKey  OCTET STRING,
        both         SEQUENCE { seed OCTET STRING, expandedKey OCTET STRING } }

    SLH-DSA (RFC 9909 §6): privateKey holds the raw FIPS 205 sk (4n bytes,
    SK.seed || SK.prf || PK.seed || PK.root) directly, with no CHOICE.

    FrodoKEM (draft-smyslov-lamps-frodokem-certificates)::

        FrodoKEM-PrivateKey ::= OCTET STRING  -- sk = s || pk || S^T || pkh

    Composite ML-DSA / ML-KEM (draft-ietf-lamps-pq-composite-sigs-19 §4,
    draft-ietf-lamps-pq-composite-kem-17 §4): subjectPublicKey is ML-x pk ||
    traditional public key and privateKey holds ML-x seed || traditional private
    key, raw; their lengths vary with the traditional half, which the key classes
    check (here: longer than the ML-x half, at most twice the drafts' maximum).

The RFCs require AlgorithmIdentifier parameters to be absent; the parser refuses
them. The CHOICE is told apart by its tag, never by length, and every length is
checked against the parameter set. Attributes are parsed (they must be
well-formed DER) and ignored; an embedded public key is returned for the caller
to check against the private key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pqkit import der
from pqkit.serialization.algorithms import KeyAlgorithm, by_oid

__all__ = [
    "PrivateKeyInfo",
    "check_key_length",
    "decode_private_key_info",
    "decode_spki",
    "encode_private_key_info",
    "encode_spki",
]

Form = Literal["seed", "expanded", "both"]


@dataclass(frozen=True)
class PrivateKeyInfo:
    """A parsed OneAsymmetricKey: the algorithm, the CHOICE's contents, any public key."""

    algorithm: KeyAlgorithm
    form: Form
    seed: bytes | None
    expanded: bytes | None
    public_key: bytes | None

    def __repr__(self) -> str:  # never show key material
        return f"PrivateKeyInfo({self.algorithm.name}, form={self.form!r})"


def _algorithm_identifier(alg: KeyAlgorithm) -> bytes:
    return der.encode_tlv(der.SEQUENCE, der.encode_tlv(der.OBJECT_IDENTIFIER, alg.oid_der))


def _read_algorithm(reader: der.DerReader) -> KeyAlgorithm:
    content = reader.expect(der.SEQUENCE, "AlgorithmIdentifier")
    inner = der.DerReader(content, f"{reader.what} AlgorithmIdentifier")
    oid = der.decode_oid(inner.expect(der.OBJECT_IDENTIFIER, "algorithm OID"), inner.what)
    alg = by_oid(oid)
    if alg is None:
        raise ValueError(
            f"{reader.what}: unsupported algorithm OID {oid} "
            "(pqkit reads ML-KEM, ML-DSA, SLH-DSA, HashML-DSA and HashSLH-DSA keys: "
            "RFC 9935 / RFC 9881 / RFC 9909)"
        )
    if not inner.at_end():
        raise ValueError(
            f"{reader.what}: {alg.name} AlgorithmIdentifier parameters must be absent "
            "(RFC 9935 / RFC 9881 / RFC 9909)"
        )
    return alg


def check_key_length(alg: KeyAlgorithm, name: str, got: int, want: int, what: str) -> None:
    """The length check of a public key, private key or publicKey field: exactly
    ``want`` bytes, or for a composite, whose traditional half varies, more than its
    fixed ML-x half and at most ``2 * want`` (a bound on what a reader accepts)."""
    if alg.composite:
        floor = alg.composite_floor(name)
        if not floor < got <= 2 * want:
            raise ValueError(
                f"{what}: {alg.name} {name} of {got} bytes (its ML-x half is {floor} bytes "
                f"and the draft's maximum is {want})"
            )
    elif got != want:
        raise ValueError(f"{what}: {alg.name} {name} must be {want} bytes, got {got}")


# --- SubjectPublicKeyInfo -----------------------------------------------------------


def encode_spki(alg: KeyAlgorithm, public_key: bytes) -> bytes:
    """The DER SubjectPublicKeyInfo of raw ``public_key``."""
    check_key_length(alg, "public key", len(public_key), alg.public_key_length, "SPKI")
    return der.encode_sequence(_algorithm_identifier(alg), der.encode_bit_string(public_key))


def decode_spki(data: bytes) -> tuple[KeyAlgorithm, bytes]:
    """``(algorithm, raw public key)`` from a DER SubjectPublicKeyInfo."""
    what = "SubjectPublicKeyInfo"
    body = der.read_single(data, der.SEQUENCE, "SEQUENCE", what)
    reader = der.DerReader(body, what)
    alg = _read_algorithm(reader)
    key = der.decode_bit_string(reader.expect(der.BIT_STRING, "subjectPublicKey"), what)
    reader.finish()
    check_key_length(alg, "public key", len(key), alg.public_key_length, what)
    return alg, key


# --- OneAsymmetricKey ---------------------------------------------------------------


def _one_asymmetric_key(alg: KeyAlgorithm, private_key: bytes, public_key: bytes | None) -> bytes:
    """OneAsymmetricKey (RFC 5958 §2): v1 without ``public_key``; v2 with it as the
    ``[1] IMPLICIT BIT STRING`` publicKey field."""
    if public_key is None:
        return der.encode_sequence(
            der.encode_integer(0), _algorithm_identifier(alg), der.encode_octet_string(private_key)
        )
    check_key_length(alg, "public key", len(public_key), alg.public_key_length, "PKCS#8")
    return der.encode_sequence(
        der.encode_integer(1),
        _algorithm_identifier(alg),
        der.encode_octet_string(private_key),
        der.encode_tlv(der.CONTEXT_1, b"\x00" + public_key),
    )


def encode_private_key_info(
    alg: KeyAlgorithm,
    form: Form,
    seed: bytes | None,
    expanded: bytes | None,
    public_key: bytes | None = None,
) -> bytes:
    """The DER OneAsymmetricKey (no attributes) holding the chosen CHOICE form: v1,
    or v2 with the publicKey field when ``public_key`` is given.

    SLH-DSA (RFC 9909 §6, the raw sk) and FrodoKEM (the sk in an OCTET STRING)
    have one form: ``form`` "seed" or "expanded" both give it."""
    if form not in ("seed", "expanded", "both"):
        raise ValueError(f"unknown private key form {form!r}; use 'seed', 'expanded' or 'both'")
    if alg.single_form:
        if form == "both":
            what = (
                "RFC 9909 has a single SLH-DSA"
                if alg.family == "SLH-DSA"
                else alg.name + " has a single"
            )
            raise ValueError(f"{what} private key form, not 'both'")
        if expanded is None:
            raise ValueError(f"{alg.name} private key missing")
        check_key_length(alg, "private key", len(expanded), alg.expanded_key_length, "PKCS#8")
        inner = expanded if alg.raw_private_key else der.encode_octet_string(expanded)
        return _one_asymmetric_key(alg, inner, public_key)
    parts: list[bytes] = []
    if form in ("seed", "both"):
        if seed is None or len(seed) != alg.seed_length:
            raise ValueError(f"the {form!r} form needs the {alg.seed_length}-byte seed")
        parts.append(seed)
    if form in ("expanded", "both"):
        if expanded is None or len(expanded) != alg.expanded_key_length:
            raise ValueError(f"the {form!r} form needs the {alg.expanded_key_length}-byte key")
        parts.append(expanded)
    if form == "seed":
        choice = der.encode_tlv(der.CONTEXT_0, parts[0])
    elif form == "expanded":
        choice = der.encode_octet_string(parts[0])
    else:
        choice = der.encode_sequence(*(der.encode_octet_string(part) for part in parts))
    return _one_asymmetric_key(alg, choice, public_key)


def _decode_choice(alg: KeyAlgorithm, data: bytes) -> tuple[Form, bytes | None, bytes | None]:
    what = f"{alg.name} private key"
    if alg.raw_private_key:  # RFC 9909 §6, composites §4: the raw private key, no CHOICE
        check_key_length(alg, "private key", len(data), alg.expanded_key_length, what)
        return "expanded", None, data
    reader = der.DerReader(data, what)
    tag, content = reader.read()
    reader.finish()
    if alg.single_form and tag != der.OCTET_STRING:  # FrodoKEM: the sk, one form
        raise ValueError(f"{what}: expected the secret key as an OCTET STRING (0x04)")
    if tag == der.CONTEXT_0:
        check_key_length(alg, "seed", len(content), alg.seed_length, what)
        return "seed", content, None
    if tag == der.OCTET_STRING:
        check_key_length(alg, "expandedKey", len(content), alg.expanded_key_length, what)
        return "expanded", None, content
    if tag == der.SEQUENCE:
        inner = der.DerReader(content, f"{what} (both)")
        seed = inner.expect(der.OCTET_STRING, "seed OCTET STRING")
        expanded = inner.expect(der.OCTET_STRING, "expandedKey OCTET STRING")
        inner.finish()
        check_key_length(alg, "seed", len(seed), alg.seed_length, what)
        check_key_length(alg, "expandedKey", len(expanded), alg.expanded_key_length, what)
        return "both", seed, expanded
    raise ValueError(
        f"{what}: unknown CHOICE tag 0x{tag:02x} "
        "(expected seed [0] 0x80, expandedKey 0x04 or both 0x30)"
    )


def decode_private_key_info(data: bytes) -> PrivateKeyInfo:
    """Parse a DER OneAsymmetricKey (PKCS#8 PrivateKeyInfo) for ML-KEM, ML-DSA, SLH-DSA
    or FrodoKEM."""
    what = "PKCS#8 private key"
    body = der.read_single(data, der.SEQUENCE, "SEQUENCE", what)
    reader = der.DerReader(body, what)
    version = der.decode_integer(reader.expect(der.INTEGER, "version INTEGER"), what)
    if version not in (0, 1):
        raise ValueError(f"{what}: unsupported version {version} (expected v1(0) or v2(1))")
    alg = _read_algorithm(reader)
    form, seed, expanded = _decode_choice(alg, reader.expect(der.OCTET_STRING, "privateKey"))
    public_key = None
    if reader.peek_tag() == der.CONTEXT_CONSTRUCTED_0:
        attributes = der.DerReader(reader.read()[1], f"{what} attributes")
        while not attributes.at_end():
            attributes.expect(der.SEQUENCE, "Attribute")
    if reader.peek_tag() == der.CONTEXT_1:
        if version != 1:
            raise ValueError(f"{what}: a publicKey field needs version v2(1)")
        public_key = der.decode_bit_string(reader.read()[1], f"{what} publicKey")
        check_key_length(alg, "publicKey", len(public_key), alg.public_key_length, what)
    reader.finish()
    return PrivateKeyInfo(alg, form, seed, expanded, public_key)

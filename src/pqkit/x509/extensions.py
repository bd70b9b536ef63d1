"""The certificate extensions pqkit builds and checks (RFC 5280 §4.2), in
pyca/cryptography's shape: :class:`BasicConstraints`, :class:`KeyUsage`,
:class:`ExtendedKeyUsage`, :class:`SubjectKeyIdentifier`,
:class:`AuthorityKeyIdentifier`, :class:`SubjectAlternativeName` and, for CRLs,
:class:`CRLNumber`; any other extension is an :class:`UnrecognizedExtension`
(its DER kept). Each encodes and decodes through pyasn1-alt-modules' RFC 5280
structures.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from pqkit.x509._asn1 import decode, encode, pyasn1_modules

MAX_EXTENSIONS = 64
"""The most extensions in one certificate, request or CRL (real ones have ten or so)."""

MAX_EXTENSION_BYTES = 16_384
"""The largest extension value (extnValue) read."""


class ExtensionOID:
    """Dotted OIDs of the extensions read here (RFC 5280 §4.2.1, §5.2)."""

    SUBJECT_KEY_IDENTIFIER = "2.5.29.14"
    KEY_USAGE = "2.5.29.15"
    SUBJECT_ALTERNATIVE_NAME = "2.5.29.17"
    BASIC_CONSTRAINTS = "2.5.29.19"
    CRL_NUMBER = "2.5.29.20"
    EXTENDED_KEY_USAGE = "2.5.29.37"
    AUTHORITY_KEY_IDENTIFIER = "2.5.29.35"


class ExtendedKeyUsageOID:
    """Key purposes (RFC 5280 §4.2.1.12)."""

    SERVER_AUTH = "1.3.6.1.5.5.7.3.1"
    CLIENT_AUTH = "1.3.6.1.5.5.7.3.2"
    CODE_SIGNING = "1.3.6.1.5.5.7.3.3"
    EMAIL_PROTECTION = "1.3.6.1.5.5.7.3.4"
    TIME_STAMPING = "1.3.6.1.5.5.7.3.8"
    OCSP_SIGNING = "1.3.6.1.5.5.7.3.9"
    ANY_EXTENDED_KEY_USAGE = "2.5.29.37.0"


class _Value:
    oid: ClassVar[str]

    def _der(self) -> bytes:
        raise NotImplementedError

    @classmethod
    def _read(cls, der: bytes) -> Any:
        raise NotImplementedError


@dataclass(frozen=True)
class BasicConstraints(_Value):
    """RFC 5280 §4.2.1.9: ``ca`` and ``path_length`` (None: no limit)."""

    ca: bool
    path_length: int | None

    oid: ClassVar[str] = ExtensionOID.BASIC_CONSTRAINTS

    def __post_init__(self) -> None:
        if not isinstance(self.ca, bool):
            raise TypeError("ca must be a bool")
        if self.path_length is not None:
            if not isinstance(self.path_length, int) or isinstance(self.path_length, bool):
                raise TypeError("path_length must be an int or None")
            if not self.ca or self.path_length < 0:
                raise ValueError("path_length needs ca=True and must be >= 0")

    def _der(self) -> bytes:
        value = pyasn1_modules().rfc5280.BasicConstraints()
        if self.ca:
            value["cA"] = True
        if self.path_length is not None:
            value["pathLenConstraint"] = self.path_length
        return encode(value, "basicConstraints")

    @classmethod
    def _read(cls, der: bytes) -> BasicConstraints:
        value = decode(der, pyasn1_modules().rfc5280.BasicConstraints(), "basicConstraints")
        path = value["pathLenConstraint"]
        ca = bool(value["cA"])
        length = int(path) if path.isValue else None
        if length is not None and not ca:
            raise ValueError("basicConstraints: pathLenConstraint without cA")
        return cls(ca, length)


_KU_BITS = (
    "digital_signature",
    "content_commitment",
    "key_encipherment",
    "data_encipherment",
    "key_agreement",
    "key_cert_sign",
    "crl_sign",
    "encipher_only",
    "decipher_only",
)


@dataclass(frozen=True)
class KeyUsage(_Value):
    """RFC 5280 §4.2.1.3, the nine bits by pyca's names."""

    digital_signature: bool = False
    content_commitment: bool = False
    key_encipherment: bool = False
    data_encipherment: bool = False
    key_agreement: bool = False
    key_cert_sign: bool = False
    crl_sign: bool = False
    encipher_only: bool = False
    decipher_only: bool = False

    oid: ClassVar[str] = ExtensionOID.KEY_USAGE

    def _der(self) -> bytes:
        bits = "".join("1" if getattr(self, name) else "0" for name in _KU_BITS).rstrip("0")
        if not bits:
            raise ValueError("keyUsage with no bit set (RFC 5280 §4.2.1.3: at least one)")
        return encode(pyasn1_modules().rfc5280.KeyUsage(binValue=bits), "keyUsage")

    @classmethod
    def _read(cls, der: bytes) -> KeyUsage:
        value = decode(der, pyasn1_modules().rfc5280.KeyUsage(), "keyUsage")
        bits = value.asBinary()
        if len(bits) > len(_KU_BITS):
            raise ValueError(f"keyUsage of {len(bits)} bits (at most 9 are defined)")
        return cls(**{name: bits[i] == "1" for i, name in enumerate(_KU_BITS) if i < len(bits)})

    def names(self) -> list[str]:
        return [name for name in _KU_BITS if getattr(self, name)]


@dataclass(frozen=True)
class ExtendedKeyUsage(_Value):
    """RFC 5280 §4.2.1.12: the key purposes, dotted OIDs."""

    usages: tuple[str, ...]

    oid: ClassVar[str] = ExtensionOID.EXTENDED_KEY_USAGE

    def __init__(self, usages: Iterable[str]) -> None:
        object.__setattr__(self, "usages", tuple(usages))
        if not self.usages:
            raise ValueError("extendedKeyUsage needs at least one purpose")
        for usage in self.usages:
            if not isinstance(usage, str):
                raise TypeError("each usage must be a dotted OID str")

    def __iter__(self) -> Iterator[str]:
        return iter(self.usages)

    def _der(self) -> bytes:
        from pyasn1.type import univ

        value = pyasn1_modules().rfc5280.ExtKeyUsageSyntax()
        for usage in self.usages:
            value.append(univ.ObjectIdentifier(usage))
        return encode(value, "extendedKeyUsage")

    @classmethod
    def _read(cls, der: bytes) -> ExtendedKeyUsage:
        value = decode(der, pyasn1_modules().rfc5280.ExtKeyUsageSyntax(), "extendedKeyUsage")
        return cls(str(oid) for oid in value)


def key_identifier(public_key_bits: bytes) -> bytes:
    """RFC 5280 §4.2.1.2 method (1): SHA-1 of the subjectPublicKey BIT STRING's
    value (not a security function: an identifier)."""
    return hashlib.sha1(public_key_bits, usedforsecurity=False).digest()


def _spki_bits(public_key: Any) -> bytes:
    from pqkit.x509._keys import spki_der, spki_public_bits

    return spki_public_bits(spki_der(public_key))


@dataclass(frozen=True)
class SubjectKeyIdentifier(_Value):
    """RFC 5280 §4.2.1.2."""

    digest: bytes

    oid: ClassVar[str] = ExtensionOID.SUBJECT_KEY_IDENTIFIER

    @classmethod
    def from_public_key(cls, public_key: Any) -> SubjectKeyIdentifier:
        return cls(key_identifier(_spki_bits(public_key)))

    def _der(self) -> bytes:
        return encode(pyasn1_modules().rfc5280.SubjectKeyIdentifier(self.digest), "SKI")

    @classmethod
    def _read(cls, der: bytes) -> SubjectKeyIdentifier:
        value = decode(der, pyasn1_modules().rfc5280.SubjectKeyIdentifier(), "subjectKeyIdentifier")
        return cls(bytes(value))


@dataclass(frozen=True)
class AuthorityKeyIdentifier(_Value):
    """RFC 5280 §4.2.1.1 (the keyIdentifier form; issuer and serial are kept
    when read but not built)."""

    key_identifier: bytes | None
    authority_cert_serial_number: int | None = None

    oid: ClassVar[str] = ExtensionOID.AUTHORITY_KEY_IDENTIFIER

    @classmethod
    def from_issuer_public_key(cls, public_key: Any) -> AuthorityKeyIdentifier:
        return cls(key_identifier(_spki_bits(public_key)))

    @classmethod
    def from_issuer_subject_key_identifier(
        cls, ski: SubjectKeyIdentifier
    ) -> AuthorityKeyIdentifier:
        return cls(ski.digest)

    def _der(self) -> bytes:
        rfc5280 = pyasn1_modules().rfc5280
        value = rfc5280.AuthorityKeyIdentifier()
        if self.key_identifier is not None:
            value["keyIdentifier"] = value["keyIdentifier"].clone(self.key_identifier)
        return encode(value, "authorityKeyIdentifier")

    @classmethod
    def _read(cls, der: bytes) -> AuthorityKeyIdentifier:
        rfc5280 = pyasn1_modules().rfc5280
        value = decode(der, rfc5280.AuthorityKeyIdentifier(), "authorityKeyIdentifier")
        kid = value["keyIdentifier"]
        serial = value["authorityCertSerialNumber"]
        return cls(bytes(kid) if kid.isValue else None, int(serial) if serial.isValue else None)


@dataclass(frozen=True)
class DNSName:
    value: str
    _field: ClassVar[str] = "dNSName"


@dataclass(frozen=True)
class RFC822Name:
    value: str
    _field: ClassVar[str] = "rfc822Name"


@dataclass(frozen=True)
class UniformResourceIdentifier:
    value: str
    _field: ClassVar[str] = "uniformResourceIdentifier"


_GENERAL_NAMES: dict[str, Any] = {
    cls._field: cls for cls in (DNSName, RFC822Name, UniformResourceIdentifier)
}


@dataclass(frozen=True)
class SubjectAlternativeName(_Value):
    """RFC 5280 §4.2.1.6: DNS names, e-mail addresses and URIs (other general
    name forms are kept as ``("form", DER)`` pairs when read)."""

    names: tuple[Any, ...]

    oid: ClassVar[str] = ExtensionOID.SUBJECT_ALTERNATIVE_NAME

    def __init__(self, names: Iterable[Any]) -> None:
        object.__setattr__(self, "names", tuple(names))
        if not self.names:
            raise ValueError("subjectAltName needs at least one name")

    def __iter__(self) -> Iterator[Any]:
        return iter(self.names)

    def get_values_for_type(self, kind: type) -> list[str]:
        return [str(getattr(n, "value", "")) for n in self.names if isinstance(n, kind)]

    def _der(self) -> bytes:
        rfc5280 = pyasn1_modules().rfc5280
        value = rfc5280.SubjectAltName()
        for name in self.names:
            if not isinstance(name, (DNSName, RFC822Name, UniformResourceIdentifier)):
                raise TypeError(
                    "subjectAltName names are DNSName, RFC822Name or UniformResourceIdentifier"
                )
            general = rfc5280.GeneralName()
            general[name._field] = general[name._field].clone(name.value)
            value.append(general)
        return encode(value, "subjectAltName")

    @classmethod
    def _read(cls, der: bytes) -> SubjectAlternativeName:
        value = decode(der, pyasn1_modules().rfc5280.SubjectAltName(), "subjectAltName")
        names: list[Any] = []
        for general in value:
            form = general.getName()
            if form in _GENERAL_NAMES:
                names.append(_GENERAL_NAMES[form](str(general[form])))
            else:
                names.append((form, encode(general[form])))
        return cls(names)


@dataclass(frozen=True)
class CRLNumber(_Value):
    """RFC 5280 §5.2.3."""

    crl_number: int

    oid: ClassVar[str] = ExtensionOID.CRL_NUMBER

    def _der(self) -> bytes:
        return encode(pyasn1_modules().rfc5280.CRLNumber(self.crl_number), "cRLNumber")

    @classmethod
    def _read(cls, der: bytes) -> CRLNumber:
        return cls(int(decode(der, pyasn1_modules().rfc5280.CRLNumber(), "cRLNumber")))


@dataclass(frozen=True)
class UnrecognizedExtension:
    """An extension pqkit does not interpret: its OID and extnValue DER."""

    oid: str
    value: bytes


_KNOWN: dict[str, Any] = {
    cls.oid: cls
    for cls in (
        BasicConstraints,
        KeyUsage,
        ExtendedKeyUsage,
        SubjectKeyIdentifier,
        AuthorityKeyIdentifier,
        SubjectAlternativeName,
        CRLNumber,
    )
}


@dataclass(frozen=True)
class Extension:
    """One extension: ``oid``, ``critical`` and the parsed ``value``."""

    oid: str
    critical: bool
    value: Any


class Extensions:
    """The extensions of a certificate, request or CRL, in order."""

    def __init__(self, extensions: Iterable[Extension]) -> None:
        self._extensions = tuple(extensions)

    def __iter__(self) -> Iterator[Extension]:
        return iter(self._extensions)

    def __len__(self) -> int:
        return len(self._extensions)

    def get_extension_for_oid(self, oid: str) -> Extension:
        for extension in self._extensions:
            if extension.oid == oid:
                return extension
        raise KeyError(f"no extension {oid}")

    def get_extension_for_class(self, cls: type) -> Extension:
        return self.get_extension_for_oid(cls.oid)  # type: ignore[attr-defined]

    def find(self, cls: type) -> Any:
        """The value of the extension of class ``cls``, or None."""
        for extension in self._extensions:
            if isinstance(extension.value, cls):
                return extension.value
        return None

    @classmethod
    def _from_asn1(cls, value: Any, what: str) -> Extensions:
        """From a decoded rfc5280.Extensions: bounded in count and size; each
        OID at most once (RFC 5280 §4.2)."""
        if len(value) > MAX_EXTENSIONS:
            raise ValueError(f"{what}: {len(value)} extensions (the limit is {MAX_EXTENSIONS})")
        out = []
        seen: set[str] = set()
        for ext in value:
            oid = str(ext["extnID"])
            if oid in seen:
                raise ValueError(f"{what}: extension {oid} appears twice (RFC 5280 §4.2)")
            seen.add(oid)
            raw = bytes(ext["extnValue"])
            if len(raw) > MAX_EXTENSION_BYTES:
                raise ValueError(
                    f"{what}: extension {oid} of {len(raw)} bytes "
                    f"(the limit is {MAX_EXTENSION_BYTES})"
                )
            parsed = _KNOWN[oid]._read(raw) if oid in _KNOWN else UnrecognizedExtension(oid, raw)
            out.append(Extension(oid, bool(ext["critical"]), parsed))
        return cls(out)

    def _to_asn1(self, spec: Any) -> Any:
        from pyasn1.type import univ

        for extension in self._extensions:
            ext = pyasn1_modules().rfc5280.Extension()
            ext["extnID"] = univ.ObjectIdentifier(extension.oid)
            if extension.critical:
                ext["critical"] = True
            value = extension.value
            raw = value.value if isinstance(value, UnrecognizedExtension) else value._der()
            ext["extnValue"] = raw
            spec.append(ext)
        return spec


def extension_of(value: Any, critical: bool) -> Extension:
    """An :class:`Extension` for a value built by the caller (builders)."""
    if not isinstance(value, (_Value, UnrecognizedExtension)):
        raise TypeError(f"not an extension value: {type(value).__name__}")
    if not isinstance(critical, bool):
        raise TypeError("critical must be a bool")
    return Extension(value.oid, critical, value)

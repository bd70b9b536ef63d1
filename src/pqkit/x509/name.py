"""Distinguished names (RFC 5280 §4.1.2.4) in pyca/cryptography's shape: a
:class:`Name` is a sequence of relative distinguished names, each a set of
:class:`NameAttribute` (an OID and a string), written as RFC 4514 text by
:meth:`Name.rfc4514_string` and as DER by :meth:`Name.public_bytes`.

Attribute values are UTF8String when built here (PrintableString for
countryName, RFC 5280 Appendix A); on input any of the DirectoryString types, and
IA5String (emailAddress, domainComponent), are read as text; other types are kept
as their DER and written ``#hex`` in RFC 4514 text (RFC 4514 §2.4).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from pqkit.x509._asn1 import decode, encode, pyasn1_modules

__all__ = ["MAX_NAME_ATTRIBUTES", "MAX_VALUE_LENGTH", "Name", "NameAttribute", "NameOID"]

MAX_NAME_ATTRIBUTES = 64
"""The most attributes in one name (a real name has fewer than ten)."""

MAX_VALUE_LENGTH = 1024
"""The longest attribute value in characters (RFC 5280's upper bounds are 64 to 255;
some producers exceed them, so this is a work bound, not the RFC's)."""


class NameOID:
    """Dotted OIDs of the usual attribute types (RFC 5280 Appendix A, RFC 4519)."""

    COMMON_NAME = "2.5.4.3"
    SURNAME = "2.5.4.4"
    SERIAL_NUMBER = "2.5.4.5"
    COUNTRY_NAME = "2.5.4.6"
    LOCALITY_NAME = "2.5.4.7"
    STATE_OR_PROVINCE_NAME = "2.5.4.8"
    STREET_ADDRESS = "2.5.4.9"
    ORGANIZATION_NAME = "2.5.4.10"
    ORGANIZATIONAL_UNIT_NAME = "2.5.4.11"
    TITLE = "2.5.4.12"
    GIVEN_NAME = "2.5.4.42"
    DOMAIN_COMPONENT = "0.9.2342.19200300.100.1.25"
    USER_ID = "0.9.2342.19200300.100.1.1"
    EMAIL_ADDRESS = "1.2.840.113549.1.9.1"


# RFC 4514 §3 short names (and emailAddress as OpenSSL and pyca print it).
_SHORT = {
    NameOID.COMMON_NAME: "CN",
    NameOID.LOCALITY_NAME: "L",
    NameOID.STATE_OR_PROVINCE_NAME: "ST",
    NameOID.ORGANIZATION_NAME: "O",
    NameOID.ORGANIZATIONAL_UNIT_NAME: "OU",
    NameOID.COUNTRY_NAME: "C",
    NameOID.STREET_ADDRESS: "STREET",
    NameOID.DOMAIN_COMPONENT: "DC",
    NameOID.USER_ID: "UID",
    NameOID.EMAIL_ADDRESS: "emailAddress",
}
_BY_SHORT = {short.upper(): oid for oid, short in _SHORT.items()}
_IA5 = (NameOID.EMAIL_ADDRESS, NameOID.DOMAIN_COMPONENT)


def _escape(value: str) -> str:
    """RFC 4514 §2.4 escaping of an attribute value."""
    out = []
    for i, ch in enumerate(value):
        if ch in ',+"\\<>;' or (i == 0 and ch in "# ") or (i == len(value) - 1 and ch == " "):
            out.append("\\" + ch)
        elif ch == "\0":
            out.append("\\00")
        else:
            out.append(ch)
    return "".join(out)


class NameAttribute:
    """One attribute of a name: ``oid`` (dotted string) and ``value`` (text), as
    pyca's ``NameAttribute`` (``NameAttribute(NameOID.COMMON_NAME, "root")``)."""

    __slots__ = ("_der", "oid", "value")

    def __init__(self, oid: str, value: str, *, _der: bytes | None = None) -> None:
        if not isinstance(oid, str):
            raise TypeError(f"oid must be a dotted str, not {type(oid).__name__}")
        if not isinstance(value, str):
            raise TypeError(f"value must be str, not {type(value).__name__}")
        if len(value) > MAX_VALUE_LENGTH:
            raise ValueError(
                f"name attribute {oid}: {len(value)} characters (most {MAX_VALUE_LENGTH})"
            )
        self.oid = oid
        self.value = value
        self._der = _der

    def rfc4514_attribute_name(self) -> str:
        return _SHORT.get(self.oid, self.oid)

    def rfc4514_string(self) -> str:
        if self._der is not None:
            return f"{self.oid}=#{self._der.hex()}"
        return f"{self.rfc4514_attribute_name()}={_escape(self.value)}"

    def _value_der(self) -> bytes:
        if self._der is not None:
            return self._der
        from pyasn1.type import char

        if self.oid == NameOID.COUNTRY_NAME:
            if len(self.value) != 2:
                raise ValueError(f"countryName must be 2 characters (ISO 3166), not {self.value!r}")
            return encode(char.PrintableString(self.value))
        if self.oid in _IA5:
            return encode(char.IA5String(self.value))
        return encode(char.UTF8String(self.value))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NameAttribute):
            return NotImplemented
        return (self.oid, self.value, self._der) == (other.oid, other.value, other._der)

    def __hash__(self) -> int:
        return hash((self.oid, self.value))

    def __repr__(self) -> str:
        return f"<NameAttribute({self.rfc4514_string()})>"


class Name:
    """A distinguished name: ``Name([NameAttribute(...), ...])`` (one attribute per
    RDN, as pyca's ``Name``) or :meth:`from_rdns` for multi-valued RDNs. Compared
    by its DER (RFC 5280 §7.1 allows more; a chain built by one tool uses one)."""

    __slots__ = ("_der", "_rdns")

    def __init__(self, attributes: Iterable[NameAttribute]) -> None:
        self._rdns = tuple((a,) for a in attributes)
        for rdn in self._rdns:
            if not isinstance(rdn[0], NameAttribute):
                raise TypeError(f"a Name holds NameAttribute objects, not {type(rdn[0]).__name__}")
        if len(self._rdns) > MAX_NAME_ATTRIBUTES:
            raise ValueError(f"a name of {len(self._rdns)} attributes (most {MAX_NAME_ATTRIBUTES})")
        self._der: bytes | None = None

    @classmethod
    def from_rdns(cls, rdns: Iterable[Iterable[NameAttribute]]) -> Name:
        name = cls([])
        name._rdns = tuple(tuple(rdn) for rdn in rdns)  # type: ignore[misc]
        if sum(len(rdn) for rdn in name._rdns) > MAX_NAME_ATTRIBUTES:
            raise ValueError(f"a name of more than {MAX_NAME_ATTRIBUTES} attributes")
        return name

    @classmethod
    def from_rfc4514_string(cls, text: str) -> Name:
        """A name from simple RFC 4514 text (``"CN=root,O=Example"``) or OpenSSL's
        ``/O=Example/CN=root``: short names of :data:`_SHORT` or dotted OIDs, one
        attribute per RDN, ``\\`` escapes."""
        if not isinstance(text, str):
            raise TypeError(f"name must be str, not {type(text).__name__}")
        slash = text.startswith("/")
        sep = "/" if slash else ","
        parts: list[str] = []
        current: list[str] = []
        chars = iter(text[1:] if slash else text)
        for ch in chars:
            if ch == "\\":
                current.append(next(chars, ""))
            elif ch == sep:
                parts.append("".join(current))
                current = []
            else:
                current.append(ch)
        parts.append("".join(current))
        attributes = []
        for part in parts:
            key, eq, value = part.partition("=")
            key = key.strip()
            if not eq or not key:
                raise ValueError(f"name component {part!r} is not TYPE=value")
            oid = _BY_SHORT.get(key.upper(), key)
            if not all(arc.isdigit() for arc in oid.split(".")):
                raise ValueError(f"unknown attribute type {key!r} in name {text!r}")
            attributes.append(NameAttribute(oid, value.strip() if not slash else value))
        if not slash:
            attributes.reverse()  # RFC 4514 text lists the last RDN first
        return cls(attributes)

    @classmethod
    def _from_asn1(cls, value: Any) -> Name:
        """The name of a decoded rfc5280.Name (from a certificate, request or CRL)."""
        from pyasn1.codec.der import decoder
        from pyasn1.type import char

        rdns = []
        count = 0
        for rdn in value[0]:
            attrs = []
            for atv in rdn:
                count += 1
                if count > MAX_NAME_ATTRIBUTES:
                    raise ValueError(f"a name of more than {MAX_NAME_ATTRIBUTES} attributes")
                oid = str(atv["type"])
                raw = bytes(atv["value"])
                try:
                    inner, _ = decoder.decode(raw)
                except Exception:
                    inner = None
                if isinstance(inner, char.AbstractCharacterString):
                    text = str(inner)
                    if len(text) > MAX_VALUE_LENGTH:
                        raise ValueError(
                            f"name attribute {oid}: over {MAX_VALUE_LENGTH} characters"
                        )
                    attrs.append(NameAttribute(oid, text))
                else:
                    attrs.append(NameAttribute(oid, raw.hex(), _der=raw))
            rdns.append(tuple(attrs))
        name = cls.from_rdns(rdns)
        name._der = encode(value, "name")
        return name

    def _asn1(self) -> Any:
        rfc5280 = pyasn1_modules().rfc5280
        return decode(self.public_bytes(), rfc5280.Name(), "name")

    def public_bytes(self) -> bytes:
        """The DER of the name (RFC 5280 ``Name``); for a parsed name, the bytes
        it was read from."""
        if self._der is None:
            self._der = _name_der(self._rdns)
        return self._der

    def rfc4514_string(self) -> str:
        """RFC 4514 text: the last RDN first, ``+`` inside an RDN."""
        return ",".join("+".join(a.rfc4514_string() for a in rdn) for rdn in reversed(self._rdns))

    @property
    def rdns(self) -> tuple[tuple[NameAttribute, ...], ...]:
        return self._rdns

    def get_attributes_for_oid(self, oid: str) -> list[NameAttribute]:
        return [a for a in self if a.oid == oid]

    def __iter__(self) -> Iterator[NameAttribute]:
        for rdn in self._rdns:
            yield from rdn

    def __len__(self) -> int:
        return sum(len(rdn) for rdn in self._rdns)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Name):
            return NotImplemented
        return self.public_bytes() == other.public_bytes()

    def __hash__(self) -> int:
        return hash(self.public_bytes())

    def __repr__(self) -> str:
        return f"<Name({self.rfc4514_string()})>"


def _name_der(rdns: tuple[tuple[NameAttribute, ...], ...]) -> bytes:
    """RFC 5280 Name: RDNSequence of SET OF AttributeTypeAndValue, through pyasn1."""
    rfc5280 = pyasn1_modules().rfc5280
    from pyasn1.type import univ

    sequence = rfc5280.RDNSequence()
    for rdn in rdns:
        rdn_value = rfc5280.RelativeDistinguishedName()
        for attribute in rdn:
            atv = rfc5280.AttributeTypeAndValue()
            atv["type"] = univ.ObjectIdentifier(attribute.oid)
            atv["value"] = attribute._value_der()
            rdn_value.append(atv)
        sequence.append(rdn_value)
    name = rfc5280.Name()
    name["rdnSequence"] = sequence
    return encode(name, "name")

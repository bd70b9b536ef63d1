"""What certificates, requests and CRLs share (RFC 5280 §4.1, §5.1; RFC 2986 §4):
SEQUENCE { to-be-signed, signatureAlgorithm, signature BIT STRING }. The loaders
(PEM / DER, bounded, strict DER), the signed bytes as they stand in the input, and
the time values (RFC 5280 §4.1.2.5)."""

from __future__ import annotations

import datetime
from typing import Any, TypeVar

from pqkit._checks import as_bytes
from pqkit.serialization import Encoding
from pqkit.serialization.pem import pem_decode, pem_encode
from pqkit.x509 import algorithms
from pqkit.x509._asn1 import _header, decode, encode, pyasn1_modules

__all__ = ["MAX_PEM_BLOCKS", "Signed", "SubjectKey", "from_time", "to_time"]

MAX_PEM_BLOCKS = 64
"""The most PEM blocks read by the loaders of several certificates."""

S = TypeVar("S", bound="Signed")


class Signed:
    """A decoded signed structure: ``_asn1`` (the pyasn1 value) and ``_der``."""

    _LABEL = ""
    _WHAT = ""
    _SPEC: str = ""  # attribute of pyasn1_modules() module "rfcXXXX.Name"
    _SIG_FIELD = "signature"

    def __init_subclass__(cls, *, label: str, what: str, spec: str, **kwargs: Any) -> None:
        """A structure declares its PEM label, its name in messages and its pyasn1
        spec in its class line."""
        super().__init_subclass__(**kwargs)
        cls._LABEL, cls._WHAT, cls._SPEC = label, what, spec

    def __init__(self, der: bytes, value: Any) -> None:
        self._der = der
        self._asn1 = value
        _, start, _ = _header(der, 0, len(der), self._WHAT)
        _, _, tbs_end = _header(der, start, len(der), self._WHAT)
        self._tbs = der[start:tbs_end]
        self._sigalg = encode(value["signatureAlgorithm"])
        bits = value[self._SIG_FIELD]
        if len(bits) % 8:
            raise ValueError(f"{self._WHAT}: signature BIT STRING with unused bits")
        self._signature = bytes(bits.asOctets())

    @classmethod
    def _spec(cls) -> Any:
        module, name = cls._SPEC.split(".")
        return getattr(getattr(pyasn1_modules(), module), name)()

    @classmethod
    def _load_der(cls: type[S], data: Any) -> S:
        raw = as_bytes(data, "data")
        if not raw:
            raise ValueError(f"empty {cls._WHAT} data (an empty file?)")
        return cls(raw, decode(raw, cls._spec(), cls._WHAT))

    @classmethod
    def _load_pem(cls: type[S], data: Any) -> S:
        raw = as_bytes(data, "data")
        _, der = pem_decode(raw, (cls._LABEL,))
        return cls._load_der(der)

    @classmethod
    def _load_pems(cls: type[S], data: Any) -> list[S]:
        raw = as_bytes(data, "data")
        end_marker = f"-----END {cls._LABEL}-----".encode()
        out: list[S] = []
        while b"-----BEGIN" in raw:
            if len(out) == MAX_PEM_BLOCKS:
                raise ValueError(f"more than {MAX_PEM_BLOCKS} PEM blocks")
            _, der = pem_decode(raw, (cls._LABEL,))
            out.append(cls._load_der(der))
            raw = raw[raw.index(end_marker) + len(end_marker) :]
        if not out:
            raise ValueError(f"no PEM block found (expected {cls._LABEL!r} blocks)")
        return out

    @property
    def signature(self) -> bytes:
        return self._signature

    @property
    def signature_algorithm_oid(self) -> str:
        return str(self._asn1["signatureAlgorithm"]["algorithm"])

    @property
    def signature_algorithm_identifier(self) -> bytes:
        """The DER AlgorithmIdentifier of the signature."""
        return self._sigalg

    @property
    def signature_algorithm_name(self) -> str:
        return algorithms.algorithm_name(self._sigalg)

    def _check_signature(self, public_key: Any) -> None:
        """The signature over the to-be-signed bytes as received."""
        algorithms.verify(public_key, self._sigalg, self._tbs, self._signature)

    def public_bytes(self, encoding: Any = Encoding.PEM) -> bytes:
        """The structure as PEM or DER (the bytes it was read from)."""
        from pqkit.serialization.options import coerce

        if coerce(Encoding, encoding, "encoding") is Encoding.DER:
            return self._der
        return pem_encode(self._der, self._LABEL)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Signed):
            return NotImplemented
        return type(self) is type(other) and self._der == other._der

    def __hash__(self) -> int:
        return hash(self._der)


class SubjectKey:
    """The subject public key of a certificate or a request: ``_spki`` (its DER
    SubjectPublicKeyInfo) and ``_spki_oid`` are set by the class."""

    _spki: bytes
    _spki_oid: str
    _public_key: Any = None

    @property
    def public_key_algorithm_oid(self) -> str:
        return self._spki_oid

    @property
    def public_key_bytes(self) -> bytes:
        """The DER SubjectPublicKeyInfo."""
        return self._spki

    def public_key(self) -> Any:
        """The subject's public key: a :mod:`pqkit.keys` object, or a pyca key for a
        classical algorithm. ``ValueError`` for a key that does not load."""
        if self._public_key is None:
            from pqkit.x509._keys import public_key_from_spki

            self._public_key = public_key_from_spki(self._spki)
        return self._public_key


def to_time(value: Any) -> datetime.datetime:
    """An aware UTC datetime of an RFC 5280 Time (UTCTime or GeneralizedTime)."""
    choice = value.getName()
    inner = value[choice]
    text = str(inner)
    # RFC 5280 §4.1.2.5.1 / .2: YYMMDDHHMMSSZ, YYYYMMDDHHMMSSZ (no fractions).
    form = "%y%m%d%H%M%SZ" if choice == "utcTime" else "%Y%m%d%H%M%SZ"
    if len(text) != (13 if choice == "utcTime" else 15):
        raise ValueError(f"time {text!r} is not in RFC 5280's form (seconds, Z)")
    try:
        moment = datetime.datetime.strptime(text, form)
    except ValueError:
        raise ValueError(f"time {text!r} is not in RFC 5280's form") from None
    if choice == "utcTime" and moment.year >= 2050:  # RFC 5280: YY >= 50 is 19YY
        moment = moment.replace(year=moment.year - 100)
    return moment.replace(tzinfo=datetime.timezone.utc)


def from_time(moment: datetime.datetime, what: str) -> Any:
    """An RFC 5280 Time: UTCTime through 2049, GeneralizedTime from 2050 (§4.1.2.5)."""
    if not isinstance(moment, datetime.datetime):
        raise TypeError(f"{what} must be a datetime, not {type(moment).__name__}")
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.timezone.utc)
    rfc5280 = pyasn1_modules().rfc5280
    from pyasn1.type import useful

    time = rfc5280.Time()
    if 1950 <= moment.year < 2050:
        time["utcTime"] = useful.UTCTime(moment.strftime("%y%m%d%H%M%SZ"))
    else:
        time["generalTime"] = useful.GeneralizedTime(moment.strftime("%Y%m%d%H%M%SZ"))
    return time

"""The pyasn1 / pyasn1-alt-modules names pqkit.cms uses, imported in one place
(only through :func:`pqkit.cms._asn1.modules`, after the extra is checked)."""

from __future__ import annotations

from pyasn1.codec.ber import decoder as ber_decoder
from pyasn1.codec.der import encoder as der_encoder
from pyasn1.error import PyAsn1Error
from pyasn1.type import char, namedtype, tag, univ, useful
from pyasn1_alt_modules import (
    rfc3565,
    rfc5083,
    rfc5084,
    rfc5280,
    rfc5652,
    rfc6211,
    rfc8619,
    rfc9629,
)

__all__ = [
    "PyAsn1Error",
    "ber_decoder",
    "char",
    "der_encoder",
    "namedtype",
    "rfc3565",
    "rfc5083",
    "rfc5084",
    "rfc5280",
    "rfc5652",
    "rfc6211",
    "rfc8619",
    "rfc9629",
    "tag",
    "univ",
    "useful",
]

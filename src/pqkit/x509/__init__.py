"""X.509 certificates, certification requests and CRLs with every pqkit key
(RFC 5280, RFC 2986), in the shape of pyca/cryptography's ``x509`` module.

Needs the ``x509`` extra (pyasn1 and pyasn1-alt-modules)::

    pip install "pqkit[x509]"

Any signature algorithm loads; signatures verify for every pqkit signature key
(ML-DSA, HashML-DSA, SLH-DSA, HashSLH-DSA, composite ML-DSA) and for classical keys
through pyca/cryptography; subject keys may be any pqkit key, KEM keys included
(RFC 9935). :mod:`pqkit.x509.algorithms` says which OID signs how,
:mod:`pqkit.x509.verification` validates paths.
"""

from __future__ import annotations

from pqkit.x509.builder import (
    CertificateBuilder,
    CertificateRevocationListBuilder,
    CertificateSigningRequestBuilder,
    RevokedCertificateBuilder,
    random_serial_number,
)
from pqkit.x509.certificate import (
    Certificate,
    load_der_x509_certificate,
    load_pem_x509_certificate,
    load_pem_x509_certificates,
)
from pqkit.x509.crl import (
    CertificateRevocationList,
    RevokedCertificate,
    load_der_x509_crl,
    load_pem_x509_crl,
)
from pqkit.x509.csr import CertificateSigningRequest, load_der_x509_csr, load_pem_x509_csr
from pqkit.x509.extensions import (
    AuthorityKeyIdentifier,
    BasicConstraints,
    CRLNumber,
    DNSName,
    ExtendedKeyUsage,
    ExtendedKeyUsageOID,
    Extension,
    ExtensionOID,
    Extensions,
    KeyUsage,
    RFC822Name,
    SubjectAlternativeName,
    SubjectKeyIdentifier,
    UniformResourceIdentifier,
    UnrecognizedExtension,
)
from pqkit.x509.name import Name, NameAttribute, NameOID

__all__ = [
    "AuthorityKeyIdentifier",
    "BasicConstraints",
    "CRLNumber",
    "Certificate",
    "CertificateBuilder",
    "CertificateRevocationList",
    "CertificateRevocationListBuilder",
    "CertificateSigningRequest",
    "CertificateSigningRequestBuilder",
    "DNSName",
    "ExtendedKeyUsage",
    "ExtendedKeyUsageOID",
    "Extension",
    "ExtensionOID",
    "Extensions",
    "KeyUsage",
    "Name",
    "NameAttribute",
    "NameOID",
    "RFC822Name",
    "RevokedCertificate",
    "RevokedCertificateBuilder",
    "SubjectAlternativeName",
    "SubjectKeyIdentifier",
    "UniformResourceIdentifier",
    "UnrecognizedExtension",
    "load_der_x509_certificate",
    "load_der_x509_crl",
    "load_der_x509_csr",
    "load_pem_x509_certificate",
    "load_pem_x509_certificates",
    "load_pem_x509_crl",
    "load_pem_x509_csr",
    "random_serial_number",
]

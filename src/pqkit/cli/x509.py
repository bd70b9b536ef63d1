"""``pqkit req``, ``pqkit x509``, ``pqkit crl`` and ``pqkit verify-cert``: requests,
certificates, CRLs and chain verification with openssl's habits (single-dash
options: ``-key``, ``-subj``, ``-days``, ``-CA``, ``-CAkey``, ``-CAfile``,
``-untrusted``, ``-CRLfile``), and the text of ``pqkit show`` for certificates,
requests and CRLs (:func:`show`, as ``openssl x509 -text`` prints).

Chain verification is ``verify-cert``, not ``verify``: ``pqkit verify`` checks a
signature over a file and keeps doing so. Needs the ``x509`` extra (one line and
exit status 2 without it).
"""

from __future__ import annotations

import argparse
import datetime as dt
from typing import Any

from pqkit.cli.files import check_outputs, read_input, write_output
from pqkit.cli.loading import load_private
from pqkit.cli.status import EPILOG, OK, Failure

__all__ = ["is_x509_file", "register", "show"]

_FILE_LIMIT = 1 << 21
_LABELS = (b"CERTIFICATE", b"CERTIFICATE REQUEST", b"X509 CRL")
_KEY_USAGE_NAMES = {
    "digitalSignature": "digital_signature",
    "nonRepudiation": "content_commitment",
    "keyEncipherment": "key_encipherment",
    "dataEncipherment": "data_encipherment",
    "keyAgreement": "key_agreement",
    "keyCertSign": "key_cert_sign",
    "cRLSign": "crl_sign",
}
_EKU_NAMES = {
    "serverAuth": "1.3.6.1.5.5.7.3.1",
    "clientAuth": "1.3.6.1.5.5.7.3.2",
    "codeSigning": "1.3.6.1.5.5.7.3.3",
    "emailProtection": "1.3.6.1.5.5.7.3.4",
    "timeStamping": "1.3.6.1.5.5.7.3.8",
    "OCSPSigning": "1.3.6.1.5.5.7.3.9",
}


def _x509() -> Any:
    from pqkit.x509._asn1 import pyasn1_modules

    pyasn1_modules()  # MissingExtra (exit status 2) without the x509 extra
    import pqkit.x509

    return pqkit.x509


def _read(path: str, what: str) -> bytes:
    data = read_input(path, what, _FILE_LIMIT)
    if not data:
        raise ValueError(f"{path}: empty file")
    return data


def _load(path: str, kind: str) -> Any:
    """A certificate / request / CRL file, PEM or DER."""
    x509 = _x509()
    data = _read(path, kind)
    loaders = {
        "certificate": (x509.load_pem_x509_certificate, x509.load_der_x509_certificate),
        "request": (x509.load_pem_x509_csr, x509.load_der_x509_csr),
        "CRL": (x509.load_pem_x509_crl, x509.load_der_x509_crl),
    }[kind]
    try:
        return loaders[0](data) if b"-----BEGIN" in data else loaders[1](data)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


def _load_many(path: str) -> list[Any]:
    x509 = _x509()
    data = _read(path, "certificate")
    try:
        if b"-----BEGIN" in data:
            return list(x509.load_pem_x509_certificates(data))
        return [x509.load_der_x509_certificate(data)]
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


def _write(args: argparse.Namespace, obj: Any) -> None:
    from pqkit.serialization import Encoding

    data = obj.public_bytes(Encoding.DER if args.outform == "DER" else Encoding.PEM)
    write_output(args.out, data, secret=False, force=args.force, binary=args.outform == "DER")


def _name(text: str) -> Any:
    return _x509().Name.from_rfc4514_string(text)


def _time(text: str, option: str) -> dt.datetime:
    for form in ("%Y%m%d%H%M%SZ", "%y%m%d%H%M%SZ"):
        try:
            return dt.datetime.strptime(text, form).replace(tzinfo=dt.timezone.utc)
        except ValueError:
            continue
    raise ValueError(f"{option} must be YYYYMMDDHHMMSSZ, not {text!r}")


def _key_usage(names: str) -> Any:
    x509 = _x509()
    bits = {}
    for name in filter(None, (n.strip() for n in names.split(","))):
        if name not in _KEY_USAGE_NAMES:
            raise ValueError(f"unknown key usage {name!r}; known: {', '.join(_KEY_USAGE_NAMES)}")
        bits[_KEY_USAGE_NAMES[name]] = True
    if not bits:
        raise ValueError("-keyusage needs at least one usage")
    return x509.KeyUsage(**bits)


def _san(entries: list[str]) -> Any:
    x509 = _x509()
    forms = {"DNS": x509.DNSName, "email": x509.RFC822Name, "URI": x509.UniformResourceIdentifier}
    names = []
    for entry in entries:
        form, _, value = entry.partition(":")
        if form not in forms or not value:
            raise ValueError(f"-san takes DNS:NAME, email:ADDR or URI:URI, not {entry!r}")
        names.append(forms[form](value))
    return x509.SubjectAlternativeName(names)


def _is_kem(public: Any) -> bool:
    from pqkit.keys import PublicKey

    return isinstance(public, PublicKey) and public.algorithm.is_kem


def _extensions(args: argparse.Namespace, public: Any, issuer_public: Any) -> list[Any]:
    """What the options ask for, with the defaults: a CA gets basicConstraints cA
    and keyCertSign + cRLSign; a KEM key keyEncipherment alone (RFC 9935 §5); another
    end entity digitalSignature. SKI and AKI always."""
    x509 = _x509()
    out: list[tuple[Any, bool]] = []
    if args.ca:
        out.append((x509.BasicConstraints(True, args.pathlen), True))
    elif args.pathlen is not None:
        raise ValueError("-pathlen needs -ca")
    if args.keyusage:
        usage = _key_usage(args.keyusage)
    elif args.ca:
        usage = x509.KeyUsage(key_cert_sign=True, crl_sign=True)
    elif _is_kem(public):
        usage = x509.KeyUsage(key_encipherment=True)
    else:
        usage = x509.KeyUsage(digital_signature=True)
    out.append((usage, True))
    if args.eku:
        oids = [_EKU_NAMES.get(n.strip(), n.strip()) for n in args.eku.split(",") if n.strip()]
        out.append((x509.ExtendedKeyUsage(oids), False))
    if args.san:
        out.append((_san(args.san), False))
    out.append((x509.SubjectKeyIdentifier.from_public_key(public), False))
    out.append((x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_public), False))
    return out


def _validity(args: argparse.Namespace) -> tuple[dt.datetime, dt.datetime]:
    now = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    start = _time(args.not_before, "-not_before") if args.not_before else now
    end = _time(args.not_after, "-not_after") if args.not_after else start + dt.timedelta(args.days)
    return start, end


def cmd_req(args: argparse.Namespace) -> int:
    """``pqkit req``: a PKCS#10 request for -key or a new -newkey ALG key."""
    from pqkit.keys import private_key_class
    from pqkit.serialization import Encoding, NoEncryption, PrivateFormat

    x509 = _x509()
    if (args.key is None) == (args.newkey is None):
        raise ValueError("give -key KEY or -newkey ALG (with -keyout)")
    outputs = [args.out] + ([args.keyout] if args.newkey else [])
    if args.newkey and not args.keyout:
        raise ValueError("-newkey needs -keyout FILE")
    check_outputs(outputs, args.force)
    if args.newkey:
        key = private_key_class(args.newkey).generate()
    else:
        key = load_private(args.key, args).key
    builder = x509.CertificateSigningRequestBuilder().subject_name(_name(args.subj))
    signer = key
    if key.algorithm.is_kem:
        if not (args.signkey and args.signcert):
            raise ValueError(
                f"a {key.algorithm.name} key cannot sign its request: give -signkey and "
                "-signcert, a signature key and its certificate of the same subject (RFC 9883)"
            )
        signer = load_private(args.signkey, args).key
        builder = builder.public_key(key.public_key()).possession_statement(
            _load(args.signcert, "certificate")
        )
    request = builder.sign(signer)
    if args.newkey:
        pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
        write_output(args.keyout, pem, secret=True, force=args.force, binary=False)
    _write(args, request)
    return OK


def _request_key(args: argparse.Namespace, ca: Any) -> tuple[Any, Any]:
    """(subject name, public key) of -in REQUEST, its proof of possession checked."""
    from pqkit.errors import InvalidSignature

    request = _load(args.req, "request")
    public = request.public_key()
    if request.possession_statement is not None:
        signer = request.possession_certificate
        if signer is None:
            raise ValueError(f"{args.req}: the statementOfPossession carries no certificate")
        try:
            signer.verify_directly_issued_by(ca)
            request.verify_possession_statement(signer)
        except (ValueError, TypeError, InvalidSignature) as exc:
            raise Failure(f"{args.req}: proof of possession (RFC 9883) fails: {exc}") from None
    elif not request.is_signature_valid:
        raise Failure(f"{args.req}: the request's signature does not verify with its key")
    return request.subject, public


def cmd_x509(args: argparse.Namespace) -> int:
    """``pqkit x509``: a self-signed certificate (-new -key) or one for a request
    signed by a CA (-req REQ -CA CERT -CAkey KEY)."""
    x509 = _x509()
    check_outputs([args.out], args.force)
    if args.new:
        if args.req or args.CA or args.CAkey:
            raise ValueError("-new makes a self-signed certificate: no -in, -CA or -CAkey")
        if not (args.key and args.subj):
            raise ValueError("-new needs -key KEY and -subj NAME")
        key = load_private(args.key, args).key
        subject = issuer = _name(args.subj)
        public = issuer_public = key.public_key()
        signer = key
    else:
        if not (args.req and args.CA and args.CAkey):
            raise ValueError("give -new -key KEY -subj NAME, or -in REQ -CA CERT -CAkey KEY")
        ca = _load(args.CA, "certificate")
        signer = load_private(args.CAkey, args).key
        if signer.public_key() != ca.public_key():
            raise ValueError(f"{args.CAkey} is not the key of {args.CA}")
        subject, public = _request_key(args, ca)
        if args.subj:
            subject = _name(args.subj)
        issuer, issuer_public = ca.subject, ca.public_key()
    start, end = _validity(args)
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(public)
        .serial_number(args.set_serial or x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(end)
    )
    for value, critical in _extensions(args, public, issuer_public):
        builder = builder.add_extension(value, critical)
    _write(args, builder.sign(signer))
    return OK


def cmd_crl(args: argparse.Namespace) -> int:
    """``pqkit crl``: a CRL of -CA signed with -CAkey, revoking -revoke certificates."""
    x509 = _x509()
    check_outputs([args.out], args.force)
    ca = _load(args.CA, "certificate")
    key = load_private(args.CAkey, args).key
    if key.public_key() != ca.public_key():
        raise ValueError(f"{args.CAkey} is not the key of {args.CA}")
    now = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    builder = (
        x509.CertificateRevocationListBuilder()
        .issuer_name(ca.subject)
        .last_update(now)
        .next_update(now + dt.timedelta(args.days))
        .add_extension(x509.CRLNumber(args.crlnumber), False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca.public_key()), False)
    )
    for path in args.revoke or ():
        revoked = _load(path, "certificate")
        if revoked.issuer != ca.subject:
            raise ValueError(f"{path} was not issued by {args.CA}")
        entry = x509.RevokedCertificateBuilder().serial_number(revoked.serial_number)
        builder = builder.add_revoked_certificate(entry.revocation_date(now).build())
    _write(args, builder.sign(key))
    return OK


def cmd_verify_cert(args: argparse.Namespace) -> int:
    """``pqkit verify-cert -CAfile ROOTS [-untrusted CHAIN] [-CRLfile CRL] CERT...``."""
    from pqkit.x509.verification import PolicyBuilder, Store, VerificationError

    roots = _load_many(args.CAfile)
    untrusted = [c for path in args.untrusted or () for c in _load_many(path)]
    crls = [_load(path, "CRL") for path in args.CRLfile or ()]
    policy = PolicyBuilder().store(Store(roots))
    if args.attime is not None:
        policy = policy.time(dt.datetime.fromtimestamp(args.attime, dt.timezone.utc))
    if crls:
        policy = policy.crls(crls)
    if args.crl_check_all:
        policy = policy.require_crls()
    if args.purpose:
        policy = policy.extended_key_usage(_EKU_NAMES.get(args.purpose, args.purpose))
    verifier = policy.build()
    failed = []
    for path in args.certificates:
        try:
            verifier.verify(_load(path, "certificate"), untrusted)
        except VerificationError as exc:
            failed.append(f"{path}: verification failed: {exc}")
            continue
        print(f"{path}: OK")
    if failed:
        raise Failure("\n".join(failed))
    return OK


# --- pqkit show ------------------------------------------------------------------------


def is_x509_file(path: str) -> bool:
    """Whether ``path`` (a regular file) is a PEM certificate, request or CRL, or a
    DER one (tried only when the x509 extra is installed)."""
    import os

    if path == "-" or not os.path.isfile(path):
        return False
    with open(path, "rb") as handle:
        head = handle.read(_FILE_LIMIT + 1)
    for label in _LABELS:
        if b"-----BEGIN " + label + b"-----" in head:
            return True
    from pqkit import _extras

    if head[:1] != b"\x30" or not _extras.installed("x509"):
        return False
    for kind in ("certificate", "request", "CRL"):
        try:
            _load(path, kind)
        except (ValueError, ImportError):
            continue
        return True
    return False


def _detect(path: str) -> tuple[str, Any]:
    data = _read(path, "file")
    if b"-----BEGIN CERTIFICATE REQUEST-----" in data:
        return "request", _load(path, "request")
    if b"-----BEGIN X509 CRL-----" in data:
        return "CRL", _load(path, "CRL")
    errors = []
    for kind in ("certificate", "request", "CRL"):
        try:
            return kind, _load(path, kind)
        except ValueError as exc:
            errors.append(str(exc))
    raise ValueError(errors[0])


def _hex(data: bytes) -> str:
    return ":".join(f"{b:02x}" for b in data)


def _block(data: bytes, indent: str, width: int = 18) -> list[str]:
    hexed = [f"{b:02x}" for b in data]
    return [indent + ":".join(hexed[i : i + width]) for i in range(0, len(hexed), width)]


def _describe_key(public: Any, spki: bytes) -> list[str]:
    from pqkit.keys import PublicKey

    if isinstance(public, PublicKey):
        alg = public.algorithm
        lines = [f"            Public Key Algorithm: {alg.name} (OID {alg.oid})"]
        raw = public.public_bytes_raw()
        lines.append(f"                {alg.name} Public-Key: ({len(raw)} bytes)")
        shown = raw if len(raw) <= 64 else raw[:64]
        lines += _block(shown, "                    ")
        if len(raw) > 64:
            lines.append(f"                    ... ({len(raw) - 64} more bytes)")
        return lines
    return [f"            Public Key Algorithm: {type(public).__name__} (SPKI {len(spki)} bytes)"]


def _describe_extensions(extensions: Any) -> list[str]:
    x509 = _x509()
    lines = ["        X509v3 extensions:"]
    for ext in extensions:
        value = ext.value
        crit = " critical" if ext.critical else ""
        if isinstance(value, x509.BasicConstraints):
            name = "X509v3 Basic Constraints"
            text = f"CA:{'TRUE' if value.ca else 'FALSE'}" + (
                f", pathlen:{value.path_length}" if value.path_length is not None else ""
            )
        elif isinstance(value, x509.KeyUsage):
            inverse = {v: k for k, v in _KEY_USAGE_NAMES.items()}
            name = "X509v3 Key Usage"
            text = ", ".join(inverse.get(n, n) for n in value.names())
        elif isinstance(value, x509.ExtendedKeyUsage):
            inverse = {v: k for k, v in _EKU_NAMES.items()}
            name = "X509v3 Extended Key Usage"
            text = ", ".join(inverse.get(o, o) for o in value.usages)
        elif isinstance(value, x509.SubjectKeyIdentifier):
            name, text = "X509v3 Subject Key Identifier", _hex(value.digest).upper()
        elif isinstance(value, x509.AuthorityKeyIdentifier):
            name = "X509v3 Authority Key Identifier"
            text = _hex(value.key_identifier or b"").upper()
        elif isinstance(value, x509.SubjectAlternativeName):
            name = "X509v3 Subject Alternative Name"
            text = ", ".join(f"{type(n).__name__}:{getattr(n, 'value', n)}" for n in value)
        elif isinstance(value, x509.CRLNumber):
            name, text = "X509v3 CRL Number", str(value.crl_number)
        else:
            name, text = ext.oid, f"{len(value.value)} bytes"
        lines += [f"            {name}:{crit}", f"                {text}"]
    return lines


def show(path: str) -> int:
    """Print a certificate, request or CRL as ``openssl x509 -text`` does."""
    kind, obj = _detect(path)
    lines: list[str] = []
    if kind == "certificate":
        lines += [
            "Certificate:",
            "    Data:",
            f"        Version: {obj.version} (0x{obj.version - 1:x})",
            f"        Serial Number: {obj.serial_number:#x}",
            f"        Signature Algorithm: {obj.signature_algorithm_name}",
            f"        Issuer: {obj.issuer.rfc4514_string()}",
            "        Validity",
            f"            Not Before: {obj.not_valid_before_utc:%b %d %H:%M:%S %Y} GMT",
            f"            Not After : {obj.not_valid_after_utc:%b %d %H:%M:%S %Y} GMT",
            f"        Subject: {obj.subject.rfc4514_string()}",
            "        Subject Public Key Info:",
            *_describe_key(obj.public_key(), obj.public_key_bytes),
        ]
    elif kind == "request":
        lines += [
            "Certificate Request:",
            "    Data:",
            "        Version: 1 (0x0)",
            f"        Subject: {obj.subject.rfc4514_string()}",
            "        Subject Public Key Info:",
            *_describe_key(obj.public_key(), obj.public_key_bytes),
        ]
        statement = obj.possession_statement
        if statement is not None:
            lines += [
                "        Attributes:",
                "            statementOfPossession (RFC 9883): signer certificate "
                f"{statement[1]:#x} of {statement[0].rfc4514_string()}",
            ]
    else:
        lines += [
            "Certificate Revocation List (CRL):",
            "        Version 2 (0x1)",
            f"        Signature Algorithm: {obj.signature_algorithm_name}",
            f"        Issuer: {obj.issuer.rfc4514_string()}",
            f"        Last Update: {obj.last_update_utc:%b %d %H:%M:%S %Y} GMT",
            f"        Next Update: {obj.next_update_utc:%b %d %H:%M:%S %Y} GMT"
            if obj.next_update_utc
            else "        Next Update: NONE",
        ]
    if len(obj.extensions):
        lines += _describe_extensions(obj.extensions)
    if kind == "CRL":
        lines.append("Revoked Certificates:" if len(obj) else "No Revoked Certificates.")
        for entry in obj:
            lines += [
                f"    Serial Number: {entry.serial_number:#x}",
                f"        Revocation Date: {entry.revocation_date_utc:%b %d %H:%M:%S %Y} GMT",
            ]
    signature = obj.signature
    lines.append(f"    Signature Algorithm: {obj.signature_algorithm_name}")
    lines.append(f"    Signature Value: ({len(signature)} bytes)")
    lines += _block(signature[:36], "        ")
    if len(signature) > 36:
        lines.append(f"        ... ({len(signature) - 36} more bytes)")
    print("\n".join(lines))
    return OK


# --- the parsers -----------------------------------------------------------------------


def _parser(subparsers: Any, name: str, help_text: str, extra: str) -> Any:
    return subparsers.add_parser(
        name,
        help=help_text,
        description=help_text[0].upper() + help_text[1:] + ".",
        epilog=f"{extra}\n\n{EPILOG}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("-out", dest="out", required=True, metavar="FILE", help="output ('-': stdout)")
    p.add_argument("-outform", choices=("PEM", "DER"), default="PEM", help="default: PEM")
    p.add_argument("-passin", dest="passin", metavar="SOURCE", help="pass:TEXT, env:VAR, file:PATH")
    p.set_defaults(password_file=None)
    p.add_argument("-force", "--force", dest="force", action="store_true", help="overwrite outputs")


def _certificate_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("-days", type=int, default=365, help="validity in days (default 365)")
    p.add_argument("-not_before", metavar="TIME", help="YYYYMMDDHHMMSSZ (default: now)")
    p.add_argument("-not_after", metavar="TIME", help="YYYYMMDDHHMMSSZ (default: + -days)")
    p.add_argument("-set_serial", type=int, metavar="N", help="serial (default: 159 random bits)")
    p.add_argument("-ca", action="store_true", help="a CA: basicConstraints cA, keyCertSign")
    p.add_argument("-pathlen", type=int, metavar="N", help="with -ca: pathLenConstraint")
    p.add_argument(
        "-keyusage", metavar="LIST", help=f"comma-separated: {', '.join(_KEY_USAGE_NAMES)}"
    )
    p.add_argument("-eku", metavar="LIST", help=f"comma-separated: {', '.join(_EKU_NAMES)}, OIDs")
    p.add_argument("-san", action="append", metavar="TYPE:VALUE", help="DNS:, email:, URI:")


def register(subparsers: Any) -> None:
    """Add req, x509, crl and verify-cert to ``pqkit``."""
    p = _parser(
        subparsers,
        "req",
        "a certificate request (PKCS#10) for a key file or a new key",
        "A KEM key (ML-KEM, composite ML-KEM, FrodoKEM) cannot sign: its request is "
        "signed by -signkey, whose certificate -signcert (same subject) is named in "
        "the request's statementOfPossession attribute (RFC 9883).",
    )
    p.add_argument("-key", metavar="KEY", help="the private key to request a certificate for")
    p.add_argument("-newkey", metavar="ALG", help="generate a key of this algorithm")
    p.add_argument("-keyout", metavar="FILE", help="with -newkey: the new private key file")
    p.add_argument("-subj", required=True, metavar="NAME", help="/CN=x/O=y or CN=x,O=y")
    p.add_argument("-signkey", metavar="KEY", help="KEM requests: the signing key (RFC 9883)")
    p.add_argument("-signcert", metavar="CERT", help="KEM requests: its certificate")
    _common(p)
    p.set_defaults(func=cmd_req)

    p = _parser(
        subparsers,
        "x509",
        "a certificate: self-signed (-new) or for a request, signed by a CA",
        "Defaults: a CA (-ca) gets keyCertSign and cRLSign, a KEM key keyEncipherment "
        "alone (RFC 9935), any other key digitalSignature; SKI and AKI always.",
    )
    p.add_argument("-new", action="store_true", help="self-signed, for -key")
    p.add_argument("-key", metavar="KEY", help="with -new: the private key")
    p.add_argument("-subj", metavar="NAME", help="subject (with -in: replaces the request's)")
    p.add_argument("-in", "-req", dest="req", metavar="REQ", help="the request to certify")
    p.add_argument("-CA", dest="CA", metavar="CERT", help="the issuer's certificate")
    p.add_argument("-CAkey", dest="CAkey", metavar="KEY", help="the issuer's private key")
    _certificate_options(p)
    _common(p)
    p.set_defaults(func=cmd_x509)

    p = _parser(subparsers, "crl", "a CRL (RFC 5280 §5) signed by a CA", "")
    p.add_argument("-CA", dest="CA", required=True, metavar="CERT", help="the CA certificate")
    p.add_argument("-CAkey", dest="CAkey", required=True, metavar="KEY", help="its private key")
    p.add_argument("-revoke", action="append", metavar="CERT", help="a certificate to revoke")
    p.add_argument("-days", type=int, default=30, help="until the next update (default 30)")
    p.add_argument("-crlnumber", type=int, default=1, help="cRLNumber (default 1)")
    _common(p)
    p.set_defaults(func=cmd_crl)

    p = _parser(
        subparsers,
        "verify-cert",
        "verify certificate chains, as openssl verify does",
        "Prints 'FILE: OK' per certificate; exit status 1 with the certificate and the "
        "check that failed otherwise. (pqkit verify checks signatures over files.)",
    )
    p.add_argument("certificates", nargs="+", metavar="CERT", help="certificate files")
    p.add_argument("-CAfile", dest="CAfile", required=True, metavar="FILE", help="trust anchors")
    p.add_argument("-untrusted", action="append", metavar="FILE", help="intermediates")
    p.add_argument("-CRLfile", dest="CRLfile", action="append", metavar="FILE", help="CRLs")
    p.add_argument("-crl_check_all", action="store_true", help="every issuer needs a CRL")
    p.add_argument("-attime", type=int, metavar="EPOCH", help="validate at this time")
    p.add_argument("-purpose", metavar="EKU", help="serverAuth, clientAuth, ... or an OID")
    p.set_defaults(func=cmd_verify_cert)

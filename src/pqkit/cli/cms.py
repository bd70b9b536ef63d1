"""``pqkit cms sign|verify|encrypt|decrypt``: CMS messages on files, like ``openssl cms``.

Input is read in any form (DER, BER, PEM, S/MIME; ``multipart/signed`` for a
detached signature); output is DER (default), PEM or S/MIME (``--outform``). A
detached content (``sign --detached``, ``verify --content``) is hashed in chunks:
memory is bounded by the chunk size, not by the file.
"""

from __future__ import annotations

import argparse
import contextlib
import os
from typing import Any

from pqkit.cli.files import check_outputs, open_input, read_input, write_output
from pqkit.cli.loading import load_private
from pqkit.cli.status import OK, Failure

__all__ = ["register"]

_FORMS = ("DER", "PEM", "SMIME")
_CERT_LIMIT = 1 << 20


def _message_limit() -> int:
    from pqkit.cms._asn1 import MAX_INPUT

    return 2 * MAX_INPUT


def _certificates(paths: list[str] | None) -> list[Any]:
    """Every certificate of the PEM or DER files ``paths``."""
    from pqkit import x509

    out: list[Any] = []
    for path in paths or []:
        data = read_input(path, "certificate file", _CERT_LIMIT)
        try:
            if b"-----BEGIN" in data:
                out.extend(x509.load_pem_x509_certificates(data))
            else:
                out.append(x509.load_der_x509_certificate(data))
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from None
    return out


def _write(args: argparse.Namespace, der: bytes, smime_type: str) -> None:
    from pqkit.cms import smime

    form = args.outform.upper()
    if form == "PEM":
        out, binary = smime.to_pem(der), False
    elif form == "SMIME":
        out, binary = smime.to_smime(der, smime_type), False
    else:
        out, binary = der, True
    write_output(args.output, out, secret=False, force=args.force, binary=binary)


def _sign(args: argparse.Namespace) -> int:
    from pqkit import cms

    certs = _certificates(args.signer)
    if len(args.inkey) != len(certs):
        raise ValueError("give one --inkey for each --signer certificate, in the same order")
    check_outputs([args.output], args.force, [args.input])
    signers = [
        cms.Signer(load_private(path, args).key, cert, key_identifier=args.keyid)
        for path, cert in zip(args.inkey, certs, strict=True)
    ]
    options: dict[str, Any] = {
        "include_certificates": not args.nocerts,
        "certificates": _certificates(args.certfile),
        "signed_attributes": not args.noattr,
    }
    if args.detached:
        with open_input(args.input, "content") as source:
            der = cms.sign(source, signers, detached=True, **options)
        if args.outform == "SMIME":
            # RFC 8551 §3.5.3: a detached signature travels in multipart/signed with
            # its content, so the content is read (bounded) once more here.
            content = read_input(args.input, "content", _message_limit() // 2)
            _write_multipart(args, content, der, [s.private_key for s in signers])
            return OK
    else:
        content = read_input(args.input, "content", _message_limit() // 2)
        der = cms.sign(content, signers, **options)
    _write(args, der, "signed-data")
    return OK


def _write_multipart(args: argparse.Namespace, content: bytes, der: bytes, keys: list[Any]) -> None:
    """``multipart/signed`` with ``micalg`` the signers' digests (RFC 8551 §3.4.3.2)."""
    from pqkit.cms import smime
    from pqkit.cms.digests import for_key

    names = {"SHA2-256": "sha-256", "SHA2-384": "sha-384", "SHA2-512": "sha-512"}
    micalg = ",".join(dict.fromkeys(names.get(for_key(k).name, "unknown") for k in keys))
    boundary = os.urandom(12).hex().encode()
    out = smime.to_smime_multipart(content, der, micalg, boundary)
    write_output(args.output, out, secret=False, force=args.force, binary=False)


def _verify(args: argparse.Namespace) -> int:
    from pqkit import cms
    from pqkit.cms import smime

    data = read_input(args.input, "CMS message", _message_limit())
    check_outputs([args.output] if args.output else [], args.force, [args.input])
    content: Any = None
    if b"multipart/signed" in data[:4096].lower():
        parts = smime.split_multipart_signed(data)
        message, content = parts.signature, parts.content
    else:
        message = smime.read(data)
    trust = _certificates(args.CAfile) if args.CAfile else None
    if trust is None and not args.noverify:
        raise ValueError("give the trust anchors with --CAfile, or --noverify")
    with contextlib.ExitStack() as stack:
        if args.content:
            if content is not None:
                raise ValueError("a multipart/signed message carries its content")
            content = stack.enter_context(open_input(args.content, "content"))
        try:
            found = cms.verify(
                message,
                content=content,
                certificates=_certificates(args.certfile),
                trust=trust,
                unverified_chain=trust is None,
            )
        except cms.SignedDataError as exc:
            raise Failure(f"Verification failure: {exc}") from None
    for signer in found.signers:
        print(f"signer: {signer.certificate.subject.rfc4514_string()}", file=_stderr())
    print("Verification successful", file=_stderr())
    if args.output and found.content is not None:
        write_output(args.output, found.content, secret=False, force=args.force, binary=True)
    return OK


def _stderr() -> Any:
    import sys

    return sys.stderr


def _encrypt(args: argparse.Namespace) -> int:
    from pqkit import cms

    recipients = _certificates(args.recip)
    if not recipients:
        raise ValueError("give at least one --recip certificate")
    check_outputs([args.output], args.force, [args.input])
    content = read_input(args.input, "content", _message_limit() // 2)
    ukm = args.ukm.encode() if args.ukm is not None else None
    der = cms.encrypt(
        content, recipients, cipher=args.cipher, kdf=args.kdf, wrap=args.wrap, ukm=ukm
    )
    kind = "authEnveloped-data" if args.cipher.endswith("GCM") else "enveloped-data"
    _write(args, der, kind)
    return OK


def _decrypt(args: argparse.Namespace) -> int:
    from pqkit import cms
    from pqkit.cms import smime

    check_outputs([args.output], args.force, [args.input, args.inkey])
    key = load_private(args.inkey, args).key
    certs = _certificates([args.recip] if args.recip else None)
    data = smime.read(read_input(args.input, "CMS message", _message_limit()))
    try:
        plain = cms.decrypt(data, key, certs[0] if certs else None)
    except cms.DecryptionError as exc:
        raise Failure(str(exc)) from None
    write_output(args.output, plain, secret=True, force=args.force, binary=True)
    return OK


def _io(p: argparse.ArgumentParser, *, outform: bool = True, output: str | None = "-") -> None:
    p.add_argument("-i", "--in", dest="input", default="-", help="input file ('-': stdin)")
    p.add_argument("-o", "--out", dest="output", default=output, help="output file ('-': stdout)")
    if outform:
        p.add_argument(
            "--outform", type=str.upper, choices=_FORMS, default="DER", help="DER, PEM or SMIME"
        )
    p.add_argument("--force", action="store_true", help="overwrite an existing output file")


def register(subparsers: Any) -> None:
    """Add ``pqkit cms`` to the command."""
    parser = subparsers.add_parser(
        "cms", help="CMS (RFC 5652) signed and encrypted messages with PQ keys"
    )
    commands = parser.add_subparsers(dest="cms_command", metavar="ACTION", required=True)
    sign = commands.add_parser("sign", help="SignedData of a file (attached or --detached)")
    sign.add_argument("--signer", action="append", required=True, help="signer certificate")
    sign.add_argument("--inkey", action="append", required=True, help="signer private key")
    sign.add_argument("--passin", help="password source for an encrypted key (pass:, env:, file:)")
    sign.add_argument("--detached", action="store_true", help="leave the content out (streamed)")
    sign.add_argument("--nocerts", action="store_true", help="leave the signer certificates out")
    sign.add_argument("--noattr", action="store_true", help="no signed attributes")
    sign.add_argument("--keyid", action="store_true", help="name signers by key identifier")
    sign.add_argument("--certfile", action="append", help="more certificates to include")
    _io(sign)
    sign.set_defaults(func=_sign)
    verify = commands.add_parser("verify", help="verify a SignedData (any form)")
    verify.add_argument("--CAfile", action="append", help="trust anchor certificates")
    verify.add_argument("--noverify", action="store_true", help="do not check certificate paths")
    verify.add_argument("--content", help="the detached content file (streamed)")
    verify.add_argument("--certfile", action="append", help="more certificates (signers, CAs)")
    _io(verify, outform=False, output=None)
    verify.set_defaults(func=_verify)
    encrypt = commands.add_parser("encrypt", help="encrypt a file to KEM recipient certificates")
    encrypt.add_argument("--recip", action="append", required=True, help="recipient certificate")
    encrypt.add_argument(
        "--cipher", default="AES-256-GCM", type=str.upper, help="AES-128/192/256-GCM or -CBC"
    )
    encrypt.add_argument("--kdf", default="HKDF-SHA256", type=str.upper, help="HKDF-SHA256/384/512")
    encrypt.add_argument("--wrap", default="AES-256-WRAP", type=str.upper, help="AES-*-WRAP")
    encrypt.add_argument("--ukm", help="user keying material (text)")
    _io(encrypt)
    encrypt.set_defaults(func=_encrypt)
    decrypt = commands.add_parser("decrypt", help="decrypt an EnvelopedData / AuthEnvelopedData")
    decrypt.add_argument("--inkey", required=True, help="the recipient's private key")
    decrypt.add_argument("--recip", help="the recipient's certificate (to pick its recipient)")
    decrypt.add_argument("--passin", help="password source for an encrypted key")
    _io(decrypt, outform=False)
    decrypt.set_defaults(func=_decrypt)

"""``pqkit`` with SLH-DSA key files: keygen, sign and verify (pure and HashSLH-DSA),
show, and the single private-key form of RFC 9909."""

from __future__ import annotations

from pathlib import Path

from helpers import Cli


def test_sign_verify_pure_and_prehash(cli: Cli) -> None:
    cli.ok("keygen", "SLH-DSA-SHAKE-128f", "-o", "k.pem", "--pub", "p.pem")
    Path("msg").write_bytes(b"a message" * 1000)
    cli.ok("sign", "k.pem", "msg", "-o", "s.bin", "--context", "c0ffee")
    assert b"signature valid" in cli.ok("verify", "p.pem", "msg", "s.bin", "--context", "c0ffee")
    assert cli.run("verify", "p.pem", "msg", "s.bin")[0] == 1  # other context
    cli.ok("sign", "k.pem", "msg", "-o", "h.bin", "--prehash", "SHAKE-128")
    assert b"valid" in cli.ok("verify", "k.pem", "msg", "h.bin", "--prehash", "SHAKE-128")
    assert cli.run("verify", "p.pem", "msg", "h.bin")[0] == 1  # pure check of a pre-hash sig
    Path("msg").write_bytes(b"another message")
    assert cli.run("verify", "p.pem", "msg", "s.bin", "--context", "c0ffee")[0] == 1


def test_show_and_single_form(cli: Cli) -> None:
    cli.ok("keygen", "SLH-DSA-SHA2-128f", "-o", "k.pem")
    out = cli.ok("show", "k.pem").decode()
    assert "SLH-DSA-SHA2-128f (OID 2.16.840.1.101.3.4.3.21)" in out
    assert "single (RFC 9909 raw sk)" in out and "private key:  64 bytes" in out
    cli.fails("keygen", "SLH-DSA-SHA2-128f", "-o", "k2.pem", "--form", "both", match="single form")
    cli.fails("keygen", "SLH-DSA-SHA2-128f", "-o", "k3.pem", "--form", "expanded", match="single")

"""``pqkit kat``: NIST known-answer-test (``.rsp``) text for any KEM or signature scheme.

The NIST round-3 KAT procedure (shared/vectors/NIST-KAT-FORMAT.md §2-5): an outer
CTR_DRBG seeded with the bytes 0x00..0x2F hands out, per entry i, a 48-byte seed
(and for signatures then a message of 33 (i + 1) bytes); each entry runs the scheme
with a fresh :class:`pqkit.common.CtrDrbg` on that seed as ``rng``. A family
whose KATs use other randomness names its generator in its scheme's ``KAT_RNG``
(HQC: a SHAKE256 PRNG, for the outer generator as for each entry's). KEM entries:
keygen, encaps, and a decaps check; signature entries: keygen, sign (deterministic
unless ``randomized``), and a verify check. The text is byte for byte what NIST's
generators print: a ``# <name>`` header line, an empty line, then each entry's
lines followed by an empty line, hex in upper case.

Only the scheme API is used (``keygen(rng=)``, ``encaps(pk, rng=)``,
``sign(sk, msg, rng=, deterministic=)``), so the randomness each scheme asks for,
and its split into requests, decides the output: the round-3 schemes reproduce the
NIST KATs, ML-KEM (d || z in one 64-byte request) and ML-DSA (``randomized``: the
hedged rnd) reproduce liboqs's (tests/test_liboqs_kats.py).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Iterator
from typing import Any, cast

import pqkit
from pqkit.cli.args import non_negative_int
from pqkit.common import CtrDrbg
from pqkit.errors import UnknownAlgorithm
from pqkit.schemes import Kem, Signature

__all__ = ["KAT_ENTROPY", "entries", "generator", "register", "rsp", "scheme"]

KAT_ENTROPY = bytes(range(48))
"""The entropy input of the outer DRBG of NIST's PQCgenKAT_kem.c / PQCgenKAT_sign.c."""


def scheme(name: str) -> Kem | Signature:
    """The KEM or signature scheme called ``name``."""
    try:
        return pqkit.kem(name)
    except UnknownAlgorithm:
        pass
    try:
        return pqkit.sig(name)
    except UnknownAlgorithm:
        raise UnknownAlgorithm(name, pqkit.kems() + pqkit.sigs()) from None


def generator(alg: Kem | Signature) -> Callable[[bytes], Any]:
    """The KAT randomness of ``alg``: the class its scheme names in ``KAT_RNG``
    (``"module:Class"``, e.g. HQC's SHAKE256 PRNG), else NIST's CTR_DRBG. It is
    called with 48 bytes of entropy and then as ``rng(n) -> bytes``."""
    path = getattr(alg, "KAT_RNG", None)
    if path is None:
        return CtrDrbg
    module, _, name = str(path).partition(":")
    return cast(Callable[[bytes], Any], getattr(importlib.import_module(module), name))


def _line(field: str, value: bytes | int) -> str:
    text = str(value) if isinstance(value, int) else value.hex().upper()
    return f"{field} = {text}\n"


def entries(alg: Kem | Signature, count: int = 100, *, randomized: bool = False) -> Iterator[str]:
    """The text of KAT entries 0 .. count-1 (each entry's lines, without the empty
    line that follows it). Raises ``RuntimeError`` if a decapsulation or a
    verification disagrees (the generator would then be writing a wrong KAT)."""
    if not isinstance(count, int) or isinstance(count, bool):
        raise TypeError(f"count must be an int, not {type(count).__name__}")
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    rng = generator(alg)
    outer = rng(KAT_ENTROPY)
    is_kem = isinstance(alg, Kem)
    for i in range(count):
        seed = outer(48)
        drbg = rng(seed)
        text = _line("count", i) + _line("seed", seed)
        if is_kem:
            kem: Any = alg
            pk, sk = kem.keygen(rng=drbg)
            ss, ct = kem.encaps(pk, rng=drbg)
            if kem.decaps(sk, ct) != ss:
                raise RuntimeError(f"{kem.name}: KAT entry {i}: decapsulation disagrees")
            text += _line("pk", pk) + _line("sk", sk) + _line("ct", ct) + _line("ss", ss)
        else:
            dsa: Any = alg
            mlen = 33 * (i + 1)
            msg = outer(mlen)
            pk, sk = dsa.keygen(rng=drbg)
            # a scheme with no deterministic mode (Falcon) always signs randomised
            deterministic = not randomized and getattr(dsa, "HAS_DETERMINISTIC", True)
            sig = dsa.sign(sk, msg, rng=drbg, deterministic=deterministic)
            if not dsa.verify(pk, msg, sig):
                raise RuntimeError(f"{dsa.name}: KAT entry {i}: signature does not verify")
            # the reference's crypto_sign layout where it is not sig || msg (Falcon)
            layout = getattr(dsa, "kat_signed_message", None)
            sm = layout(sig, msg) if layout is not None else sig + msg
            text = (
                _line("count", i)
                + _line("seed", seed)
                + _line("mlen", mlen)
                + _line("msg", msg)
                + _line("pk", pk)
                + _line("sk", sk)
                + _line("smlen", len(sm))
                + _line("sm", sm)
            )
        yield text


def rsp(name: str, count: int = 100, *, randomized: bool = False) -> Iterator[str]:
    """The whole ``.rsp`` text in pieces: header, empty line, entries each followed by
    an empty line."""
    alg = scheme(name)
    yield f"# {alg.name}\n\n"
    for entry in entries(alg, count, randomized=randomized):
        yield entry + "\n"


def _run(args: argparse.Namespace) -> int:
    from pqkit.cli.progress import track

    try:
        alg = scheme(args.algorithm)  # every argument is checked before anything is written
    except UnknownAlgorithm as exc:
        raise ValueError(str(exc)) from None  # the CLI prints a KeyError's name only
    out = sys.stdout
    pieces = rsp(alg.name, args.count, randomized=args.randomized)
    out.write(next(pieces))  # the header
    for piece in track(pieces, args.count, f"KAT {alg.name}", unit="entry"):
        out.write(piece)
    out.flush()
    return 0


def register(subparsers: Any) -> None:
    """Add ``pqkit kat`` to the command line."""
    from pqkit.cli.status import EPILOG

    parser = subparsers.add_parser(
        "kat",
        help="write the NIST KAT (.rsp) text of a scheme to stdout",
        description=(
            "Write the NIST known-answer-test .rsp text for ALG to stdout, byte for byte "
            "as NIST's PQCgenKAT generators print it (CTR_DRBG randomness). A progress "
            "bar shows on stderr when it is a terminal and tqdm is installed."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("algorithm", metavar="ALG", help="scheme name, e.g. Kyber768")
    parser.add_argument(
        "--count",
        type=non_negative_int("count"),
        default=100,
        metavar="N",
        help="number of entries (default 100)",
    )
    parser.add_argument(
        "--randomized",
        action="store_true",
        help="signatures: randomized signing (round 3: 64-byte rho' from the DRBG; "
        "FIPS 204: hedged with rnd from the DRBG); default deterministic",
    )
    parser.set_defaults(func=_run)

"""The gate every family goes through: ``pqkit kat ALG`` reproduces liboqs's
known-answer text, entry 0, for every algorithm pqkit knows that liboqs lists.

tests/vectors/liboqs-kats/kats-single.json.gz holds liboqs's SHA-256 of entry 0 of
each algorithm's KAT text (the .rsp body without its ``# ALG`` header, the empty
line after it, and the empty line after the entry; README there). The algorithms
are matched by name (``pqkit.registry.normalise``), so a new family is checked as
soon as the registry lists it; a family whose liboqs name differs adds it to
``LIBOQS_NAMES``, and one whose liboqs generator signs in another way adds its
``pqkit kat`` options to ``KAT_OPTIONS``.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from helpers import Cli, load_json

import pqkit
from pqkit import registry
from pqkit._extras import installed

LIBOQS = load_json("liboqs-kats/kats-single.json")

LIBOQS_NAMES: dict[str, str] = {}
"""pqkit name -> liboqs name, where they differ beyond case, '-' and '_'."""

KAT_OPTIONS: dict[str, tuple[str, ...]] = {
    # liboqs's ML-DSA (mldsa-native) signs hedged: rnd from the DRBG, empty context.
    "ML-DSA": ("--randomized",),
}
"""Family -> the ``pqkit kat`` options that make its generator liboqs's."""


def _liboqs_digests() -> dict[str, tuple[str, str]]:
    """normalised liboqs name -> (liboqs name, digest), KEMs and signatures."""
    return {
        registry.normalise(name): (name, digest)
        for kind in ("kem", "sig")
        for name, digest in LIBOQS[kind].items()
    }


def _common() -> list[tuple[str, str, str]]:
    """(pqkit name, liboqs name, digest) of every algorithm both know."""
    digests = _liboqs_digests()
    out = []
    for name in pqkit.kems() + pqkit.sigs():
        key = registry.normalise(LIBOQS_NAMES.get(name, name))
        if key in digests:
            out.append((name, *digests[key]))
    return out


COMMON = _common()

SLOW_FAMILIES = {"Classic McEliece"}
"""Families whose larger sets take long in Python: only their smallest set (its
plain and ``f`` variants) runs by default, the rest under ``-m slow``."""
FAST_IN_SLOW_FAMILIES = {"Classic-McEliece-348864", "Classic-McEliece-348864f"}


def _params() -> list[Any]:
    out = []
    for name, liboqs_name, digest in COMMON:
        slow = registry.algorithm(name).family in SLOW_FAMILIES
        marks = [pytest.mark.slow] if slow and name not in FAST_IN_SLOW_FAMILIES else []
        out.append(pytest.param(name, liboqs_name, digest, id=name, marks=marks))
    return out


MCELIECE_SIZES = ("348864", "460896", "6688128", "6960119", "8192128")


def test_the_gate_covers_the_families_liboqs_shares() -> None:
    names = {name for name, _, _ in COMMON}
    # the floor: a renamed algorithm on either side must not drop out silently
    assert names >= {
        "ML-KEM-512", "ML-KEM-768", "ML-KEM-1024",
        "Kyber512", "Kyber768", "Kyber1024",
        "ML-DSA-44", "ML-DSA-65", "ML-DSA-87",
        *(f"Classic-McEliece-{s}{v}" for s in MCELIECE_SIZES for v in ("", "f")),
    }  # fmt: skip


@pytest.mark.parametrize(("name", "liboqs_name", "digest"), _params())
def test_pqkit_kat_reproduces_liboqs_entry_0(
    name: str,
    liboqs_name: str,
    digest: str,
    cli: Cli,
) -> None:
    algorithm = registry.algorithm(name)
    if algorithm.extra is not None and not installed(algorithm.extra):
        pytest.skip(f"{name} needs the {algorithm.extra!r} extra, not installed here")
    out = cli.ok("kat", name, "--count", "1", *KAT_OPTIONS.get(algorithm.family, ()))
    text = out.decode("ascii")
    header = f"# {name}\n\n"
    assert text.startswith(header) and text.endswith("\n\n")
    body = text[len(header) : -1]  # liboqs's text: no header, no empty line after the entry
    assert hashlib.sha256(body.encode()).hexdigest() == digest, f"{name} != liboqs {liboqs_name}"

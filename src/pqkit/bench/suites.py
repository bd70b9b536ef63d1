"""What each ``pqkit speed`` subcommand times: the groups of operations.

- :func:`kem_groups`: keygen / encaps / decaps per KEM (liboqs ``speed_kem``);
- :func:`sig_groups`: keypair / sign / verify per signature scheme (``speed_sig``);
- :func:`common_groups`: each symmetric primitive on each backend (``speed_common``).

The kernel timings live in :mod:`pqkit.bench.kernels`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

import pqkit
from pqkit import common
from pqkit.bench.keyring import KEY_RING, ONE_KEY, RING_BUDGET_S, cycling, make_ring
from pqkit.bench.runner import Group, Operation
from pqkit.schemes import Kem, Signature

__all__ = [
    "KEYS",
    "MESSAGE",
    "batch_groups",
    "common_groups",
    "deterministic_bytes",
    "kem_groups",
    "scheme_info",
    "sig_groups",
]

_E = TypeVar("_E")

MESSAGE = bytes(range(50))
"""The message signed and verified: 50 bytes, the length liboqs's ``speed_sig`` uses."""


def deterministic_bytes(label: str, n: int) -> bytes:
    """``n`` fixed, arbitrary-looking bytes for benchmark inputs (never for keys in use)."""
    return hashlib.shake_256(label.encode()).digest(n)


def scheme_info(scheme: Kem | Signature) -> dict[str, Any]:
    """The sizes and claimed NIST level of a scheme, for ``--info`` and the JSON."""
    names = (
        "claimed_nist_level",
        "length_public_key",
        "length_secret_key",
        "length_ciphertext",
        "length_shared_secret",
        "length_signature",
    )
    return {n: getattr(scheme, n) for n in names if hasattr(scheme, n)}


KEYS = ("both", "fresh", "one")
"""``--keys`` choices: the fresh-key rows and the one-key rows (the default), or one
kind alone."""


def _with_keys(
    keygen: Operation, keys: str, fresh: list[Operation], one: list[Operation]
) -> list[Operation]:
    """Key generation, the fresh-key operations, then the one-key ones, as ``keys``
    asks."""
    if keys not in KEYS:
        raise ValueError(f"keys must be one of {', '.join(KEYS)}, got {keys!r}")
    return [keygen, *(fresh if keys != "one" else []), *(one if keys != "fresh" else [])]


def kem_groups(
    schemes: list[Kem], *, fullcycle: bool = False, keys: str = "both", ring: int = KEY_RING
) -> list[Group]:
    """keygen, encaps, decaps (or one keygen+encaps+decaps row) per KEM.

    encaps and decaps meet a fresh key every call (``ring`` key pairs made
    beforehand, cycled through: see :mod:`pqkit.bench.keyring`); the rows
    ``encaps (one key)`` and ``decaps (one key)`` reuse one key pair."""

    def build(kem: Kem) -> list[Operation]:
        if fullcycle:

            def cycle() -> bytes:
                pk, sk = kem.keygen()
                _, ct = kem.encaps(pk)
                return kem.decaps(sk, ct)

            return [Operation("fullcycle", cycle)]

        def triple() -> tuple[bytes, bytes, bytes]:
            pk, sk = kem.keygen()
            return pk, sk, kem.encaps(pk)[1]

        def keyed(entry: Entry, label: str) -> list[Operation]:
            return [
                Operation(f"encaps{label}", lambda: kem.encaps(entry()[0])),
                Operation(f"decaps{label}", lambda: kem.decaps(*entry()[1:])),
            ]

        return _ring_operations(
            kem.name, triple, Operation("keygen", kem.keygen), keyed, keys, ring
        )

    return [Group(kem.name, _bind(build, kem)) for kem in schemes]


def sig_groups(
    schemes: list[Signature],
    *,
    fullcycle: bool = False,
    keys: str = "both",
    ring: int = KEY_RING,
) -> list[Group]:
    """keypair, sign, verify (or one keypair+sign+verify row) per signature scheme,
    on the 50-byte :data:`MESSAGE` with an empty context, hedged signing; sign and
    verify meet a fresh key every call (``ring`` key pairs, cycled through), the
    ``(one key)`` rows reuse one key pair."""

    def build(dsa: Signature) -> list[Operation]:
        if getattr(dsa, "stateful", False) and not fullcycle:
            return _stateful_operations(dsa)
        if fullcycle:

            def cycle() -> bool:
                pk, sk = dsa.keygen()
                return dsa.verify(pk, MESSAGE, dsa.sign(sk, MESSAGE))

            return [Operation("fullcycle", cycle)]

        def triple() -> tuple[bytes, bytes, bytes]:
            pk, sk = dsa.keygen()
            signature = dsa.sign(sk, MESSAGE)
            if not dsa.verify(pk, MESSAGE, signature):
                raise ValueError(f"{dsa.name}: a fresh signature did not verify")
            return pk, sk, signature

        def keyed(entry: Entry, label: str) -> list[Operation]:
            return [
                Operation(f"sign{label}", lambda: dsa.sign(entry()[1], MESSAGE)),
                Operation(f"verify{label}", lambda: _verify(dsa, entry())),
            ]

        return _ring_operations(
            dsa.name, triple, Operation("keypair", dsa.keygen), keyed, keys, ring
        )

    return [Group(dsa.name, _bind(build, dsa)) for dsa in schemes]


Entry = Callable[[], tuple[bytes, bytes, bytes]]
"""The next (public key, secret key, ciphertext or signature) of a key ring."""


def _ring_operations(
    name: str,
    triple: Entry,
    first: Operation,
    keyed: Callable[[Entry, str], list[Operation]],
    keys: str,
    ring: int,
) -> list[Operation]:
    """``first`` (key generation), then the operations ``keyed`` builds on a fresh key
    of a ring of ``ring`` entries made by ``triple`` every call, and (labelled
    ``(one key)``) on one key reused: those ``keys`` asks for."""
    keyring = make_ring(triple, name, size=ring if keys != "one" else 1, budget=RING_BUDGET_S)
    fresh, one = cycling(keyring), cycling(keyring[:1])
    return _with_keys(first, keys, keyed(fresh, ""), keyed(one, f" ({ONE_KEY})"))


def _stateful_operations(dsa: Any) -> list[Operation]:
    """keypair, sign, verify of a stateful scheme (LMS, XMSS): its key is an object
    whose indices run out, so signing uses one key held in memory (no fsync timed)
    and makes a new one when it is exhausted (the median leaves that call out);
    ``keys`` does not apply."""
    held: list[Any] = []

    def sign() -> bytes:
        if not held or held[0][1].remaining() == 0:
            held[:] = [dsa.keygen()]
        signature: bytes = dsa.sign(held[0][1], MESSAGE)
        return signature

    last = {"sig": sign()}

    def verify() -> bool:
        ok: bool = dsa.verify(held[0][0], MESSAGE, last["sig"])
        return ok

    return [
        Operation("keypair", dsa.keygen),
        Operation("sign", lambda: last.update(sig=sign())),
        Operation("verify", verify),
    ]


def _verify(dsa: Signature, entry: tuple[bytes, bytes, bytes]) -> bool:
    return dsa.verify(entry[0], MESSAGE, entry[2])


def batch_groups(
    schemes: list[Any], kind: str, n: int, *, keys: str = "both", ring: int = KEY_RING
) -> list[Group]:
    """The batch view's operations on ``n`` rows per call (``pqkit speed --batch N``):
    keygen / encaps / decaps of a KEM, or keypair / sign / verify of a signature
    scheme (``n`` different keys, the 50-byte :data:`MESSAGE`, hedged signing). Each
    call handles ``n`` items; the report divides by ``n`` for the per-item figures.

    Fresh keys: successive calls cycle through enough sets of ``n`` key pairs that
    at least ``ring`` different keys go by before one comes back; the
    ``(one key)`` rows use one key on every row of every call (broadcast by the
    view for decapsulation, signing and verification; ``n`` copies of it for
    encapsulation): a server with one key."""

    def build(scheme: Any) -> list[Operation]:
        view = scheme.batch
        sets = -(-ring // n)
        if kind == "kem":

            def kem_set() -> tuple[Any, Any, Any]:
                pks, sks = view.keygen(n)
                return pks, sks, view.encaps(pks)[1]

            def kem_one() -> tuple[Any, Any, Any]:
                pk, sk = view.keygen(1)
                pks = np.repeat(pk, n, axis=0)
                return pks, sk[0], view.encaps(pks)[1]

            fresh = _ring(kem_set, scheme.name, sets, keys != "one")
            one = cycling([kem_one()]) if keys != "fresh" else fresh
            return _with_keys(
                Operation("keygen", lambda: view.keygen(n)),
                keys,
                [
                    Operation("encaps", lambda: view.encaps(fresh()[0])),
                    Operation("decaps", lambda: view.decaps(*fresh()[1:])),
                ],
                [
                    Operation(f"encaps ({ONE_KEY})", lambda: view.encaps(one()[0])),
                    Operation(f"decaps ({ONE_KEY})", lambda: view.decaps(*one()[1:])),
                ],
            )
        messages = [MESSAGE] * n

        def signed(pks: Any, sks: Any) -> tuple[Any, Any, Any]:
            signatures = view.sign(sks, messages)
            if not view.verify(pks, messages, signatures).all():
                raise ValueError(f"{scheme.name}: a fresh batch of signatures did not verify")
            return pks, sks, signatures

        def sig_one() -> tuple[Any, Any, Any]:
            pk, sk = view.keygen(1)
            return signed(pk[0], sk[0])

        fresh = _ring(lambda: signed(*view.keygen(n)), scheme.name, sets, keys != "one")
        one = cycling([sig_one()]) if keys != "fresh" else fresh
        return _with_keys(
            Operation("keypair", lambda: view.keygen(n)),
            keys,
            [
                Operation("sign", lambda: view.sign(fresh()[1], messages)),
                Operation("verify", lambda: _verify_rows(view, fresh(), messages)),
            ],
            [
                Operation(f"sign ({ONE_KEY})", lambda: view.sign(one()[1], messages)),
                Operation(f"verify ({ONE_KEY})", lambda: _verify_rows(view, one(), messages)),
            ],
        )

    return [Group(scheme.name, _bind(build, scheme)) for scheme in schemes]


def _ring(make: Callable[[], _E], name: str, size: int, wanted: bool) -> Callable[[], _E]:
    """The cycling step over a ring of ``size`` made by ``make`` (within the set-up
    budget), or, when the fresh-key rows are not wanted, a step that is never called."""
    if not wanted:
        return _unused
    return cycling(make_ring(make, name, size=size, budget=RING_BUDGET_S))


def _unused() -> Any:
    raise AssertionError("a fresh-key step was called with --keys one")


def _verify_rows(view: Any, entry: tuple[Any, Any, Any], messages: list[bytes]) -> Any:
    return view.verify(entry[0], messages, entry[2])


def _bind(build: Callable[[Any], list[Operation]], scheme: Any) -> Callable[[], list[Operation]]:
    return lambda: build(scheme)


def _family_backends(family: str, only: dict[str, list[str]] | None) -> list[str]:
    available: list[str] = common.backends()[family]["available"]
    wanted = None if only is None else only.get(family)
    return [b for b in available if wanted is None or b in wanted]


def common_groups(
    *, msglen: int, outlen: int, only: dict[str, list[str]] | None = None
) -> list[Group]:
    """Each symmetric primitive, one row per backend that provides it.

    Hashes take a ``msglen``-byte message; SHAKE, AES-256-CTR and the CTR-DRBG
    produce ``outlen`` bytes; AES-256-ECB encrypts one block. ``only`` maps a family
    (``sha3``, ``sha2``, ``aes``) to the backends to show (default: every available one).
    """
    message = deterministic_bytes("message", msglen)
    key = deterministic_bytes("key", 32)
    block = deterministic_bytes("block", 16)
    groups: list[Group] = []

    def add(name: str, family: str, make: Callable[[str], Callable[[], object]]) -> None:
        backends = _family_backends(family, only)
        if backends:
            groups.append(Group(name, lambda: [Operation(b, make(b)) for b in backends]))

    for bits in (256, 512):
        fn = getattr(common, f"sha3_{bits}")
        add(f"SHA3-{bits} ({msglen} B)", "sha3", _hash_op(fn, message))
    for bits in (128, 256):
        add(f"SHAKE-{bits} ({msglen} -> {outlen} B)", "sha3", _shake_op(bits, message, outlen))
        add(
            f"SHAKE-{bits} incremental ({msglen} -> {outlen} B)",
            "sha3",
            _shake_stream_op(bits, message, outlen),
        )
    for bits in (256, 384, 512):
        fn = getattr(common, f"sha{bits}")
        add(f"SHA-{bits} ({msglen} B)", "sha2", _hash_op(fn, message))
    add("AES-256-ECB (1 block)", "aes", _ecb_op(key, block))
    add(f"AES-256-CTR ({outlen} B)", "aes", _ctr_op(key, block, outlen))
    add(f"CTR-DRBG AES-256 ({outlen} B)", "aes", _drbg_op(outlen))
    return groups


def _hash_op(fn: Any, message: bytes) -> Callable[[str], Callable[[], object]]:
    return lambda b: lambda: fn(message, backend=b)


def _shake_op(bits: int, message: bytes, outlen: int) -> Callable[[str], Callable[[], object]]:
    fn = common.shake128_digest if bits == 128 else common.shake256_digest
    return lambda b: lambda: fn(message, outlen, backend=b)


def _shake_stream_op(
    bits: int, message: bytes, outlen: int
) -> Callable[[str], Callable[[], object]]:
    """Absorb, then squeeze ``outlen`` bytes one rate block at a time (as matrix
    expansion reads a SHAKE-128 stream)."""
    fn = common.shake128 if bits == 128 else common.shake256
    rate = 168 if bits == 128 else 136

    def make(b: str) -> Callable[[], object]:
        def run() -> None:
            xof = fn(message, backend=b)
            left = outlen
            while left > 0:
                xof.read(min(rate, left))
                left -= rate

        return run

    return make


def _ecb_op(key: bytes, block: bytes) -> Callable[[str], Callable[[], object]]:
    def make(b: str) -> Callable[[], object]:
        cipher = common.aes256_ecb(key, backend=b)
        return lambda: cipher.encrypt_block(block)

    return make


def _ctr_op(key: bytes, nonce: bytes, outlen: int) -> Callable[[str], Callable[[], object]]:
    return lambda b: lambda: common.aes256_ctr(key, nonce, backend=b).read(outlen)


def _drbg_op(outlen: int) -> Callable[[str], Callable[[], object]]:
    entropy = deterministic_bytes("entropy", 48)

    def make(b: str) -> Callable[[], object]:
        drbg = common.CtrDrbg(entropy, backend=b)
        return lambda: drbg(outlen)

    return make


def known(kind: str) -> list[str]:
    """Every algorithm name of ``kind`` ("kem" or "sig")."""
    return pqkit.kems() if kind == "kem" else pqkit.sigs()


def resolve(names: list[str], kind: str) -> tuple[list[Any], list[str]]:
    """The schemes called ``names`` (``kind`` "kem" or "sig"; all of them if none),
    and the names that are unknown."""
    lookup = pqkit.kem if kind == "kem" else pqkit.sig
    listing = pqkit.kems if kind == "kem" else pqkit.sigs
    found: list[Any] = []
    unknown: list[str] = []
    for name in names or listing():
        try:
            found.append(lookup(name))
        except pqkit.UnknownAlgorithm:
            unknown.append(name)
    return found, unknown

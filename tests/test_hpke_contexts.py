"""Issue 28 items 1 and 2: HPKE contexts never reuse a nonce.

A sender context shared by threads gives every message its own sequence number
(RFC 9180 §5.2: the nonce and the increment as one step); contexts refuse copy and
pickle (a copy would repeat every nonce), ``seq`` is read-only, and the last
sequence number raises :class:`hpke.MessageLimitReachedError`.
"""

from __future__ import annotations

import copy
import pickle
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from pqkit import hpke

pytest.importorskip("cryptography", reason="HPKE's AEADs need pyca/cryptography")

_AEADS = [hpke.AEAD.AES_128_GCM, hpke.AEAD.AES_256_GCM, hpke.AEAD.CHACHA20_POLY1305]
_THREADS = 8
_MESSAGES = 100_000


@pytest.fixture
def short_switch_interval() -> Iterator[None]:
    """Switch threads as often as CPython allows, so that a race shows at once."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def _pair(aead: hpke.AEAD) -> tuple[hpke.SenderContext, hpke.RecipientContext]:
    suite = hpke.Suite(hpke.KEM.MLKEM768, hpke.KDF.HKDF_SHA256, aead)
    pk, sk = suite.derive_key_pair(b"issue 28 contexts" + bytes([aead % 256]))
    enc, sender = suite.setup_sender(pk, b"info")
    return sender, suite.setup_recipient(enc, sk, b"info")


@pytest.mark.usefixtures("short_switch_interval")
def test_shared_sender_never_reuses_a_nonce() -> None:
    """8 threads seal one plaintext 100 000 times in all on one context: every
    ciphertext differs, and a recipient opens them all in sequence order."""
    sender, recipient = _pair(hpke.AEAD.AES_128_GCM)
    per_thread = _MESSAGES // _THREADS
    results: list[list[tuple[int, bytes]]] = [[] for _ in range(_THREADS)]
    start = threading.Barrier(_THREADS)

    def work(out: list[tuple[int, bytes]]) -> None:
        start.wait()
        for _ in range(per_thread):
            out.append(sender.seal_numbered(b"the same plaintext"))

    threads = [threading.Thread(target=work, args=(r,)) for r in results]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    pairs = sorted(p for r in results for p in r)
    assert len(pairs) == _MESSAGES and sender.seq == _MESSAGES
    assert [seq for seq, _ in pairs] == list(range(_MESSAGES))
    assert len({ct for _, ct in pairs}) == _MESSAGES
    for _, ct in pairs:
        assert recipient.open(ct) == b"the same plaintext"
    assert recipient.seq == _MESSAGES


@pytest.mark.parametrize("aead", _AEADS, ids=lambda a: a.name)
@pytest.mark.usefixtures("short_switch_interval")
def test_shared_sender_every_aead(aead: hpke.AEAD) -> None:
    """The same on each AEAD, smaller: seal() from 4 threads, all ciphertexts distinct."""
    sender, _ = _pair(aead)
    cts: list[bytes] = []

    def work() -> None:
        cts.extend(sender.seal(b"x") for _ in range(2000))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(cts)) == len(cts) == 8000 == sender.seq


def test_shared_recipient_opens_each_once() -> None:
    """Two threads opening from one queue in order: each ciphertext opens once, in
    sequence order, and a failed open leaves the sequence number alone."""
    sender, recipient = _pair(hpke.AEAD.CHACHA20_POLY1305)
    cts = [sender.seal(i.to_bytes(4, "big")) for i in range(2000)]
    lock = threading.Lock()
    opened: list[bytes] = []
    queue = iter(cts)

    def work() -> None:
        while True:
            with lock:
                ct = next(queue, None)
                if ct is None:
                    return
                opened.append(recipient.open(ct))

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert opened == [i.to_bytes(4, "big") for i in range(2000)]


_REFUSALS: list[tuple[str, Callable[[Any], object]]] = [
    ("copy", copy.copy),
    ("deepcopy", copy.deepcopy),
    *[(f"pickle-{p}", lambda obj, p=p: pickle.dumps(obj, protocol=p)) for p in range(6)],
]


@pytest.mark.parametrize("refuse", [fn for _, fn in _REFUSALS], ids=[n for n, _ in _REFUSALS])
def test_contexts_refuse_copy_and_pickle(refuse: Callable[[Any], object]) -> None:
    sender, recipient = _pair(hpke.AEAD.AES_256_GCM)
    for ctx in (sender, recipient):
        with pytest.raises(TypeError, match="holds secret state and cannot be"):
            refuse(ctx)


def test_seq_is_read_only_and_repr_hides_the_key() -> None:
    sender, recipient = _pair(hpke.AEAD.AES_256_GCM)
    sender.seal(b"one")
    for ctx in (sender, recipient):
        for value in (0, -1, 5):
            with pytest.raises(AttributeError):
                ctx.seq = value  # type: ignore[misc]
        with pytest.raises(AttributeError):
            ctx.key = bytes(32)  # type: ignore[misc]
        with pytest.raises(AttributeError):
            ctx.extra = 1  # type: ignore[attr-defined]
        assert ctx.key.hex() not in repr(ctx) and ctx.base_nonce.hex() not in repr(ctx)
    assert sender.seq == 1 and recipient.seq == 0


@pytest.mark.parametrize("aead", _AEADS, ids=lambda a: a.name)
def test_last_sequence_number_is_refused(aead: hpke.AEAD) -> None:
    """RFC 9180 §5.2: seq reaches 2^(8 Nn) - 1 only to raise MessageLimitReachedError."""
    sender, recipient = _pair(aead)
    last = (1 << (8 * sender.suite.nn)) - 1
    sender._seq = recipient._seq = last - 1
    assert recipient.open(sender.seal(b"the last message")) == b"the last message"
    assert sender.seq == recipient.seq == last
    for _ in range(2):  # and stays refused
        with pytest.raises(hpke.MessageLimitReachedError, match="message limit"):
            sender.seal_numbered(b"one too many")
        with pytest.raises(hpke.MessageLimitReachedError):
            recipient.open(b"\x00" * 32)
    assert sender.seq == recipient.seq == last

"""HSS (RFC 8554 §6): L levels of LMS trees, each upper tree signing the public
key of the tree below it.

The private key material is the top tree's I and SEED. The trees below are
derived from their parent (RFC 8554 leaves this to the implementation, §6.1):
the tree signed by one-time key q of a parent (I, SEED) has

    SEED' = H(I || u32str(q) || u16str(0xfffe) || u8str(0xff) || SEED)
    I'    = first 16 bytes of H(I || u32str(q) || u16str(0xffff) || u8str(0xff) || SEED)

and the parent signs it with randomizer C = H(I || u32str(q) || u16str(0xfffd) ||
u8str(0xff) || SEED): the index i of Appendix A's x_q[i] never reaches 0xfffd, so
these never equal a one-time private element, and the signature of a child key is
the same message each time it is made (one-time key q signs one message only).

Signature index ``idx`` of the whole HSS key uses one-time key q_d of level d:
q_d = bits of idx from the top level down (the top level's index is the highest).
"""

from __future__ import annotations

import struct

import numpy as np

from pqkit.lms.lms import LmsTree, lms_hash, lms_signature_length, verify_lms
from pqkit.lms.params import LMS_TYPES, HssParams

__all__ = ["HssKey", "verify_hss"]

MAX_LEVELS = 8  # RFC 8554 §6: L is between 1 and 8


class HssKey:
    """The HSS private key of ``params`` from the top tree's (I, SEED); ``kernels``:
    a hash kernel table or None (the hashlib reference)."""

    def __init__(self, params: HssParams, ident: bytes, seed: bytes, kernels: object | None):
        self.params = params
        self.kernels = kernels
        lms, ots = params.levels[0]
        self._hash = lms_hash(lms.hash, lms.m, kernels)
        self._trees: list[LmsTree] = [LmsTree(lms, ots, ident, seed, self._hash)]
        self._signed: list[bytes] = []  # sig[d] || pub[d + 1] for the current trees
        self._path: list[int] = []  # the parent index each current lower tree hangs from
        self._split: list[tuple[int, int]] = []  # (shift, mask) of q_d in a signature index
        shift = sum(lms.h for lms, _ in params.levels)
        for lms, _ in params.levels:
            shift -= lms.h
            self._split.append((shift, (1 << lms.h) - 1))

    def public_key(self) -> bytes:
        """u32str(L) || pub[0] (RFC 8554 §6.1)."""
        return struct.pack(">I", len(self.params.levels)) + self._trees[0].public_key()

    def _derive(self, parent: LmsTree, q: int, marker: int) -> bytes:
        data = parent.ident + struct.pack(">IHB", q, marker, 0xFF) + parent.seed
        rows = np.frombuffer(data, dtype=np.uint8).reshape(1, -1)
        return bytes(self._hash(rows)[0].tobytes())

    def _indices(self, index: int) -> list[int]:
        return [(index >> shift) & mask for shift, mask in self._split]

    def _descend(self, qs: list[int]) -> None:
        """Make the trees below the top the ones of ``qs`` (RFC 8554 §6.2: a new
        lower tree and its signed public key when the index crosses into it)."""
        for d in range(1, len(self.params.levels)):
            if len(self._path) >= d and self._path[d - 1] == qs[d - 1] and d < len(self._trees):
                continue
            del self._trees[d:], self._signed[d - 1 :], self._path[d - 1 :]
            parent, q = self._trees[d - 1], qs[d - 1]
            lms, ots = self.params.levels[d]
            seed = self._derive(parent, q, 0xFFFE)
            ident = self._derive(parent, q, 0xFFFF)[:16]
            child = LmsTree(lms, ots, ident, seed, self._hash)
            c = self._derive(parent, q, 0xFFFD)
            pub = child.public_key()
            self._signed.append(parent.sign(q, pub, c) + pub)
            self._trees.append(child)
            self._path.append(q)

    def sign(self, index: int, message: bytes, c: bytes) -> bytes:
        """The HSS signature of ``message`` with one-time index ``index`` and the
        bottom randomizer ``c``: u32str(Nspk) || signed_pub_key[0 .. L-2] || sig[L-1]
        (RFC 8554 §6.2)."""
        if len(self._split) == 1:  # one level: Nspk = 0, no signed public keys
            return b"\0\0\0\0" + self._trees[0].sign(index, message, c)
        qs = self._indices(index)
        self._descend(qs)
        bottom = self._trees[-1].sign(qs[-1], message, c)
        return struct.pack(">I", len(self.params.levels) - 1) + b"".join(self._signed) + bottom


def verify_hss(public_key: bytes, message: bytes, signature: bytes, kernels: object | None) -> bool:
    """RFC 8554 §6.3 (Algorithm 7): False for any malformed input."""
    if len(public_key) < 4 or len(signature) < 4:
        return False
    levels = struct.unpack_from(">I", public_key)[0]
    nspk = struct.unpack_from(">I", signature)[0]
    if not 1 <= levels <= MAX_LEVELS or nspk + 1 != levels:
        return False
    key, at = public_key[4:], 4
    for _ in range(nspk):
        length = lms_signature_length(signature, at)
        if length is None:
            return False
        sig = signature[at : at + length]
        at += length
        if len(signature) < at + 8:
            return False
        lms_code = struct.unpack_from(">I", signature, at)[0]
        lms = LMS_TYPES.get(lms_code)
        if lms is None:
            return False
        pub = signature[at : at + 24 + lms.m]
        at += 24 + lms.m
        if len(pub) != 24 + lms.m or not verify_lms(key, pub, sig, kernels):
            return False
        key = pub
    return verify_lms(key, message, signature[at:], kernels)

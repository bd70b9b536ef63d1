"""A signing process for the crash tests (tests/test_stateful_state.py): loads the key
file, signs until killed or exhausted, and prints the one-time index read from each
signature (not from the key object) as soon as the signature exists."""

from __future__ import annotations

import struct
import sys

import pqkit
from pqkit.lms.lms import lms_signature_length
from pqkit.stateful.storage import ExhaustedKey


def signature_index(sig: bytes, levels: list[int]) -> int:
    """The HSS index of ``sig`` (RFC 8554 §6.2): the q of every level, top first."""
    index, at = 0, 4
    for d, height in enumerate(levels):
        q = struct.unpack_from(">I", sig, at)[0]
        index = (index << height) | q
        if d + 1 < len(levels):
            length = lms_signature_length(sig, at)
            assert length is not None
            at += length + 24 + 32
    return index


def main() -> None:
    name, path, batch = sys.argv[1], sys.argv[2], int(sys.argv[3])
    scheme = pqkit.sig(name)
    levels = [lms.h for lms, _ in scheme.params.levels]  # type: ignore[attr-defined]
    key = scheme.load_key(path)
    out = sys.stdout
    key.public_key()  # the top tree: built before the parent starts its clock
    out.write("ready\n")
    out.flush()
    try:
        while True:
            if batch > 1 and key.reserved() == 0:
                key.reserve(min(batch, key.remaining()))
            sig = key.sign(b"crash test")
            out.write(f"{signature_index(sig, levels)}\n")
            out.flush()
    except ExhaustedKey:
        out.write("exhausted\n")


if __name__ == "__main__":
    main()

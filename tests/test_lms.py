"""LMS / HSS (RFC 8554, RFC 9858): the shared liboqs files (RFC 8554 Appendix F Test
Cases 1 and 2 among them), round trips of every hash family, the kernels against the
hashlib reference, bad input. The NIST ACVP files (every single-level set, the RFC
9858 ones included): tests/test_lms_acvp.py."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from helpers import certificate_parts, load_lines

import pqkit
from pqkit import arith
from pqkit.lms.hss import verify_hss
from pqkit.lms.lms import LmsTree, lms_hash, verify_lms
from pqkit.lms.params import HSS_PARAMS, LMOTS_TYPES, LMS_TYPES
from pqkit.stateful import files
from pqkit.stateful.hashing import RowHash, reference_rows

LIBOQS = [
    "LMS_SHA256_H5_W1", "LMS_SHA256_H5_W2", "LMS_SHA256_H5_W4", "LMS_SHA256_H5_W8",
    "LMS_SHA256_H10_W1", "LMS_SHA256_H10_W2", "LMS_SHA256_H10_W4", "LMS_SHA256_H10_W8",
    "LMS_SHA256_H5_W8_H5_W8", "LMS_SHA256_H10_W4_H5_W8",
]  # fmt: skip


def _rsp(name: str) -> dict[str, bytes]:
    out = {}
    for line in load_lines(f"lms/{name}.rsp.gz"):
        if " = " in line:
            key, value = line.split(" = ", 1)
            out[key.strip()] = bytes.fromhex(value.strip().strip('"'))
    return out


@pytest.mark.parametrize("backend", [None, "numpy"], ids=["reference", "numpy"])
@pytest.mark.parametrize("name", LIBOQS)
def test_liboqs_lms_files_verify(name: str, backend: str | None) -> None:
    v = _rsp(name)
    kernels = None if backend is None else arith.kernels("hash", backend)
    pk, sm, msg = v["pk"], v["sm"], v["msg"]
    # the files from ACVP carry a bare LMS public key and signature (RFC 8554 §5.3);
    # the others the HSS forms (u32str(L) || ..., §6.1)
    check = verify_lms if len(pk) == 24 + 32 else verify_hss
    assert check(pk, msg, sm, kernels)
    assert not check(pk, msg + b"\x00", sm, kernels)
    bad = bytearray(sm)
    bad[len(sm) // 2] ^= 1
    assert not check(pk, msg, bytes(bad), kernels)
    if check is verify_hss:
        scheme = pqkit.sig(name)
        assert scheme.verify(pk, msg, sm)


def test_rfc8554_test_case_2_is_in_the_shared_file() -> None:
    """Appendix F Test Case 2: the top-level public key is that of the RFC."""
    v = _rsp("LMS_SHA256_H10_W4_H5_W8")
    assert v["pk"][:8] == struct.pack(">II", 2, 6)  # L = 2, LMS_SHA256_M32_H10
    assert v["pk"][12:28].hex() == "d08fabd4a2091ff0a8cb4ed834e74534"


def test_rfc9802_certificate_example_verifies() -> None:
    """The self-signed HSS certificate of the RFC 9802 draft's example section
    (tests/vectors/lms/README.md): its SubjectPublicKeyInfo holds the raw HSS public
    key (no OCTET STRING), and its signature over tbsCertificate verifies."""
    import base64

    lines = load_lines("lms/rfc9802-hss-certificate.pem.gz")
    cert = base64.b64decode("".join(line for line in lines if not line.startswith("-----")))
    tbs, spki, sig_oid, signature = certificate_parts(cert)
    oid, pk = files.decode_spki(spki)
    assert oid == sig_oid == files.OID_HSS
    scheme = pqkit.sig("LMS_SHA256_H5_W8")  # L = 1, LMS_SHA256_M32_H5, LMOTS_SHA256_N32_W8
    assert scheme.public_key_spki(pk) == spki  # type: ignore[attr-defined]
    assert scheme.verify(pk, tbs, signature)
    assert not scheme.verify(pk, tbs + b"\x00", signature)


@pytest.mark.parametrize(
    "name",
    ["LMS_SHA256_H5_W4", "LMS_SHA256_M24_H5_W2", "LMS_SHAKE_M32_H5_W4", "LMS_SHAKE_M24_H5_W8",
     "LMS_SHA256_H5_W8_H5_W8"],
)  # fmt: skip
def test_round_trip(name: str) -> None:
    scheme = pqkit.sig(name)
    pk, sk = scheme.keygen()
    assert len(pk) == scheme.length_public_key
    for message in (b"", b"one", b"two"):
        sig = scheme.sign(sk, message)
        assert len(sig) == scheme.length_signature
        assert scheme.verify(pk, message, sig)
        assert not scheme.verify(pk, message + b"!", sig)
    assert sk.remaining() == HSS_PARAMS[name].max_signatures - 3


def test_signatures_use_successive_indices_and_cross_trees() -> None:
    scheme = pqkit.sig("LMS_SHA256_H5_W8_H5_W8")
    pk, sk = scheme.keygen_derand(bytes(range(48)))
    sk.reserve(40)
    for i in range(40):
        sig = scheme.sign(sk, b"m")
        q_top = struct.unpack_from(">I", sig, 4)[0]
        assert q_top == i // 32 and scheme.verify(pk, b"m", sig)
    # the child trees are derived: a second key from the same seed signs alike
    assert scheme.keygen_derand(bytes(range(48)))[0] == pk


@pytest.mark.parametrize("function", ["sha256", "shake256"])
def test_row_hash_kernels_match_the_reference(function: str) -> None:
    rows = np.frombuffer(bytes(range(256)) * 40, dtype=np.uint8)[: 37 * 86].reshape(37, 86)
    want = reference_rows(function, rows, 24)  # type: ignore[arg-type]
    for backend in arith.available("hash"):
        got = RowHash(function, 24, arith.kernels("hash", backend))(rows)  # type: ignore[arg-type]
        assert (got == want).all(), backend


def test_kernel_tree_matches_the_reference_tree() -> None:
    lms, ots = LMS_TYPES[5], LMOTS_TYPES[3]
    ident, seed = bytes(16), bytes(range(32))
    ref = LmsTree(lms, ots, ident, seed, lms_hash("SHA256", 32, None))
    fast = LmsTree(lms, ots, ident, seed, lms_hash("SHA256", 32, arith.kernels("hash", "numpy")))
    assert ref.public_key() == fast.public_key()
    assert ref.sign(7, b"x", bytes(32)) == fast.sign(7, b"x", bytes(32))


def test_bad_input() -> None:
    scheme = pqkit.sig("LMS_SHA256_H5_W8")
    pk, sk = scheme.keygen()
    sig = scheme.sign(sk, b"m")
    with pytest.raises(TypeError, match="StatefulPrivateKey"):
        scheme.sign(bytes(48), b"m")
    with pytest.raises(ValueError, match="public key must be 60 bytes"):
        scheme.verify(pk[:-1], b"m", sig)
    with pytest.raises(TypeError):
        scheme.verify(pk, "m", sig)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="context"):
        scheme.sign(sk, b"m", b"ctx")
    with pytest.raises(ValueError, match="seed"):
        scheme.keygen_derand(bytes(47))
    assert not scheme.verify(pk, b"m", sig[:-1])
    assert not scheme.verify(pk, b"m", sig + b"\x00")
    bad_type = bytearray(sig)
    bad_type[8:12] = struct.pack(">I", 99)  # unknown LM-OTS type
    assert not scheme.verify(pk, b"m", bytes(bad_type))
    wrong_l = bytearray(pk)
    wrong_l[:4] = struct.pack(">I", 9)
    assert not scheme.verify(bytes(wrong_l), b"m", sig)
    assert pqkit.sig("LMS_SHA256_H10_W4_H5_W8") is not scheme


def test_compiled_chains_match_the_reference() -> None:
    """The jit whole-chain kernel (SHA-256 sets) against the per-step hashlib path:
    keygen's private elements and full chains, signing's partial chains, n = 32 / 24."""
    if "jit" not in arith.available("hash"):
        pytest.skip("Numba is not installed: no jit backend")
    from pqkit.lms import lmots

    fast_kernels = arith.kernels("hash", "jit")
    for n in (32, 24):
        ref, fast = RowHash("sha256", n, None), RowHash("sha256", n, fast_kernels)
        assert lmots._compiled_chains(fast) is not None
        ident, seed = bytes(range(16)), bytes(range(100, 100 + n))
        q = np.array([0, 5, 1023], dtype=np.int64)
        x_ref = lmots.private_elements(ref, ident, seed, q, 7)
        assert (lmots.private_elements(fast, ident, seed, q, 7) == x_ref).all()
        qs, idx = np.repeat(q, 7), np.tile(np.arange(7, dtype=np.int64), 3)
        begin = np.arange(21, dtype=np.int64) % 5
        end = begin + np.arange(21, dtype=np.int64) % 4 * 3
        want = lmots.chains(ref, ident, qs, idx, x_ref, begin, end)
        assert (lmots.chains(fast, ident, qs, idx, x_ref, begin, end) == want).all()
        full = np.full(21, 255, dtype=np.int64)
        zero = np.zeros(21, dtype=np.int64)
        want = lmots.chains(ref, ident, qs, idx, x_ref, zero, full)
        assert (lmots.chains(fast, ident, qs, idx, x_ref, zero, full) == want).all()

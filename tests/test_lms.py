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


def _jit_ops():  # type: ignore[no-untyped-def]
    if "jit" not in arith.available("hash"):
        pytest.skip("Numba is not installed: no jit backend")
    from pqkit.lms.kernels import jit_ops

    return jit_ops


SHA256_OTS = [code for code, ots in LMOTS_TYPES.items() if ots.hash == "SHA256"]


@pytest.mark.parametrize("code", SHA256_OTS)
def test_compiled_lmots_signature_matches_the_reference(code: int) -> None:
    """One compiled call per LM-OTS signature (x_q[i], the digits of Q and its
    checksum, the chains, lanes with their own step counters) against the
    hashlib path, random I / q / SEED / C / message, every SHA-256 LM-OTS type
    (n = 32 and 24, w = 1, 2, 4, 8)."""
    ops = _jit_ops()
    from pqkit.lms import lmots

    ots = LMOTS_TYPES[code]
    lms = next(t for t in LMS_TYPES.values() if t.hash == "SHA256" and t.m == ots.n and t.h == 5)
    rng = np.random.default_rng(code)
    for _ in range(3):
        ident, seed, c = (rng.bytes(k) for k in (16, ots.n, ots.n))
        q, message = int(rng.integers(0, 32)), rng.bytes(int(rng.integers(0, 100)))
        ref = LmsTree(lms, ots, ident, seed, lms_hash("SHA256", ots.n, None))
        want = ref._ots_sign(q, message, c)
        data = ident + struct.pack(">IH", q, lmots.D_MESG) + c + message
        q_hash = reference_rows("sha256", np.frombuffer(data, dtype=np.uint8)[None], ots.n)
        digits = ops._digits(q_hash[0], ots.w, ots.u, ots.v, ots.ls)
        assert (digits == lmots.checksum_digits(ots, q_hash[0].tobytes())).all()
        got = ops.lmots_sign_sha256(ops.key_words(ident, seed), q, q_hash[0].tobytes(), ots)
        assert got == want


@pytest.mark.parametrize("code", [3, 4, 7, 8])
def test_compiled_leaves_match_the_reference(code: int) -> None:
    """The compiled leaves (chains to the top, D_PBLC public-key hash, leaf hash,
    GROUP leaves side by side, a partial group at the end) against the hashlib
    path, random I / SEED / first leaf, n = 32 and 24."""
    ops = _jit_ops()
    from pqkit.lms import lms as lms_module

    ots = LMOTS_TYPES[code]
    lms = next(t for t in LMS_TYPES.values() if t.hash == "SHA256" and t.m == ots.n and t.h == 10)
    rng = np.random.default_rng(100 + code)
    ident, seed = rng.bytes(16), rng.bytes(ots.n)
    lo, count = int(rng.integers(0, 1000)), ops.GROUP + 2
    ref = lms_hash("SHA256", ots.n, None)
    want = lms_module.leaves(ref, lms, ots, ident, seed, lo, count)
    got = ops.lms_leaves_sha256(ops.key_words(ident, seed), lms.h, ots, lo, count)
    assert (got == want).all()
    fast = lms_hash("SHA256", ots.n, arith.kernels("hash", "jit"))
    assert (lms_module.leaves(fast, lms, ots, ident, seed, lo, count) == want).all()


def test_sha256_from_the_iv_with_the_block_in_registers() -> None:
    """The compression from H(0) of a block given as sixteen words (SHA-NI where
    the CPU has it, and the portable rounds) against hashlib, one-block messages;
    and the SHA-NI rounds behind VZEROUPPER against the portable ones."""
    _jit_ops()
    import hashlib

    from pqkit.common.kernels import jit_sha256 as sha

    variants = [sha._sha256_iv_words] + ([sha._sha256_iv_ni] if sha.SHA_NI else [])
    rng = np.random.default_rng(35)
    for length in (0, 3, 54, 55):
        message = rng.bytes(length)
        block = message + b"\x80" + bytes(55 - length) + (8 * length).to_bytes(8, "big")
        words = [np.uint32(x) for x in np.frombuffer(block, dtype=">u4")]
        for compress in variants:
            out = np.zeros((2, 8), dtype=np.uint32)
            compress(out, 1, *words)
            assert out[1].astype(">u4").tobytes() == hashlib.sha256(message).digest()
            assert not out[0].any()
    if sha.SHA_NI:
        h = rng.integers(0, 1 << 32, 8, dtype=np.uint64).astype(np.uint32)
        w = np.zeros(64, dtype=np.uint32)
        w[:16] = rng.integers(0, 1 << 32, 16, dtype=np.uint64).astype(np.uint32)
        a, b = h.copy(), h.copy()
        sha._sha256_1_ni_clean(a, w.copy())
        sha._sha256_1_words(b, w.copy())
        assert (a == b).all()


def test_lms_tree_uses_the_compiled_operations_on_jit() -> None:
    """A SHA-256 tree on the jit kernels signs and builds leaves through the
    compiled operations and gives the reference tree's key and signatures."""
    _jit_ops()
    lms, ots = LMS_TYPES[5], LMOTS_TYPES[4]
    ident, seed = bytes(range(16)), bytes(range(40, 72))
    fast = LmsTree(lms, ots, ident, seed, lms_hash("SHA256", 32, arith.kernels("hash", "jit")))
    assert fast._fast is not None
    ref = LmsTree(lms, ots, ident, seed, lms_hash("SHA256", 32, arith.kernels("hash", "numpy")))
    assert ref._fast is None
    assert fast.public_key() == ref.public_key()
    assert fast.sign(31, b"msg", bytes(32)) == ref.sign(31, b"msg", bytes(32))


@pytest.mark.parametrize("n", [32, 24])
def test_both_chain_engines_match_the_reference(n: int) -> None:
    """The one-state engine (LANES chains in flight, SHA-NI where the CPU has it)
    and the sixteen-state engine (one vector register per word), both whichever
    this CPU selects: random I / q /
    SEED / end steps / task order, a range of tasks, against x_q[i] and the chains
    of the hashlib path."""
    ops = _jit_ops()
    from pqkit.lms import lmots

    rng = np.random.default_rng(n)
    ident, seed, p = rng.bytes(16), rng.bytes(n), 7
    qs = rng.integers(0, 1 << 20, 3).astype(np.int64)
    ends = rng.integers(0, 256, 3 * p).astype(np.int64)
    ref = RowHash("sha256", n, None)
    x = lmots.private_elements(ref, ident, seed, qs, p)
    q_rows, i_rows = np.repeat(qs, p), np.tile(np.arange(p, dtype=np.int64), 3)
    want = lmots.chains(ref, ident, q_rows, i_rows, x, np.zeros(3 * p, dtype=np.int64), ends)
    order = rng.permutation(3 * p).astype(np.int64)
    key = ops.key_words(ident, seed)
    for engine in (ops._tasks, ops._tasks16):
        dst = np.zeros((3, 5 + p * n), dtype=np.uint8)
        engine(key, qs, p, ends, order, dst, 5, 2, 3 * p)  # tasks order[2:] only
        got = dst[:, 5:].reshape(3 * p, n)
        done = order[2:]
        assert (got[done] == want[done]).all(), engine
        assert not got[order[:2]].any()

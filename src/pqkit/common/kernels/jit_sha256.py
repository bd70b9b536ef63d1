"""One SHA-256 compression on one state, compiled (FIPS 180-4 §6.2.2): the portable
rounds (:func:`_sha256_1_words`) and the x86 SHA extensions (:func:`_sha256_1_ni`),
chosen once by :data:`SHA_NI`. Shared by the compiled hash-based signature code:
the SLH-DSA engine (:mod:`pqkit.slhdsa.kernels.jit_ops`, its T_l, H and
single-lane hashes), the LM-OTS chains (:mod:`pqkit.lms.kernels.jit_ops`) and the
XMSS WOTS+ chains (:mod:`pqkit.xmss.kernels.jit_ops`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from llvmlite import ir  # type: ignore[import-not-found, import-untyped, unused-ignore]
from numba.core import types  # type: ignore[import-not-found, unused-ignore]
from numba.extending import intrinsic  # type: ignore[import-not-found, unused-ignore]

from pqkit.arith._jit import jit
from pqkit.common.kernels._hash import H256, K256

__all__ = [
    "SHA_NI",
    "_sha256_1",
    "_sha256_1_clean",
    "_sha256_1_ni",
    "_sha256_1_ni_clean",
    "_sha256_1_words",
    "_sha256_iv",
    "_sha256_iv_ni",
    "_sha256_iv_words",
]

_K256 = np.array(K256, dtype=np.uint32)
_H256 = np.array(H256, dtype=np.uint32)
_U32 = np.uint32


@jit
def _sha256_1_words(h: Any, w: Any) -> None:
    """FIPS 180-4 §6.2.2 on one state (h, uint32 (8,)) with the block's words in
    w[0:16] (uint32 (64,), the schedule is completed in place): the working
    variables in locals, for single hashes (one lane of a group would cost a whole
    group's compression)."""
    for t in range(16, 64):
        x = w[t - 15]
        y = w[t - 2]
        s0 = _U32((x >> _U32(7)) | (x << _U32(25))) ^ _U32((x >> _U32(18)) | (x << _U32(14)))
        s1 = _U32((y >> _U32(17)) | (y << _U32(15))) ^ _U32((y >> _U32(19)) | (y << _U32(13)))
        w[t] = _U32(s1 ^ (y >> _U32(10))) + _U32(w[t - 7] + _U32(s0 ^ (x >> _U32(3))) + w[t - 16])
    a, b, c, d, e, f, g, hh = h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
    for t in range(64):
        big1 = _U32((e >> _U32(6)) | (e << _U32(26))) ^ _U32((e >> _U32(11)) | (e << _U32(21)))
        big1 ^= _U32((e >> _U32(25)) | (e << _U32(7)))
        ch = (e & f) ^ (~e & g)
        t1 = _U32(hh + big1 + ch + _K256[t] + w[t])
        big0 = _U32((a >> _U32(2)) | (a << _U32(30))) ^ _U32((a >> _U32(13)) | (a << _U32(19)))
        big0 ^= _U32((a >> _U32(22)) | (a << _U32(10)))
        maj = (a & b) ^ (a & c) ^ (b & c)
        hh, g, f = g, f, e
        e = _U32(d + t1)
        d, c, b = c, b, a
        a = _U32(t1 + big0 + maj)
    h[0] = _U32(h[0] + a)
    h[1] = _U32(h[1] + b)
    h[2] = _U32(h[2] + c)
    h[3] = _U32(h[3] + d)
    h[4] = _U32(h[4] + e)
    h[5] = _U32(h[5] + f)
    h[6] = _U32(h[6] + g)
    h[7] = _U32(h[7] + hh)


def _cpu_feature(name: str) -> bool:
    """Whether the CPU Numba compiles for has feature ``name`` (LLVM's spelling):
    the features of ``NUMBA_CPU_FEATURES`` when set (a cache built for other
    machines), else this CPU's."""
    try:
        from llvmlite import binding
        from numba.core import config  # type: ignore[import-not-found, unused-ignore]

        features = getattr(config, "CPU_FEATURES", None)  # set at Numba's import
        if features is not None:
            return f"+{name}" in str(features).split(",")
        return bool(binding.get_host_cpu_features().get(name, False))
    except Exception:  # pragma: no cover - no feature list: the portable rounds
        return False


def _sha_ni_available() -> bool:
    """Whether the CPU Numba compiles for has the SHA extensions (x86 SHA-NI, whose
    SHA256RNDS2 runs two SHA-256 rounds per instruction, in constant time)."""
    return _cpu_feature("sha")


_I32 = ir.IntType(32)
_V4 = ir.VectorType(_I32, 4)


def _v4_at(builder: Any, ptr: Any, index: int) -> Any:
    """A <4 x i32> pointer to ptr[index ..]."""
    return builder.bitcast(builder.gep(ptr, [ir.Constant(_I32, index)]), _V4.as_pointer())


def _mask(*lanes: int) -> Any:
    return ir.Constant(ir.VectorType(_I32, len(lanes)), [ir.Constant(_I32, x) for x in lanes])


def _x86(builder: Any, name: str, arity: int) -> Any:
    fnty = ir.FunctionType(_V4, [_V4] * arity)
    return builder.module.globals.get(name) or ir.Function(builder.module, fnty, name)


def _ni_compress(builder: Any, lo: Any, hi: Any, first: list[Any], kp: Any) -> tuple[Any, Any]:
    """FIPS 180-4 §6.2.2 on the state lo = a b c d, hi = e f g h (<4 x i32> each)
    with the block's words W_0..W_15 in ``first`` (four <4 x i32>) and the
    constants at ``kp``: the schedule four words at a time by SHA256MSG1 /
    SHA256MSG2 (step 1), 32 SHA256RNDS2 instructions (two rounds each) on the state
    held as ABEF / CDGH (the instruction's layout), then the additions of step 4;
    returns the new (a b c d, e f g h)."""
    rnds2 = _x86(builder, "llvm.x86.sha256rnds2", 3)
    msg1 = _x86(builder, "llvm.x86.sha256msg1", 2)
    msg2 = _x86(builder, "llvm.x86.sha256msg2", 2)
    abef = builder.shuffle_vector(lo, hi, _mask(5, 4, 1, 0))  # lanes F E B A
    cdgh = builder.shuffle_vector(lo, hi, _mask(7, 6, 3, 2))  # lanes H G D C
    s0, s1 = abef, cdgh
    undef = ir.Constant(_V4, ir.Undefined)
    words: list[Any] = list(first)  # W_4q .. W_4q+3
    for q in range(16):  # rounds 4q .. 4q + 3
        if q >= 4:  # step 1: W_t = sigma1(W_t-2) + W_t-7 + sigma0(W_t-15) + W_t-16
            w9 = builder.shuffle_vector(words[q - 2], words[q - 1], _mask(1, 2, 3, 4))
            part = builder.add(builder.call(msg1, [words[q - 4], words[q - 3]]), w9)
            words.append(builder.call(msg2, [part, words[q - 1]]))
        wk = builder.add(words[q], builder.load(_v4_at(builder, kp, 4 * q), align=4))
        s1 = builder.call(rnds2, [s1, s0, wk])
        s0 = builder.call(rnds2, [s0, s1, builder.shuffle_vector(wk, undef, _mask(2, 3, 2, 3))])
    s0 = builder.add(s0, abef)
    s1 = builder.add(s1, cdgh)
    return builder.shuffle_vector(s0, s1, _mask(3, 2, 7, 6)), builder.shuffle_vector(
        s0, s1, _mask(1, 0, 5, 4)
    )


@intrinsic  # type: ignore[untyped-decorator, unused-ignore]
def _sha256_rounds_ni_intrinsic(typingctx: Any, h: Any, w: Any, k: Any) -> Any:
    """FIPS 180-4 §6.2.2 on one state ``h`` (uint32 (8,), a..h) with the block's
    words W_0..W_15 in w[0:16] and the constants in ``k`` (uint32 (64,)): the
    schedule four words at a time by SHA256MSG1 / SHA256MSG2 (step 1), 32
    SHA256RNDS2 instructions (two rounds each) on the state held as ABEF / CDGH
    (the instruction's layout), then the additions of step 4."""
    sig = types.void(h, w, k)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        arrays = [
            context.make_array(t)(context, builder, a)
            for t, a in zip(signature.args, args, strict=True)
        ]
        hp, wp, kp = (builder.bitcast(a.data, _I32.as_pointer()) for a in arrays)
        lo = builder.load(_v4_at(builder, hp, 0), align=4)  # a b c d (lane 0 first)
        hi = builder.load(_v4_at(builder, hp, 4), align=4)  # e f g h
        first = [builder.load(_v4_at(builder, wp, 4 * q), align=4) for q in range(4)]
        lo, hi = _ni_compress(builder, lo, hi, first, kp)
        builder.store(lo, _v4_at(builder, hp, 0), align=4)
        builder.store(hi, _v4_at(builder, hp, 4), align=4)
        return context.get_dummy_value()

    return sig, codegen


_sha256_rounds_ni = cast(Callable[[Any, Any, Any], None], _sha256_rounds_ni_intrinsic)


@jit
def _sha256_1_ni(h: Any, w: Any) -> None:
    """:func:`_sha256_1_words` on SHA-NI (:func:`_sha256_rounds_ni`; reads
    w[0:16] only)."""
    _sha256_rounds_ni(h, w, _K256)


SHA_NI = _sha_ni_available()
"""Whether the one-state SHA-256 compression runs on SHA-NI (chosen once, here:
the compiled code and Numba's cache are specific to this CPU's features)."""

_sha256_1 = _sha256_1_ni if SHA_NI else _sha256_1_words
"""FIPS 180-4 §6.2.2 on one state (see :func:`_sha256_1_words`): the T_l, H and
single-lane hashes of the SHA-2 sets and the PK.seed midstate."""


def _emit_vzeroupper(builder: Any) -> None:
    name = "llvm.x86.avx.vzeroupper"
    fnty = ir.FunctionType(ir.VoidType(), [])
    builder.call(builder.module.globals.get(name) or ir.Function(builder.module, fnty, name), [])


@intrinsic  # type: ignore[untyped-decorator, unused-ignore]
def _vzeroupper_intrinsic(typingctx: Any) -> Any:
    """VZEROUPPER: clears the upper halves of the AVX registers."""
    sig = types.void()

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        _emit_vzeroupper(builder)
        return context.get_dummy_value()

    return sig, codegen


_vzeroupper = cast(Callable[[], None], _vzeroupper_intrinsic)


@jit
def _sha256_1_ni_clean(h: Any, w: Any) -> None:
    """:func:`_sha256_1_ni` after VZEROUPPER.

    SHA256RNDS2 and SHA256MSG1/2 exist in the legacy SSE encoding only. When the
    code around them leaves the upper halves of the AVX registers dirty (LLVM
    vectorises a copy of eight words into one 256-bit move), every legacy SSE
    instruction pays the SSE/AVX transition penalty: measured here (a KVM guest,
    Intel Xeon with AVX-512) a compression took 13 us instead of 35 ns. Clearing the
    upper halves first costs about one cycle."""
    _vzeroupper()
    _sha256_rounds_ni(h, w, _K256)


AVX = _cpu_feature("avx")
"""Whether VZEROUPPER exists (and so may be needed) on the CPU Numba compiles for."""

_sha256_1_clean = _sha256_1_ni_clean if SHA_NI and AVX else _sha256_1
""":func:`_sha256_1` safe to call between vectorised code (see
:func:`_sha256_1_ni_clean`): the compiled LMS kernels use it."""


@intrinsic  # type: ignore[untyped-decorator, unused-ignore]
def _sha256_iv_ni_intrinsic(
    typingctx: Any, out: Any, row: Any, k: Any, w0: Any, w1: Any, w2: Any, w3: Any, w4: Any,
    w5: Any, w6: Any, w7: Any, w8: Any, w9: Any, w10: Any, w11: Any, w12: Any, w13: Any,
    w14: Any, w15: Any,
) -> Any:  # fmt: skip
    """FIPS 180-4 §6.2.2 on the initial hash value H(0) (§5.3.3) with the block's
    sixteen words given as uint32 values: the words go into vector registers
    without a trip through memory (a block stored as scalar words and loaded as
    vectors stalls on store forwarding, about a third of a compression here), and
    the digest's eight words are stored to out[row] (``out`` uint32 (rows, 8),
    indexed here: a row view would cost reference counting, whose atomic
    instructions stop independent compressions from overlapping); ``k`` holds the
    constants. VZEROUPPER first where the CPU has AVX (see
    :func:`_sha256_1_ni_clean`)."""
    sig = types.void(out, types.int64, k, *([types.uint32] * 16))

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        if AVX:
            _emit_vzeroupper(builder)
        op, kp = (
            builder.bitcast(context.make_array(t)(context, builder, a).data, _I32.as_pointer())
            for t, a in ((signature.args[0], args[0]), (signature.args[2], args[2]))
        )
        op = builder.gep(op, [builder.mul(args[1], ir.Constant(args[1].type, 8))])
        first = []
        for q in range(4):
            vec = ir.Constant(_V4, ir.Undefined)
            for lane in range(4):
                vec = builder.insert_element(vec, args[3 + 4 * q + lane], ir.Constant(_I32, lane))
            first.append(vec)
        lo = ir.Constant(_V4, [ir.Constant(_I32, x) for x in H256[:4]])
        hi = ir.Constant(_V4, [ir.Constant(_I32, x) for x in H256[4:]])
        lo, hi = _ni_compress(builder, lo, hi, first, kp)
        builder.store(lo, _v4_at(builder, op, 0), align=4)
        builder.store(hi, _v4_at(builder, op, 4), align=4)
        return context.get_dummy_value()

    return sig, codegen


_sha256_iv_ni_raw = cast(Callable[..., None], _sha256_iv_ni_intrinsic)


@jit
def _sha256_iv_ni(
    out: Any, row: int, w0: Any, w1: Any, w2: Any, w3: Any, w4: Any, w5: Any, w6: Any, w7: Any,
    w8: Any, w9: Any, w10: Any, w11: Any, w12: Any, w13: Any, w14: Any, w15: Any,
) -> None:  # fmt: skip
    """SHA-256's compression of one block (words w0..w15, uint32) from H(0) into
    out[row] (``out`` uint32 (rows, 8)), on SHA-NI (:func:`_sha256_iv_ni_intrinsic`)."""
    _sha256_iv_ni_raw(
        out, row, _K256, w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, w12, w13, w14, w15
    )


@jit
def _sha256_iv_words(
    out: Any, row: int, w0: Any, w1: Any, w2: Any, w3: Any, w4: Any, w5: Any, w6: Any, w7: Any,
    w8: Any, w9: Any, w10: Any, w11: Any, w12: Any, w13: Any, w14: Any, w15: Any,
) -> None:  # fmt: skip
    """:func:`_sha256_iv_ni` on the portable rounds (:func:`_sha256_1_words`)."""
    w = np.empty(64, dtype=np.uint32)
    w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7] = w0, w1, w2, w3, w4, w5, w6, w7
    w[8], w[9], w[10], w[11], w[12], w[13], w[14], w[15] = w8, w9, w10, w11, w12, w13, w14, w15
    h = _H256.copy()
    _sha256_1_words(h, w)
    for i in range(8):
        out[row, i] = h[i]


_sha256_iv = _sha256_iv_ni if SHA_NI else _sha256_iv_words
"""One compression from H(0) of a block given as sixteen uint32 words, into
out[row] (``out`` uint32 (rows, 8)): the one-block hashes of the LM-OTS chains."""


# --- sixteen states side by side: one <16 x i32> vector per word -------------------

_V16 = ir.VectorType(_I32, 16)


def _splat16(x: int) -> Any:
    return ir.Constant(_V16, [ir.Constant(_I32, x)] * 16)


def _rotr16(builder: Any, x: Any, n: int) -> Any:
    """ROTR^n (FIPS 180-4 §3.2) on each lane: LLVM's funnel shift (one VPRORD
    with AVX-512)."""
    name = "llvm.fshr.v16i32"
    fnty = ir.FunctionType(_V16, [_V16] * 3)
    fn = builder.module.globals.get(name) or ir.Function(builder.module, fnty, name)
    return builder.call(fn, [x, x, _splat16(n)])


def _xor3(builder: Any, a: Any, b: Any, c: Any) -> Any:
    return builder.xor(builder.xor(a, b), c)


@intrinsic  # type: ignore[untyped-decorator, unused-ignore]
def _sha256_x16_iv_intrinsic(typingctx: Any, out: Any, w: Any) -> Any:
    """FIPS 180-4 §6.2.2 from H(0) (§5.3.3) on sixteen blocks side by side: ``w``
    uint32 (256,) holds word t of block j at w[16 t + j], the digests go to
    ``out`` uint32 (128,), word k of block j at out[16 k + j]. Every word is one
    <16 x i32> vector (one AVX-512 register; LLVM splits it where the CPU has
    narrower vectors): rotations are funnel shifts, the constants splats, no
    lookups and no branches."""
    sig = types.void(out, w)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        op, wp = (
            builder.bitcast(context.make_array(t)(context, builder, a).data, _V16.as_pointer())
            for t, a in zip(signature.args, args, strict=True)
        )

        def at(ptr: Any, index: int) -> Any:
            return builder.gep(ptr, [ir.Constant(_I32, index)])

        sched = [builder.load(at(wp, t), align=4) for t in range(16)]
        for t in range(16, 64):  # step 1: sigma0 (4.6), sigma1 (4.7)
            x, y = sched[t - 15], sched[t - 2]
            s0 = _xor3(builder, _rotr16(builder, x, 7), _rotr16(builder, x, 18),
                       builder.lshr(x, _splat16(3)))  # fmt: skip
            s1 = _xor3(builder, _rotr16(builder, y, 17), _rotr16(builder, y, 19),
                       builder.lshr(y, _splat16(10)))  # fmt: skip
            sched.append(builder.add(builder.add(s1, sched[t - 7]), builder.add(s0, sched[t - 16])))
        iv = [_splat16(x) for x in H256]
        a, b, c, d, e, f, g, hh = iv
        for t in range(64):  # steps 2-3: Sigma1 (4.5), Ch (4.2), Sigma0 (4.4), Maj (4.3)
            big1 = _xor3(builder, _rotr16(builder, e, 6), _rotr16(builder, e, 11),
                         _rotr16(builder, e, 25))  # fmt: skip
            ch = builder.xor(g, builder.and_(e, builder.xor(f, g)))
            t1 = builder.add(builder.add(hh, big1), builder.add(ch, sched[t]))
            t1 = builder.add(t1, _splat16(K256[t]))
            big0 = _xor3(builder, _rotr16(builder, a, 2), _rotr16(builder, a, 13),
                         _rotr16(builder, a, 22))  # fmt: skip
            maj = builder.or_(builder.and_(a, b), builder.and_(c, builder.or_(a, b)))
            hh, g, f, e = g, f, e, builder.add(d, t1)
            d, c, b, a = c, b, a, builder.add(t1, builder.add(big0, maj))
        for k, (x, h0) in enumerate(zip((a, b, c, d, e, f, g, hh), iv, strict=True)):  # step 4
            builder.store(builder.add(x, h0), at(op, k), align=4)
        return context.get_dummy_value()

    return sig, codegen


_sha256_x16_iv = cast(Callable[[Any, Any], None], _sha256_x16_iv_intrinsic)

AVX512 = _cpu_feature("avx512f")
"""Whether the CPU Numba compiles for has 512-bit vectors (then sixteen portable
compressions side by side outrun SHA-NI's one at a time)."""

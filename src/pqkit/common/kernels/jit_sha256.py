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
from pqkit.common.kernels._hash import K256

__all__ = ["SHA_NI", "_sha256_1", "_sha256_1_ni", "_sha256_1_words"]

_K256 = np.array(K256, dtype=np.uint32)
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


def _sha_ni_available() -> bool:
    """Whether the CPU Numba compiles for has the SHA extensions (x86 SHA-NI, whose
    SHA256RNDS2 runs two SHA-256 rounds per instruction, in constant time): the
    features of ``NUMBA_CPU_FEATURES`` when set (a cache built for other machines),
    else this CPU's."""
    try:
        from llvmlite import binding
        from numba.core import config  # type: ignore[import-not-found, unused-ignore]

        features = getattr(config, "CPU_FEATURES", None)  # set at Numba's import
        if features is not None:
            return "+sha" in str(features).split(",")
        return bool(binding.get_host_cpu_features().get("sha", False))
    except Exception:  # pragma: no cover - no feature list: the portable rounds
        return False


@intrinsic  # type: ignore[untyped-decorator, unused-ignore]
def _sha256_rounds_ni_intrinsic(typingctx: Any, h: Any, w: Any, k: Any) -> Any:
    """FIPS 180-4 §6.2.2 on one state ``h`` (uint32 (8,), a..h) with the block's
    words W_0..W_15 in w[0:16] and the constants in ``k`` (uint32 (64,)): the
    schedule four words at a time by SHA256MSG1 / SHA256MSG2 (step 1), 32
    SHA256RNDS2 instructions (two rounds each) on the state held as ABEF / CDGH
    (the instruction's layout), then the additions of step 4."""
    sig = types.void(h, w, k)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i32 = ir.IntType(32)
        v4 = ir.VectorType(i32, 4)
        arrays = [
            context.make_array(t)(context, builder, a)
            for t, a in zip(signature.args, args, strict=True)
        ]
        hp, wp, kp = (builder.bitcast(a.data, i32.as_pointer()) for a in arrays)

        def at(ptr: Any, index: int) -> Any:
            return builder.bitcast(builder.gep(ptr, [ir.Constant(i32, index)]), v4.as_pointer())

        def mask(*lanes: int) -> Any:
            return ir.Constant(ir.VectorType(i32, len(lanes)), [ir.Constant(i32, x) for x in lanes])

        def intrinsic_fn(name: str, arity: int) -> Any:
            fnty = ir.FunctionType(v4, [v4] * arity)
            return builder.module.globals.get(name) or ir.Function(builder.module, fnty, name)

        rnds2 = intrinsic_fn("llvm.x86.sha256rnds2", 3)
        lo = builder.load(at(hp, 0), align=4)  # a b c d (lane 0 first)
        hi = builder.load(at(hp, 4), align=4)  # e f g h
        abef = builder.shuffle_vector(lo, hi, mask(5, 4, 1, 0))  # lanes F E B A
        cdgh = builder.shuffle_vector(lo, hi, mask(7, 6, 3, 2))  # lanes H G D C
        s0, s1 = abef, cdgh
        msg1 = intrinsic_fn("llvm.x86.sha256msg1", 2)
        msg2 = intrinsic_fn("llvm.x86.sha256msg2", 2)
        undef = ir.Constant(v4, ir.Undefined)
        words: list[Any] = []  # W_4q .. W_4q+3
        for q in range(16):  # rounds 4q .. 4q + 3
            if q < 4:
                words.append(builder.load(at(wp, 4 * q), align=4))
            else:  # step 1: W_t = sigma1(W_t-2) + W_t-7 + sigma0(W_t-15) + W_t-16
                w9 = builder.shuffle_vector(words[q - 2], words[q - 1], mask(1, 2, 3, 4))
                part = builder.add(builder.call(msg1, [words[q - 4], words[q - 3]]), w9)
                words.append(builder.call(msg2, [part, words[q - 1]]))
            wk = builder.add(words[q], builder.load(at(kp, 4 * q), align=4))
            s1 = builder.call(rnds2, [s1, s0, wk])
            s0 = builder.call(rnds2, [s0, s1, builder.shuffle_vector(wk, undef, mask(2, 3, 2, 3))])
        s0 = builder.add(s0, abef)
        s1 = builder.add(s1, cdgh)
        builder.store(builder.shuffle_vector(s0, s1, mask(3, 2, 7, 6)), at(hp, 0), align=4)
        builder.store(builder.shuffle_vector(s0, s1, mask(1, 0, 5, 4)), at(hp, 4), align=4)
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

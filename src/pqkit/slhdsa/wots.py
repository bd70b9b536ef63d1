"""WOTS+ one-time signatures (FIPS 205 §5), many chains at a time.

The chains of a WOTS+ key are independent, and so are the keys of all the
leaves of a tree: :func:`wots_pk_gen_many` runs every chain of every requested
key pair in lock step, one batched F call per chain step (FIPS 205, Algorithms 5
and 6 over a list of key pairs). A key pair is named by its address head
(layer and tree, see :class:`~pqkit.slhdsa.adrs.AdrsCodec`) and key-pair index.
"""

from __future__ import annotations

from collections.abc import Sequence

from pqkit.slhdsa.adrs import WOTS_HASH, WOTS_PK, WOTS_PRF, base_2b, word
from pqkit.slhdsa.hashes import Hashes
from pqkit.slhdsa.params import Params

__all__ = ["chain_many", "wots_digits", "wots_pk_from_sig", "wots_pk_gen_many", "wots_sign"]

KeyPair = tuple[int, int, int]
"""(layer, tree, key-pair index) of one WOTS+ key."""


def wots_digits(params: Params, m: bytes) -> list[int]:
    """The len base-w digits WOTS+ signs: FIPS 205, Algorithm 7 lines 1-7
    (message digits, then the checksum's)."""
    lg_w, len1, len2 = params.lg_w, params.len1, params.len2
    msg = base_2b(m, lg_w, len1)
    csum = sum(params.w - 1 - digit for digit in msg)
    csum <<= (8 - (len2 * lg_w) % 8) % 8
    return msg + base_2b(csum.to_bytes(-(-len2 * lg_w // 8), "big"), lg_w, len2)


def chain_many(
    hs: Hashes,
    prefixes: Sequence[bytes],
    values: Sequence[bytes],
    starts: Sequence[int],
    steps: Sequence[int],
) -> list[bytes]:
    """FIPS 205, Algorithm 5 (chain) on many chains at once.

    Chain i starts from ``values[i]`` at hash address ``starts[i]`` and takes
    ``steps[i]`` steps; ``prefixes[i]`` is its address up to and including the
    chain address (the hash address is appended per step). Each round hashes, in
    one batched F call, every chain that still has steps left.
    """
    out = list(values)
    ends = [s + t for s, t in zip(starts, steps, strict=True)]
    if not out:
        return out
    # Chains sorted by start: when every chain ends at the same step (as in
    # verification, which runs each chain to w - 1) the active chains at step j
    # are a prefix of this order.
    order = sorted(range(len(out)), key=starts.__getitem__)
    same_end = len(set(ends)) == 1
    first = 0
    for j in range(starts[order[0]], max(ends)):
        if same_end:
            while first < len(order) and starts[order[first]] <= j:
                first += 1
            active = order[:first]
        else:
            active = [i for i in order if starts[i] <= j < ends[i]]
        hj = word(j)
        results = hs.f_many([prefixes[i] + hj + out[i] for i in active])
        for i, value in zip(active, results, strict=True):
            out[i] = value
    return out


def wots_pk_gen_many(
    hs: Hashes,
    sk_seed: bytes,
    key_pairs: Sequence[KeyPair],
    record: Sequence[int] = (),
) -> tuple[list[bytes], list[list[list[bytes]]]]:
    """FIPS 205, Algorithm 6 (wots_pkGen) for every key pair of ``key_pairs``.

    Returns the public keys and, for each position in ``record`` (indices into
    ``key_pairs``), every chain's value after 0, 1, ..., w - 1 steps: the
    WOTS+ signature of any message is read from these (Algorithm 7 computes
    chain(sk, 0, msg[i]), a prefix of the chain Algorithm 6 walks).
    """
    codec = hs.codec
    length, w = hs.params.len, hs.params.w
    chain_words = [word(i) for i in range(length)]
    zero = word(0)
    prf_inputs: list[bytes] = []
    prefixes: list[bytes] = []
    for layer, tree, kp in key_pairs:
        prf_head = codec.head(layer, tree, WOTS_PRF) + word(kp)
        hash_head = codec.head(layer, tree, WOTS_HASH) + word(kp)
        prf_inputs.extend(prf_head + c + zero + sk_seed for c in chain_words)
        prefixes.extend(hash_head + c for c in chain_words)
    # Algorithm 6 lines 5-6: sk = PRF(PK.seed, SK.seed, skADRS) for every chain.
    values = hs.prf_many(prf_inputs)
    snaps: list[list[list[bytes]]] = [[] for _ in record]
    offsets = [r * length for r in record]

    def snapshot() -> None:
        for snap, off in zip(snaps, offsets, strict=True):
            snap.append(values[off : off + length])

    snapshot()
    # Algorithm 6 lines 7-8: tmp[i] = chain(sk, 0, w - 1), one F round per step.
    for j in range(w - 1):
        hj = word(j)
        values = hs.f_many([p + hj + v for p, v in zip(prefixes, values, strict=True)])
        snapshot()
    # Algorithm 6 lines 10-13: pk = T_len(PK.seed, wotspkADRS, tmp).
    pk_inputs = [
        codec.head(layer, tree, WOTS_PK)
        + word(kp)
        + zero
        + zero
        + b"".join(values[i * length : (i + 1) * length])
        for i, (layer, tree, kp) in enumerate(key_pairs)
    ]
    return hs.t_many(pk_inputs), snaps


def wots_sign(params: Params, m: bytes, snaps: list[list[bytes]]) -> bytes:
    """FIPS 205, Algorithm 7 (wots_sign) from the chain snapshots of the key pair
    (see :func:`wots_pk_gen_many`): sig[i] = chain(sk[i], 0, msg[i])."""
    digits = wots_digits(params, m)
    return b"".join(snaps[digit][i] for i, digit in enumerate(digits))


def wots_pk_from_sig(hs: Hashes, sig: bytes, m: bytes, key_pair: KeyPair) -> bytes:
    """FIPS 205, Algorithm 8 (wots_pkFromSig)."""
    params = hs.params
    n, length, w = params.n, params.len, params.w
    layer, tree, kp = key_pair
    digits = wots_digits(params, m)
    head = hs.codec.head(layer, tree, WOTS_HASH) + word(kp)
    tmp = chain_many(
        hs,
        [head + word(i) for i in range(length)],
        [sig[i * n : (i + 1) * n] for i in range(length)],
        digits,
        [w - 1 - digit for digit in digits],
    )
    zero = word(0)
    pk_adrs = hs.codec.head(layer, tree, WOTS_PK) + word(kp) + zero + zero
    return hs.t_many([pk_adrs + b"".join(tmp)])[0]

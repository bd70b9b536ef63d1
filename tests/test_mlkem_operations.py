"""Whole-operation ML-KEM kernels (``pqkit.mlkem.kernels.contract.MLKEMOperations``; the ``jit``
backend's one-call keygen / encaps / decaps) against their reference twin, the
step-by-step path, and the cache of decoded encapsulation keys."""

from __future__ import annotations

import gc
import importlib.util
import os
import random
import threading
import weakref
from typing import Any

import numpy as np
import pytest
from helpers import h, load_json
from test_mlkem_accumulated import DIGESTS, accumulate

import pqkit
from pqkit import arith
from pqkit._keystate import MLKEM_DK, KeyState, holding
from pqkit.arith.ops import operations
from pqkit.mlkem import fips203
from pqkit.mlkem import scheme as kpke_kem
from pqkit.mlkem.fips203 import (
    EK_CACHE_SIZE,
    MLKEM,
    ROWS_REUSED_AT,
    S_REUSED_AT,
    PublicState,
    SecretState,
)
from pqkit.mlkem.kernels.compose import encrypt_rows

NAMES = ("ML-KEM-512", "ML-KEM-768", "ML-KEM-1024")
HAVE_NUMBA = importlib.util.find_spec("numba") is not None
needs_jit = pytest.mark.skipif(not HAVE_NUMBA, reason="the jit backend needs numba")


def mlkem(name: str, backend: str) -> MLKEM:
    kem = pqkit.kem(name)
    assert isinstance(kem, MLKEM)
    return kem.using(arith=backend)


def test_operations_lookup() -> None:
    assert operations("mlkem", "numpy") is None
    assert operations("mlkem", "ref") is None
    assert operations("mldsa", "numpy") is None
    if HAVE_NUMBA:
        fast = operations("mlkem", "jit")
        assert fast is not None and fast.backend == "jit"
        names = ("keygen_internal", "public_state", "encaps_internal", "decaps_internal")
        for name in names:
            assert callable(getattr(fast, f"mlkem_{name}"))


# --- the compiled operations against the step path -----------------------------------


def _edge_ciphertexts(n: int, rnd: random.Random) -> list[bytes]:
    return [
        bytes(n),
        b"\xff" * n,
        bytes(rnd.getrandbits(8) for _ in range(n)),
    ]


@needs_jit
@pytest.mark.parametrize("name", NAMES)
def test_jit_operations_equal_step_path(name: str) -> None:
    fast, slow = mlkem(name, "jit"), mlkem(name, "numpy")
    rnd = random.Random(f"ops-{name}")
    for trial in range(12):
        seed = bytes([trial]) * 64 if trial < 2 else rnd.randbytes(64)
        kp = fast.keygen_derand(seed)
        assert kp == slow.keygen_derand(seed)
        ek, dk = kp
        m = bytes(32) if trial == 0 else rnd.randbytes(32)
        enc = fast.encaps_derand(ek, m)
        assert enc == slow.encaps_derand(ek, m)
        assert fast.decaps(dk, enc.ciphertext) == enc.shared_secret
        # Implicit rejection: one flipped bit anywhere, and edge ciphertexts.
        bad = bytearray(enc.ciphertext)
        bad[rnd.randrange(len(bad))] ^= 1 << rnd.randrange(8)
        for c in [bytes(bad), *_edge_ciphertexts(len(bad), rnd)]:
            got = fast.decaps(dk, c)
            assert got == slow.decaps(dk, c)
            assert got != enc.shared_secret


@needs_jit
@pytest.mark.parametrize("name", NAMES)
def test_jit_key_checks_equal_step_path(name: str) -> None:
    fast, slow = mlkem(name, "jit"), mlkem(name, "numpy")
    ek, dk = slow.keygen_derand(bytes(range(64)))
    k = slow.params.k
    # A coefficient of q (not reduced): the §7.2 modulus check fails on both paths.
    bad_ek = bytearray(ek)
    bad_ek[0], bad_ek[1] = 0x01, (bad_ek[1] & 0xF0) | 0x0D  # 0xD01 = 3329
    for kem in (fast, slow):
        with pytest.raises(ValueError, match=r"§7\.2 modulus check failed"):
            kem.encaps(bytes(bad_ek))
        with pytest.raises(ValueError, match=r"§7\.2 modulus check failed"):
            kem.check_encapsulation_key(bytes(bad_ek))
    # A dk whose stored H(ek) is wrong: the §7.3 hash check fails on both paths.
    bad_dk = bytearray(dk)
    bad_dk[768 * k + 32] ^= 1
    for kem in (fast, slow):
        with pytest.raises(ValueError, match=r"§7\.3 hash check failed"):
            kem.decaps(bytes(bad_dk), bytes(kem.length_ciphertext))
    # A dk holding an unreduced ek (and the matching H): decaps reduces it the same way.
    k384 = 384 * k
    dk2 = dk[:k384] + bytes(bad_ek) + pqkit.common.sha3_256(bytes(bad_ek)) + dk[-32:]
    c = slow.encaps_derand(ek, bytes(32)).ciphertext
    assert fast.decaps(dk2, c) == slow.decaps(dk2, c)


@needs_jit
@pytest.mark.parametrize("name", NAMES)
def test_jit_new_key_one_call_paths(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A key the ek cache does not hold: ``encaps`` without ``rng`` and ``decaps``
    decode, check and run the operation in one compiled call (then the state is
    cached and the next call takes the usual path); the results equal the step
    path's, the checks refuse the same keys before anything is returned, and a
    caller's ``rng`` keeps the two-call path (its request comes after the check)."""
    slow = mlkem(name, "numpy")
    fast_ops = operations("mlkem", "jit")
    calls: list[str] = []
    for op in ("mlkem_encaps_ek", "mlkem_decaps_dk"):
        real = getattr(fast_ops, op)
        monkeypatch.setattr(fast_ops, op, lambda *a, _r=real, _n=op: calls.append(_n) or _r(*a))
    rnd = random.Random(f"new-key-{name}")
    k = slow.params.k
    for _ in range(4):
        ek, dk = slow.keygen_derand(rnd.randbytes(64))
        c = slow.encaps_derand(ek, rnd.randbytes(32)).ciphertext
        bad = bytearray(c)
        bad[rnd.randrange(len(bad))] ^= 1
        for ct in (c, bytes(bad)):
            fresh = MLKEM(slow.algorithm, arith="jit")  # an empty ek cache
            assert fresh.decaps(dk, ct) == slow.decaps(dk, ct)
            assert len(fresh._ek_cache) == 1
            assert fresh.decaps(dk, ct) == slow.decaps(dk, ct)  # cached now
        fresh = MLKEM(slow.algorithm, arith="jit")
        ss, ct = fresh.encaps(ek)
        assert slow.decaps(dk, ct) == ss and len(fresh._ek_cache) == 1
        ss, ct = fresh.encaps(ek)  # cached now
        assert slow.decaps(dk, ct) == ss
    assert calls == ["mlkem_decaps_dk", "mlkem_decaps_dk", "mlkem_encaps_ek"] * 4
    # The checks on a new key: nothing is returned for a key that fails them.
    ek, dk = slow.keygen_derand(bytes(range(64)))
    bad_ek = bytearray(ek)
    bad_ek[0], bad_ek[1] = 0x01, (bad_ek[1] & 0xF0) | 0x0D  # 0xD01 = 3329
    with pytest.raises(ValueError, match=r"§7\.2 modulus check failed"):
        MLKEM(slow.algorithm, arith="jit").encaps(bytes(bad_ek))
    bad_dk = bytearray(dk)
    bad_dk[768 * k + 32] ^= 1
    with pytest.raises(ValueError, match=r"§7\.3 hash check failed"):
        MLKEM(slow.algorithm, arith="jit").decaps(bytes(bad_dk), bytes(slow.length_ciphertext))
    # With a caller's rng: the check first, then one 32-byte request (as the step path).
    calls.clear()
    draws: list[int] = []

    def rng(n: int) -> bytes:
        draws.append(n)
        return bytes(n)

    fresh = MLKEM(slow.algorithm, arith="jit")
    assert fresh.encaps(ek, rng=rng) == slow.encaps_derand(ek, bytes(32))
    with pytest.raises(ValueError, match=r"§7\.2"):
        fresh.encaps(bytes(bad_ek), rng=rng)
    assert draws == [32] and calls == []


@needs_jit
@pytest.mark.parametrize("name", NAMES)
def test_jit_public_state_equals_kernel_table(name: str) -> None:
    kem = mlkem(name, "numpy")
    ek, _ = kem.keygen_derand(os.urandom(64))
    ops, K = kem._tools()
    want = kem._decode_public(ek, ops, K)
    fast = operations("mlkem", "jit")
    assert fast is not None
    ok, t_hat, a_hat, hh = fast.mlkem_public_state(ek, kem.params.k)
    assert ok is want.ok is True
    assert np.array_equal(t_hat, want.t_hat) and np.array_equal(a_hat, want.A_hat)
    assert hh == want.h
    assert not t_hat.flags.writeable and not a_hat.flags.writeable


@needs_jit
def test_jit_matrix_equals_sample_ntt() -> None:
    """The compiled matrix sampler (one SHAKE128 block at a time, 8 entries at once)
    against FIPS 203 Algorithm 7 written out over hashlib's SHAKE128 stream, for
    k = 3 (9 entries: a full group of 8 and a group with 7 idle lanes)."""
    from pqkit.mlkem.kernels import jit_ops as jo

    rnd = random.Random(7)
    for _ in range(20):
        rho = rnd.randbytes(32)
        got = jo._sample_matrix(np.frombuffer(rho, np.uint8), 3)
        for i in range(3):
            for j in range(3):
                stream = pqkit.common.shake128(rho + bytes([j, i])).read(168 * 6)
                want: list[int] = []
                for p in range(0, len(stream), 3):
                    d1 = stream[p] | ((stream[p + 1] & 15) << 8)
                    d2 = (stream[p + 1] >> 4) | (stream[p + 2] << 4)
                    want += [d for d in (d1, d2) if d < 3329]
                assert got[i, j].tolist() == want[:256]


# --- vectors through the compiled path ------------------------------------------------


def _acvp(name: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [
        (group, test)
        for group in load_json(f"acvp/{name}.json")["testGroups"]
        for test in group["tests"]
    ]


@needs_jit
def test_jit_acvp_keygen() -> None:
    for group, test in _acvp("ML-KEM-keyGen-FIPS203"):
        kem = mlkem(group["parameterSet"], "jit")
        assert kem.keygen_derand(h(test["d"]) + h(test["z"])) == (h(test["ek"]), h(test["dk"]))


@needs_jit
@pytest.mark.parametrize("file", ["ML-KEM-encapDecap-FIPS203", "ML-KEM-encapDecap-FIPS203-tr1"])
def test_jit_acvp_encap_decap(file: str) -> None:
    seen = 0
    for group, test in _acvp(file):
        kem = mlkem(group["parameterSet"], "jit")
        function = group["function"]
        if function == "encapsulation":
            ss, ct = kem.encaps_derand(h(test["ek"]), h(test["m"]))
            assert (ct, ss) == (h(test["c"]), h(test["k"]))
            assert kem.decaps(h(test["dk"]), ct) == ss
        elif function == "decapsulation":
            if group.get("keyFormat") == "seed":
                dk = kem.keygen_derand(h(test["d"]) + h(test["z"]))[1]
            else:
                dk = h(test["dk"])
            assert kem.decaps(dk, h(test["c"])) == h(test["k"])
        elif function == "encapsulationKeyCheck" and not test["testPassed"]:
            with pytest.raises(ValueError, match=r"§7\.2"):
                kem.encaps(h(test["ek"]))
        elif function == "decapsulationKeyCheck" and not test["testPassed"]:
            with pytest.raises(ValueError, match=r"§7\.3"):
                kem.decaps(h(test["dk"]), bytes(kem.length_ciphertext))
        else:
            continue
        seen += 1
    assert seen > 50


@needs_jit
@pytest.mark.parametrize("name", NAMES)
def test_jit_cctv_accumulated_100(name: str) -> None:
    with arith.use("jit"):
        assert accumulate(name, 100) == DIGESTS[name]["100"]


# --- the cache of decoded encapsulation keys ------------------------------------------


@pytest.mark.parametrize("backend", ["numpy", *(["jit"] if HAVE_NUMBA else [])])
def test_public_state_cached_and_reused(backend: str) -> None:
    kem = mlkem("ML-KEM-768", backend)
    ek, dk = kem.keygen_derand(os.urandom(64))
    ops, K = kem._tools()
    first = kem._public_state(ek, ops, K)
    assert isinstance(first, PublicState) and first.ok
    assert kem._public_state(bytes(bytearray(ek)), ops, K) is first
    # Decapsulation looks up the ek inside dk: the same entry.
    c = kem.encaps(ek).ciphertext
    kem.decaps(dk, c)
    assert kem._public_state(ek, ops, K) is first
    with pytest.raises(ValueError, match="read-only"):
        first.t_hat[0, 0] = 1
    with pytest.raises(ValueError, match="read-only"):
        first.A_hat[0, 0, 0] = 1


def test_public_state_cache_bounded_and_threadsafe() -> None:
    kem = mlkem("ML-KEM-512", "numpy")
    keys = [kem.keygen_derand(bytes([i]) * 64)[0] for i in range(EK_CACHE_SIZE + 8)]
    results: list[bytes] = []

    def work(part: list[bytes]) -> None:
        for ek in part:
            results.append(kem.encaps_derand(ek, bytes(32)).ciphertext)

    threads = [threading.Thread(target=work, args=(keys[i::4],)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == len(keys)
    assert len(kem._ek_cache) == EK_CACHE_SIZE
    fresh = mlkem("ML-KEM-512", "numpy")
    fresh._ek_cache = type(kem._ek_cache)(1)  # a cache of one: every call misses
    for ek in keys[:4]:
        assert fresh.encaps_derand(ek, bytes(32)) == kem.encaps_derand(ek, bytes(32))


@pytest.mark.parametrize("backend", ["numpy", "jit"])
def test_cache_keyed_by_rho_serves_only_the_same_ek(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ek cache is keyed by rho (ek's last 32 bytes) and checks the whole ek on a
    hit: two keys with one rho and different t_hat never get each other's state,
    for encapsulation (derandomized, and without ``rng``: the one-call path for a
    new key on jit) and decapsulation (dk2 pairs s of one key with ek2, so its
    decapsulations are implicit rejections: still a function of dk2 and c)."""
    if backend not in arith.available("mlkem"):
        pytest.skip(f"the {backend} backend is not installed")
    ref = mlkem("ML-KEM-768", "ref")
    kem = mlkem("ML-KEM-768", backend)
    kem._ek_cache = type(kem._ek_cache)(EK_CACHE_SIZE)
    rnd = random.Random("one-rho")
    ek1, dk1 = ref.keygen_derand(rnd.randbytes(64))
    ek_other, dk_other = ref.keygen_derand(rnd.randbytes(64))
    k = ref.params.k
    ek2 = ek_other[: 384 * k] + ek1[384 * k :]  # t_hat of another key, rho of ek1
    dk2 = dk_other[: 384 * k] + ek2 + ref.suite.bind().H(ek2) + dk_other[-32:]
    assert ek1[-32:] == ek2[-32:] and ek1 != ek2
    m = rnd.randbytes(32)
    for module in (fips203, kpke_kem):  # the one-call path's draw, the step path's
        monkeypatch.setattr(module, "draw", lambda rng, n: m if rng is None else rng(n))
    for _ in range(2):  # misses, then alternating replacements
        for ek, dk in ((ek1, dk1), (ek2, dk2)):
            want = ref.encaps_derand(ek, m)
            assert kem.encaps(ek) == want
            assert kem.encaps_derand(ek, m) == want
            assert kem.decaps(dk, want.ciphertext) == ref.decaps(dk, want.ciphertext)
            assert len(kem._ek_cache) == 1  # the next key meets this key's entry


def test_cache_holds_public_values_only() -> None:
    """The cache's keys are encapsulation keys and its values functions of them:
    nothing derived from dk (s_hat, z) is stored."""
    kem = mlkem("ML-KEM-768", "numpy")
    kem._ek_cache = type(kem._ek_cache)(4)
    ek, dk = kem.keygen_derand(os.urandom(64))
    kem.decaps(dk, bytes(kem.length_ciphertext))
    entries = list(kem._ek_cache._items.items())
    assert [key for key, _ in entries] == [ek[-32:]]  # keyed by rho
    state = entries[0][1]
    assert state.ek == ek
    # slots: these fields are all it can hold
    assert sorted(state.__slots__) == ["A_hat", "ek", "h", "ok", "prepared", "t_hat"]
    assert sorted(state.prepared) == ["numpy", "rows"]
    assert state.h == dk[768 * 3 + 32 : 768 * 3 + 64]
    # The prepared encryption rows are functions of t_hat and A_hat only.
    rows = state.prepared["rows"]
    assert np.array_equal(rows, encrypt_rows(state.t_hat, state.A_hat))


# --- the secret-key state, kept in the key object (pqkit._keystate) -----------------


@pytest.mark.parametrize("backend", ["numpy", "ref"])
def test_secret_state_hit_gives_identical_bytes(backend: str) -> None:
    kem = mlkem("ML-KEM-512", backend)
    ek, dk = kem.keygen_derand(os.urandom(64))
    c = kem.encaps(ek).ciphertext
    first = kem.decaps(dk, c)
    K = kem._tools()[1]
    held = KeyState()
    with holding(held):
        state = kem._secret_state(dk, K)
        assert isinstance(state, SecretState) and held.get(MLKEM_DK) is state
        assert kem._secret_state(bytes(bytearray(dk)), K) is state  # a hit: equal bytes
        assert kem.decaps(dk, c) == first
        # Past S_REUSED_AT uses the multiplier takes its reused form: the same secret.
        for _ in range(S_REUSED_AT + 1):
            assert kem.decaps(dk, c) == first
    assert kem._secret_state(dk, K) is not state  # outside the key's scope: decoded afresh
    uncached = mlkem("ML-KEM-512", "ref")
    assert uncached.decaps(dk, c) == first
    with pytest.raises(ValueError, match="read-only"):
        state.s_hat[0, 0] = 1


def test_prepared_rows_switch_form_with_identical_bytes() -> None:
    kem = mlkem("ML-KEM-512", "numpy")
    kem._ek_cache = type(kem._ek_cache)(EK_CACHE_SIZE)
    ek, _ = kem.keygen_derand(os.urandom(64))
    want = [kem.encaps_derand(ek, bytes([i]) * 32) for i in range(ROWS_REUSED_AT + 2)]
    fresh = mlkem("ML-KEM-512", "ref")
    assert want[0] == fresh.encaps_derand(ek, bytes(32))
    assert want[-1] == fresh.encaps_derand(ek, bytes([ROWS_REUSED_AT + 1]) * 32)
    ops, K = kem._tools()
    cache, uses = kem._public_state(ek, ops, K).prepared["numpy"]
    assert uses == ROWS_REUSED_AT and cache.ndim == 3  # numpy's reused (folded) form


def test_secret_state_not_served_for_other_secret() -> None:
    """A dk with the same public part and H(ek) but other s bytes gets its own decode,
    the same result as with no kept state; and it replaces the key object's state."""
    kem = mlkem("ML-KEM-768", "numpy")
    k = 3
    ek, dk = kem.keygen_derand(os.urandom(64))
    c = kem.encaps(ek).ciphertext
    K = kem._tools()[1]
    held = KeyState()
    other_s = kem.keygen_derand(os.urandom(64))[1][: 384 * k]
    dk2 = other_s + dk[384 * k :]  # same ek and H(ek): passes the §7.3 hash check
    with holding(held):
        want = kem.decaps(dk, c)
        old = kem._secret_state(dk, K)
        got = kem.decaps(dk2, c)
        new = kem._secret_state(dk2, K)
    assert got == mlkem("ML-KEM-768", "numpy").decaps(dk2, c)
    assert got != want  # implicit rejection under dk2, not dk's key
    assert new is not old and new.dk == dk2
    assert len(held) == 1 and held.get(MLKEM_DK) is new
    assert np.array_equal(
        new.s_hat, K.byte_decode(np.frombuffer(other_s, np.uint8).reshape(k, 384), 12)
    )


def _live_secret_states() -> list[SecretState]:
    gc.collect()
    # type(), not isinstance(): a dead weakref.proxy among gc's objects (Numba and
    # pytest make some) raises ReferenceError when isinstance() looks through it
    return [o for o in gc.get_objects() if type(o) is SecretState]


@pytest.mark.parametrize("backend", ["numpy", "ref"])
def test_bytes_api_keeps_no_secret_state(backend: str) -> None:
    """Issue 28 item 4: after decapsulating with dk as bytes, no decoded dk is left
    anywhere (no scheme-object cache); a key object keeps its own, dropped with it."""
    kem = mlkem("ML-KEM-512", backend)
    ek, dk = kem.keygen_derand(os.urandom(64))
    ss, c = kem.encaps(ek)
    before = len(_live_secret_states())
    for _ in range(3):
        assert kem.decaps(dk, c) == ss
    assert len(_live_secret_states()) == before
    from pqkit.keys import MLKEM512PrivateKey

    with arith.use(backend):
        key = MLKEM512PrivateKey.from_expanded_bytes(dk)
        assert key.decapsulate(c) == ss and key.decapsulate(c) == ss
    state = key._state.get(MLKEM_DK)
    assert isinstance(state, SecretState) and state.dk == dk
    ref = weakref.ref(state)
    del key, state
    gc.collect()
    assert ref() is None


def test_key_objects_threadsafe() -> None:
    """Threads decapsulating with shared and separate key objects: every result right."""
    from pqkit.keys import MLKEM512PrivateKey

    with arith.use("numpy"):
        keys = [MLKEM512PrivateKey.from_seed_bytes(bytes([i]) * 64) for i in range(6)]
        cts = [k.public_key().encapsulate() for k in keys]
    errors: list[str] = []

    def work(idx: list[int]) -> None:
        with arith.use("numpy"):
            for _ in range(3):
                for i in idx:
                    if keys[i].decapsulate(cts[i].ciphertext) != cts[i].shared_secret:
                        errors.append(f"key {i}")

    threads = [
        threading.Thread(target=work, args=(list(range(j, len(keys), 2)),)) for j in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert all(isinstance(k._state.get(MLKEM_DK), SecretState) for k in keys)

"""Issue 13 item 8 (brief item 6): signing refuses an expanded ML-DSA secret key whose
t0 or tr do not follow from s1/s2, checks each key once, and the rejection loop has
an attempt cap."""

from __future__ import annotations

import pytest

import pqkit
from pqkit._keystate import KeyState, holding
from pqkit.mldsa import core, scheme
from pqkit.mldsa.scheme import DilithiumScheme


def _sig(name: str) -> DilithiumScheme:
    s = pqkit.sig(name)
    assert isinstance(s, DilithiumScheme)
    return s


def _flip(sk: bytes, pos: int) -> bytes:
    return sk[:pos] + bytes([sk[pos] ^ 1]) + sk[pos + 1 :]


@pytest.mark.parametrize("name", ["ML-DSA-44", "ML-DSA-87", "Dilithium2-AES"])
def test_inconsistent_keys_refused(name: str) -> None:
    s = _sig(name)
    pk, sk = s.keygen_derand(bytes(range(32)))
    bad_t0 = _flip(sk, len(sk) - 1)
    bad_tr = _flip(sk, 64)
    bad_rho = _flip(sk, 0)  # A changes: t0 no longer matches
    mu = bytes(64)
    for bad, what in ((bad_t0, "t0"), (bad_tr, "tr"), (bad_rho, "t0")):
        with pytest.raises(ValueError, match=f"secret key: {what} is not"):
            s.sign(bad, b"m", deterministic=True)
        with pytest.raises(ValueError, match=f"secret key: {what} is not"):
            s.sign_mu(bad, mu, deterministic=True)
    assert s.verify(pk, b"m", s.sign(sk, b"m"))


def test_fips_sign_internal_refuses_inconsistent_key() -> None:
    s = _sig("ML-DSA-65")
    _, sk = s.keygen_derand(bytes(32))
    with pytest.raises(ValueError, match="t0 is not Power2Round"):
        s.sign_internal(_flip(sk, len(sk) - 5), b"\x00\x00m", bytes(32))


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    calls: list[bytes] = []
    real = core.public_key_from_secret

    def counting(p: object, ops: core.Ops, key: bytes, dec: object = None) -> bytes:
        calls.append(key)
        return real(p, ops, key, dec)  # type: ignore[arg-type]

    monkeypatch.setattr(core, "public_key_from_secret", counting)
    return calls


def test_bytes_api_checks_every_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28 item 4: no verdict (nor a hash of the key) is kept by the scheme or
    the module; each signature with sk as bytes checks it."""
    s = _sig("ML-DSA-44")
    _, sk = s.keygen_derand(bytes([7]) * 32)
    calls = _counting(monkeypatch)
    for _ in range(2):
        s.sign(sk, b"m")
        s.sign_mu(sk, bytes(64))
    assert calls == [sk] * 4
    assert not hasattr(scheme, "_checked")
    bad = _flip(sk, len(sk) - 1)
    for _ in range(2):
        with pytest.raises(ValueError):
            s.sign(bad, b"m")
    assert calls == [sk] * 4 + [bad, bad]


def test_key_object_checks_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A key object is checked when it is made (or derived from its seed), and keeps
    the verdict: signing does not check it again."""
    from pqkit.keys import MLDSA44PrivateKey

    s = _sig("ML-DSA-44")
    _, sk = s.keygen_derand(bytes([9]) * 32)
    calls = _counting(monkeypatch)
    key = MLDSA44PrivateKey.from_expanded_bytes(sk)
    assert calls == [sk]
    for _ in range(3):
        key.sign(b"m")
        key.sign_mu(bytes(64))
        key.sign_prehashed(bytes(64), "SHA2-512")
    assert calls == [sk]
    MLDSA44PrivateKey.from_seed_bytes(bytes([9]) * 32).sign(b"m")
    assert calls == [sk]
    with holding(KeyState()):  # a state that has not seen this key: checked once
        s.sign(sk, b"m")
        s.sign(sk, b"m")
    assert calls == [sk, sk]


def test_sign_attempt_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    s = _sig("ML-DSA-65")
    pk, sk = s.keygen_derand(bytes(32))
    ops = s._ops()
    dec = core.decode_secret_key(s.params, ops, sk)
    mu = bytes(64)
    assert core.MAX_SIGN_ATTEMPTS >= 814  # FIPS 204, Appendix C
    monkeypatch.setattr(core, "MAX_SIGN_ATTEMPTS", core.SIGN_BATCH)  # one pass only
    capped = []
    for i in range(24):
        rho_pp = bytes([i]) * 64
        try:
            core.sign_mu_internal(s.params, ops, dec, mu, rho_pp)
        except RuntimeError as err:
            assert "no acceptable signature in 4 attempts" in str(err)
            capped.append(rho_pp)
    assert capped, "some rho'' needs more than one pass (probability 1 - 0.6^24)"
    monkeypatch.undo()
    sig = core.sign_mu_internal(s.params, ops, dec, mu, capped[0])
    assert core.verify_mu_internal(s.params, ops, pk, mu, sig)


def test_sign_attempt_cap_inside_a_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    # A cap below the pass size shortens the pass: the signature is the one the
    # uncapped loop finds when it is among the first 3 attempts, else RuntimeError.
    s = _sig("ML-DSA-65")
    _, sk = s.keygen_derand(bytes(range(32)))
    ops = s._ops()
    dec = core.decode_secret_key(s.params, ops, sk)
    mu = bytes(64)
    outcomes = set()
    for i in range(16):
        rho_pp = bytes([i]) * 64
        full = core.sign_mu_internal(s.params, ops, dec, mu, rho_pp)
        monkeypatch.setattr(core, "MAX_SIGN_ATTEMPTS", 3)
        try:
            assert core.sign_mu_internal(s.params, ops, dec, mu, rho_pp) == full
            outcomes.add("signed")
        except RuntimeError as err:
            assert "no acceptable signature in 3 attempts" in str(err)
            outcomes.add("capped")
        monkeypatch.undo()
    assert outcomes == {"signed", "capped"}  # fixed inputs; each about 1/2 per rho


@pytest.mark.parametrize("name", ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87", "Dilithium3"])
def test_pass_size_makes_the_median_signature_one_pass(name: str) -> None:
    # Issue 26: the step path's attempts per pass are the fewest whose first pass
    # succeeds more often than not (acceptance per attempt from FIPS 204, Table 1).
    p = _sig(name).params
    b = core.sign_batch(p)
    reject = 1 - 1 / {4: 4.25, 6: 5.1, 8: 3.85}[p.k]
    assert 1 <= b <= core.SIGN_BATCH
    assert reject**b < 0.5 <= reject ** (b - 1)


def test_check_shares_the_signing_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26 item 6: the consistency check of a bytes-API signature on the step
    path reuses signing's work: sk is decoded once and A_hat expanded once (through
    the cache of public values, where signing finds it), not twice each."""
    s = pqkit.sig("ML-DSA-44").using(arith="numpy")
    _, sk = s.keygen_derand(bytes([11]) * 32)
    expanded: list[bytes] = []
    decoded: list[bytes] = []
    real_expand, real_decode = core.expand_a, core.decode_secret_key

    def expand(p: object, ops: core.Ops, rho: bytes) -> object:
        expanded.append(rho)
        return real_expand(p, ops, rho)  # type: ignore[arg-type]

    def decode(p: object, ops: core.Ops, key: bytes) -> object:
        decoded.append(key)
        return real_decode(p, ops, key)  # type: ignore[arg-type]

    monkeypatch.setattr(core, "expand_a", expand)
    monkeypatch.setattr(core, "decode_secret_key", decode)
    sig = s.sign(sk, b"m")
    assert len(expanded) == 1 and decoded == [sk]
    assert s.verify(s.public_key_from_secret(sk), b"m", sig)


@pytest.mark.parametrize("backend", ["numpy", "ref"])
def test_short_stream_prefixes_are_read_again(
    monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    """The step path asks for a longer stream where a row ran short (ExpandA,
    ExpandS, SampleInBall): with prefixes far too short for any row, key generation,
    signing and verification give the same bytes as with the usual lengths."""
    s = _sig("ML-DSA-44").using(arith=backend)  # type: ignore[attr-defined]
    pk, sk = s.keygen_derand(bytes(range(32)))
    sig = s.sign(sk, b"m", deterministic=True)
    monkeypatch.setattr(core, "_REJ_UNIFORM_BYTES", 300)  # 100 candidates of 256
    monkeypatch.setattr(core, "_REJ_BOUNDED_BYTES", 64)  # 128 nibbles of 256
    monkeypatch.setattr(core, "_BALL_BYTES", 40)  # 32 index bytes for tau = 39
    s._a_cache._items.clear()  # A_hat and NTT(t1) made afresh
    assert s.keygen_derand(bytes(range(32))) == (pk, sk)
    s._a_cache._items.clear()  # A_hat and NTT(t1) made afresh
    assert s.sign(sk, b"m", deterministic=True) == sig
    s._a_cache._items.clear()  # A_hat and NTT(t1) made afresh
    assert s.verify(pk, b"m", sig)

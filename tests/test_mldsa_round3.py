"""Round-3 Dilithium 3.1 and Dilithium-AES: NIST KAT entry 0 (both signing modes)
through the API with a CtrDrbg as rng and through ``pqkit kat``, round trips,
tampering, and the round-3 argument rules (no context, no prehash, 64-byte rho')."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import backend_params, h, load_json

import pqkit
from pqkit.cli import main
from pqkit.common import CtrDrbg
from pqkit.mldsa.round3 import DilithiumR3
from pqkit.schemes import Signature

_SIZES = {  # Dilithium v3.1, Table 2: pk, sk, sig; NIST level
    "Dilithium2": (1312, 2528, 2420, 2),
    "Dilithium3": (1952, 4000, 3293, 3),
    "Dilithium5": (2592, 4864, 4595, 5),
}
_NAMES = [n + v for n in _SIZES for v in ("", "-AES")]
_MODES = ("deterministic_signing", "randomized_signing")


def _scheme(name: str, backend: str | None = None) -> DilithiumR3:
    s = pqkit.sig(name)
    assert isinstance(s, DilithiumR3)
    return s.using(arith=backend) if backend else s


def _kat_cases() -> list[Any]:
    out = []
    for name in _NAMES:
        for mode in _MODES:
            out += backend_params(f"{name}-{mode}", (name, mode), ref_runs=name == "Dilithium2")
    return out


@pytest.mark.parametrize(("name", "mode", "backend"), _kat_cases())
def test_kat_entry_0(name: str, mode: str, backend: str) -> None:
    entry = load_json(f"r3-kat-first/{name}.json")["variants"][mode]
    assert entry["count"] == 0
    s = _scheme(name, backend)
    drbg = CtrDrbg(h(entry["seed"]))
    pk, sk = s.keygen(rng=drbg)  # randombytes(32)
    assert pk == h(entry["pk"])
    assert sk == h(entry["sk"])
    msg = h(entry["msg"])
    assert len(msg) == entry["mlen"]
    # deterministic: no randomness; randomized: randombytes(64) = rho'
    sig = s.sign(sk, msg, deterministic=mode == "deterministic_signing", rng=drbg)
    assert sig + msg == h(entry["sm"])
    assert len(sig) + len(msg) == entry["smlen"]
    assert s.verify(pk, msg, sig)


@pytest.mark.parametrize("name", _NAMES)
def test_sizes_and_registry(name: str) -> None:
    s = pqkit.sig(name)
    base = name.removesuffix("-AES")
    pk_len, sk_len, sig_len, level = _SIZES[base]
    assert (s.length_public_key, s.length_secret_key, s.length_signature) == (
        pk_len,
        sk_len,
        sig_len,
    )
    assert s.claimed_nist_level == level
    assert s.name == name and name in pqkit.sigs()
    assert isinstance(s, Signature)
    assert pqkit.sig(name.lower().replace("-", "_")) is s


@pytest.mark.parametrize("name", _NAMES)
def test_round_trip_and_tampering(name: str) -> None:
    s = _scheme(name)
    pk, sk = s.keygen()
    msg = b"round three"
    for sig in (
        s.sign(sk, msg),
        s.sign(sk, msg, deterministic=True),
        s.sign(sk, msg, rho_prime=bytes(64)),
    ):
        assert len(sig) == s.length_signature
        assert s.verify(pk, msg, sig)
        assert s.verify_internal(pk, msg, sig)
        assert not s.verify(pk, msg + b"!", sig)
        for pos in (0, 40, len(sig) - s.params.omega - 1, len(sig) - 1):
            bad = bytearray(sig)
            bad[pos] ^= 0x04
            assert not s.verify(pk, msg, bytes(bad))
        assert not s.verify(pk, msg, sig[:-1])
    assert s.sign(sk, msg, deterministic=True) == s.sign(sk, msg, deterministic=True)
    assert s.sign_internal(sk, msg, rho_prime=bytes(64)) == s.sign(sk, msg, rho_prime=bytes(64))
    assert s.public_key_from_secret(sk) == pk


def test_external_mu_round3() -> None:
    from pqkit.mldsa import core

    s = _scheme("Dilithium3-AES")
    pk, sk = s.keygen_derand(bytes(range(32)))
    ops = s._ops()
    mu = core.h(ops, core.h(ops, pk, 32) + b"m", 64)
    sig = s.sign_mu(sk, mu, deterministic=True)
    assert sig == s.sign(sk, b"m", deterministic=True)
    assert s.verify_mu(pk, mu, sig)


@pytest.mark.parametrize("name", ["Dilithium2", "Dilithium5-AES"])
def test_ref_backend_agrees(name: str) -> None:
    s, r = _scheme(name), _scheme(name, "ref")
    pk, sk = s.keygen_derand(bytes(32))
    assert r.keygen_derand(bytes(32)) == (pk, sk)
    sig = s.sign(sk, b"x", deterministic=True)
    assert r.sign(sk, b"x", deterministic=True) == sig
    assert r.verify(pk, b"x", sig)


@pytest.mark.parametrize("name", _NAMES)
def test_no_context_no_prehash(name: str) -> None:
    s = _scheme(name)
    pk, sk = s.keygen_derand(bytes(32))
    sig = s.sign(sk, b"m", b"", deterministic=True)
    with pytest.raises(ValueError, match="no context"):
        s.sign(sk, b"m", b"ctx")
    with pytest.raises(ValueError, match="no pre-hash"):
        s.sign(sk, b"m", prehash="SHA2-256")
    with pytest.raises(ValueError, match="no context"):
        s.verify(pk, b"m", sig, b"ctx")
    with pytest.raises(ValueError, match="no pre-hash"):
        s.verify(pk, b"m", sig, prehash="SHA2-256")


def test_round3_bad_inputs() -> None:
    s = _scheme("Dilithium2")
    pk, sk = s.keygen_derand(bytes(32))
    with pytest.raises(ValueError, match="64 bytes"):
        s.sign(sk, b"m", rho_prime=bytes(32))  # round-3 rho' is 64 bytes
    with pytest.raises(ValueError, match="not both"):
        s.sign(sk, b"m", rho_prime=bytes(64), deterministic=True)
    with pytest.raises(ValueError, match="secret key must be 2528 bytes"):
        s.sign(sk + b"\x00", b"m")
    with pytest.raises(ValueError, match="public key must be 1312 bytes"):
        s.verify(pk[:-1], b"m", bytes(2420))
    with pytest.raises(TypeError):
        s.sign(sk, "m")  # type: ignore[arg-type]
    asked: list[int] = []

    def rng(n: int) -> bytes:
        asked.append(n)
        return bytes(n)

    s.keygen(rng=rng)
    s.sign(sk, b"m", rng=rng)
    s.sign(sk, b"m", deterministic=True, rng=rng)
    assert asked == [32, 64]
    # an out-of-range s1 coefficient (packed 7 > 2 eta) is refused
    bad = bytearray(sk)
    bad[96] |= 0x07
    with pytest.raises(ValueError, match=r"outside \[-2, 2\]"):
        s.sign(bytes(bad), b"m")


def _sig_entry_text(entry: dict[str, Any]) -> str:
    lines = []
    for field in ("count", "seed", "mlen", "msg", "pk", "sk", "smlen", "sm"):
        value = entry[field]
        lines.append(f"{field} = {value if isinstance(value, int) else value.upper()}\n")
    return "".join(lines)


@pytest.mark.parametrize("mode", _MODES)
@pytest.mark.parametrize("name", _NAMES)
def test_pqkit_kat_cli(name: str, mode: str, capsys: pytest.CaptureFixture[str]) -> None:
    entry = load_json(f"r3-kat-first/{name}.json")["variants"][mode]
    args = ["kat", name, "--count", "1"]
    if mode == "randomized_signing":
        args.append("--randomized")
    assert main(args) == 0
    assert capsys.readouterr().out == f"# {name}\n\n" + _sig_entry_text(entry) + "\n"


@pytest.mark.parametrize("name", ["Dilithium2", "Dilithium3-AES"])
def test_rnd_is_refused_and_names_the_hazard(name: str) -> None:
    """Round-3 rho' is the signing randomness itself: rnd= (ML-DSA's hedged input)
    must not silently mean it (issue 13 item 3)."""
    s = _scheme(name)
    pk, sk = s.keygen_derand(bytes(32))
    mu = bytes(64)
    calls = [
        lambda: s.sign(sk, b"m", rnd=bytes(64)),
        lambda: s.sign(sk, b"m", rnd=bytes(32)),
        lambda: s.sign_mu(sk, mu, rnd=bytes(64)),
        lambda: s.sign_internal(sk, b"m", bytes(64)),
    ]
    for call in calls:
        with pytest.raises(
            TypeError, match=r"does not take rnd=.*leaks the secret key.*rho_prime="
        ):
            call()
    with pytest.raises(TypeError, match="needs rho_prime"):
        s.sign_internal(sk, b"m")
    sig = s.sign_mu(sk, mu, rho_prime=bytes(range(64)))
    assert s.verify_mu(pk, mu, sig)

"""Classic McEliece through ``pqkit.kem``: sizes and levels (liboqs's), round trips,
the randomness requests (one 32-byte seed; one FixedWeight draw per attempt),
implicit rejection checked against the specification's formula, and the input
checks (types, lengths, weight, 6960119's padding bits). The known answers are
tests/test_liboqs_kats.py's."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest
from helpers import Cli

import pqkit
from pqkit import common
from pqkit.common import CtrDrbg

SMALL = ("Classic-McEliece-348864", "Classic-McEliece-348864f")

# liboqs 0.16 (src/kem/classic_mceliece): pk, sk, ct, level
SIZES = {
    "Classic-McEliece-348864": (261120, 6492, 96, 1),
    "Classic-McEliece-460896": (524160, 13608, 156, 3),
    "Classic-McEliece-6688128": (1044992, 13932, 208, 5),
    "Classic-McEliece-6960119": (1047319, 13948, 194, 5),
    "Classic-McEliece-8192128": (1357824, 14120, 208, 5),
}


@pytest.mark.parametrize("name", sorted(SIZES))
@pytest.mark.parametrize("variant", ["", "f"])
def test_sizes_and_levels_are_liboqs(name: str, variant: str) -> None:
    kem = pqkit.kem(name + variant)
    pk, sk, ct, level = SIZES[name]
    assert (kem.length_public_key, kem.length_secret_key, kem.length_ciphertext) == (pk, sk, ct)
    assert kem.length_shared_secret == 32 and kem.length_seed == 32
    assert kem.claimed_nist_level == level
    assert kem.name == name + variant


@cache
def keys(name: str) -> tuple[bytes, bytes]:
    pk, sk = pqkit.kem(name).keygen_derand(bytes(range(32)))
    return pk, sk


class Recorder:
    """A CtrDrbg that records the size of each request."""

    def __init__(self, seed: bytes) -> None:
        self.drbg = CtrDrbg(seed)
        self.sizes: list[int] = []

    def __call__(self, n: int) -> bytes:
        self.sizes.append(n)
        return self.drbg(n)


@pytest.mark.parametrize("name", SMALL)
def test_round_trip_and_randomness_requests(name: str) -> None:
    kem = pqkit.kem(name)
    rec = Recorder(bytes(48))
    pk, sk = kem.keygen(rng=rec)
    assert rec.sizes == [32]  # one seed; the retries are internal
    assert (pk, sk) == tuple(kem.keygen_derand(CtrDrbg(bytes(48))(32)))
    rec.sizes.clear()
    ss, ct = kem.encaps(pk, rng=rec)
    assert rec.sizes and set(rec.sizes) == {4 * 64}  # one FixedWeight draw per attempt
    assert kem.decaps(sk, ct) == ss
    assert sk[:32] != bytes(32)


@pytest.mark.parametrize("name", SMALL)
def test_encaps_derand_takes_the_error_vector(name: str) -> None:
    kem = pqkit.kem(name)
    pk, sk = keys(name)
    e = bytearray(3488 // 8)
    for i in range(64):
        e[i * 5] |= 1 << (i % 8)
    ss, ct = kem.encaps_derand(pk, bytes(e))
    assert ss == common.shake256_digest(b"\x01" + bytes(e) + ct, 32)  # K = H(1, e, C)
    assert kem.decaps(sk, ct) == ss
    with pytest.raises(ValueError, match="weight 64"):
        kem.encaps_derand(pk, bytes(436))
    with pytest.raises(ValueError, match="e must be 436 bytes"):
        kem.encaps_derand(pk, bytes(e[:-1]))


@pytest.mark.parametrize("name", SMALL)
def test_implicit_rejection_is_h_of_zero_s_c(name: str) -> None:
    kem = pqkit.kem(name)
    pk, sk = keys(name)
    ss, ct = kem.encaps(pk, rng=CtrDrbg(bytes(48)))
    bad = bytes([ct[0] ^ 1]) + ct[1:]
    s = sk[-436:]
    assert kem.decaps(sk, bad) == common.shake256_digest(b"\x00" + s + bad, 32)
    assert kem.decaps(sk, bytes(96)) == common.shake256_digest(b"\x00" + s + bytes(96), 32)
    assert kem.decaps(sk, ct) == ss


@pytest.mark.parametrize("backend", ["numpy", "jit"])
def test_backends_agree_on_implicit_rejection(backend: str) -> None:
    if backend not in pqkit.arith.available("mceliece"):
        pytest.skip(f"{backend} is not installed")
    name = SMALL[0]
    _, sk = keys(name)
    bad = bytes(range(96))
    want = pqkit.kem(name).using(arith="ref").decaps(sk, bad)
    assert pqkit.kem(name).using(arith=backend).decaps(sk, bad) == want


def test_wrong_types_and_lengths() -> None:
    kem = pqkit.kem(SMALL[0])
    pk, sk = keys(SMALL[0])
    with pytest.raises(TypeError, match="seed must be bytes-like"):
        kem.keygen_derand("x" * 32)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seed must be 32 bytes"):
        kem.keygen_derand(bytes(31))
    with pytest.raises(ValueError, match="public key must be 261120 bytes"):
        kem.encaps(pk[:-1])
    with pytest.raises(TypeError, match="public key must be bytes-like"):
        kem.encaps(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="secret key must be 6492 bytes"):
        kem.decaps(sk + b"\0", bytes(96))
    with pytest.raises(ValueError, match="ciphertext must be 96 bytes"):
        kem.decaps(sk, bytes(97))
    with pytest.raises(ValueError, match=r"rng\(32\) returned 31 bytes"):
        kem.keygen(rng=lambda n: bytes(n - 1))


def test_6960119_padding_bits_are_refused() -> None:
    kem = pqkit.kem("Classic-McEliece-6960119")
    # k = 5413 = 676 * 8 + 5: the last byte of each row has 3 padding bits
    pk = bytearray(kem.length_public_key)
    pk[676] = 0x20
    with pytest.raises(ValueError, match="nonzero padding bits"):
        kem.encaps(bytes(pk))
    # m t = 1547 = 193 * 8 + 3: the ciphertext's last byte has 5 padding bits
    ct = bytearray(kem.length_ciphertext)
    ct[-1] = 0x08
    with pytest.raises(ValueError, match="ciphertext: nonzero padding bits"):
        kem.decaps(bytes(kem.length_secret_key), bytes(ct))
    ct[-1] = 0x07  # the three data bits are fine: decapsulation runs (rejects)
    assert len(kem.decaps(bytes(kem.length_secret_key), bytes(ct))) == 32


def test_inputs_are_not_modified() -> None:
    kem = pqkit.kem(SMALL[1])
    pk, sk = keys(SMALL[1])
    pk_b, sk_b = bytearray(pk), bytearray(sk)
    ss, ct = kem.encaps(pk_b)
    ct_b = bytearray(ct)
    assert kem.decaps(sk_b, ct_b) == ss
    assert (bytes(pk_b), bytes(sk_b), bytes(ct_b)) == (pk, sk, ct)
    assert np.frombuffer(pk, dtype=np.uint8).size == kem.length_public_key


# --- key objects, key files and the command line ---------------------------------------


def test_key_objects_and_pem_files() -> None:
    import pqkit.keys.mceliece  # noqa: F401  (registers the raw-PEM key classes)
    from pqkit.keys.hybrid import hybrid_private_key_class, load_pem_hybrid_key

    cls = hybrid_private_key_class("classic-mceliece-348864f")
    key = cls.from_seed_bytes(bytes(range(32)))
    pem = key.private_bytes_pem()
    assert pem.startswith(b"-----BEGIN CLASSIC-MCELIECE-348864F SEED PRIVATE KEY-----\n")
    public = key.public_key()
    assert public.public_bytes_raw() == keys(SMALL[1])[0]
    pub_pem = public.public_bytes_pem()
    assert pub_pem.startswith(b"-----BEGIN CLASSIC-MCELIECE-348864F PUBLIC KEY-----\n")
    assert load_pem_hybrid_key(pub_pem) == public
    ss, ct = public.encapsulate()
    assert load_pem_hybrid_key(pem).decapsulate(ct) == ss
    with pytest.raises(ValueError, match="public key must be 261120 bytes"):
        type(public).from_public_bytes(bytes(10))


def test_cli_keygen_show_encaps_decaps(cli: Cli, tmp_path: Path) -> None:
    from pqkit.cli.loading import KEY_FILE_LIMIT

    name = SMALL[0]
    cli.ok("keygen", name, "-o", "k.pem", "--pub", "p.pem")
    assert (tmp_path / "p.pem").stat().st_size > KEY_FILE_LIMIT  # read all the same
    shown = cli.ok("show", "p.pem").decode()
    assert f"{name} (KEM, no OID)" in shown and "261120 bytes" in shown
    assert "seed:         32 bytes" in cli.ok("show", "k.pem").decode()
    cli.ok("encaps", "p.pem", "--ct", "ct", "--secret", "s1")
    cli.ok("decaps", "k.pem", "ct", "--secret", "s2")
    assert (tmp_path / "s1").read_bytes() == (tmp_path / "s2").read_bytes()
    cli.fails("keygen", name, "-o", "x.der", "--der", match="raw-seed PEM")
    # only a Classic McEliece public key file may exceed the key-file limit
    (tmp_path / "big.pem").write_bytes(b"-----BEGIN X-WING PUBLIC KEY-----\n" + b"A" * 10**5)
    cli.fails("show", "big.pem", match=f"more than {KEY_FILE_LIMIT} bytes")

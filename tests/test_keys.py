"""Key objects: construction doors, raw bytes, PKCS#8 / SPKI round trips, operations."""

from __future__ import annotations

import copy
import hashlib
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pqkit
from pqkit.common import shake256_digest
from pqkit.keys import (
    MLDSA44PrivateKey,
    MLDSA65PrivateKey,
    MLDSAPrivateKey,
    MLKEM768PrivateKey,
    MLKEMPrivateKey,
    MLKEMPublicKey,
    PrivateKey,
    private_key_class,
    public_key_class,
)
from pqkit.prehash import PREHASHES
from pqkit.serialization import (
    BestAvailableEncryption,
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

ALGORITHMS = ["ML-KEM-512", "ML-KEM-768", "ML-KEM-1024", "ML-DSA-44", "ML-DSA-65", "ML-DSA-87"]
KEMS = ALGORITHMS[:3]
SIGS = ALGORITHMS[3:]


def seed_for(cls: type[PrivateKey], fill: int = 7) -> bytes:
    return bytes((fill + i) % 256 for i in range(cls.algorithm.seed_length))


def scheme(name: str) -> Any:
    return pqkit.kem(name) if name.startswith("ML-KEM") else pqkit.sig(name)


# --- construction ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ALGORITHMS)
def test_from_seed_matches_the_scheme(name: str) -> None:
    cls = private_key_class(name)
    seed = seed_for(cls)
    key = cls.from_seed_bytes(seed)
    pk, sk = scheme(name).keygen_derand(seed)
    assert key.private_bytes_raw() == seed
    assert key.private_bytes_expanded() == sk
    assert key.public_key().public_bytes_raw() == pk
    assert type(key.public_key()) is public_key_class(name)
    assert cls.from_seed_bytes(bytearray(seed)).public_key() == key.public_key()


@pytest.mark.parametrize("name", ALGORITHMS)
def test_generate(name: str) -> None:
    cls = private_key_class(name)
    calls: list[int] = []

    def rng(n: int) -> bytes:
        calls.append(n)
        return seed_for(cls, 99)

    key = cls.generate(rng=rng)
    assert calls == [cls.algorithm.seed_length]
    assert key.private_bytes_raw() == seed_for(cls, 99)
    assert cls.generate().private_bytes_raw() != cls.generate().private_bytes_raw()


@pytest.mark.parametrize("name", ALGORITHMS)
def test_from_expanded_bytes(name: str) -> None:
    cls = private_key_class(name)
    key = cls.from_seed_bytes(seed_for(cls))
    expanded = cls.from_expanded_bytes(key.private_bytes_expanded())
    assert expanded.public_key() == key.public_key()
    assert expanded.private_bytes_expanded() == key.private_bytes_expanded()
    with pytest.raises(ValueError, match="no seed"):
        expanded.private_bytes_raw()
    with pytest.raises(ValueError, match="no seed"):
        expanded.private_bytes(Encoding.DER, PrivateFormat.PKCS8, NoEncryption(), form="both")
    assert "expanded key only" in repr(expanded)


@pytest.mark.parametrize("name", ALGORITHMS)
def test_bad_lengths_and_types(name: str) -> None:
    cls = private_key_class(name)
    alg = cls.algorithm
    with pytest.raises(ValueError, match=f"seed must be {alg.seed_length} bytes"):
        cls.from_seed_bytes(bytes(alg.seed_length - 1))
    with pytest.raises(ValueError, match=f"must be {alg.expanded_key_length} bytes"):
        cls.from_expanded_bytes(bytes(alg.expanded_key_length + 1))
    with pytest.raises(ValueError, match=f"must be {alg.public_key_length} bytes"):
        public_key_class(name).from_public_bytes(bytes(alg.public_key_length - 1))
    with pytest.raises(TypeError, match="bytes-like"):
        cls.from_seed_bytes("00" * alg.seed_length)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="cannot be created directly"):
        cls()
    with pytest.raises(TypeError, match="cannot be created directly"):
        public_key_class(name)()


def test_base_classes_are_not_parameter_sets() -> None:
    with pytest.raises(TypeError, match="base class"):
        MLKEMPrivateKey.generate()
    with pytest.raises(TypeError, match="base class"):
        MLKEMPublicKey.from_public_bytes(bytes(1184))
    with pytest.raises(pqkit.UnknownAlgorithm):
        private_key_class("Kyber768")


# --- object behaviour -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["ML-KEM-768", "ML-DSA-44"])
def test_equality_repr_copy_pickle(name: str) -> None:
    cls = private_key_class(name)
    key = cls.from_seed_bytes(seed_for(cls))
    other = cls.from_seed_bytes(seed_for(cls, 8))
    public = key.public_key()
    assert public == key.public_key() and hash(public) == hash(key.public_key())
    assert public != other.public_key()
    assert public != public.public_bytes_raw()
    assert len({public, key.public_key(), other.public_key()}) == 2
    assert seed_for(cls).hex() not in repr(key)
    assert key.private_bytes_expanded()[:8].hex() not in repr(key)
    assert "secret not shown" in repr(key)
    assert copy.copy(public) is public and copy.deepcopy(public) is public
    assert pickle.loads(pickle.dumps(public)) == public
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(key)
    with pytest.raises(AttributeError, match="immutable"):
        key._seed = None
    with pytest.raises(AttributeError, match="immutable"):
        public._public = b""


def test_keys_of_different_parameter_sets_differ() -> None:
    kem = MLKEM768PrivateKey.from_seed_bytes(bytes(64))
    dsa = MLDSA65PrivateKey.from_seed_bytes(bytes(32))
    assert kem.public_key() != dsa.public_key()


# --- serialisation round trips ---------------------------------------------------------------


@pytest.mark.parametrize("name", ALGORITHMS)
@pytest.mark.parametrize("form", ["seed", "expanded", "both"])
@pytest.mark.parametrize("encoding", [Encoding.PEM, Encoding.DER], ids=["PEM", "DER"])
def test_private_round_trip(name: str, form: Any, encoding: Encoding) -> None:
    cls = private_key_class(name)
    key = cls.from_seed_bytes(seed_for(cls))
    data = key.private_bytes(encoding, PrivateFormat.PKCS8, NoEncryption(), form=form)
    loader = pqkit.load_pem_private_key if encoding is Encoding.PEM else pqkit.load_der_private_key
    back = loader(data)
    assert type(back) is cls
    assert back.private_bytes_expanded() == key.private_bytes_expanded()
    assert back.public_key() == key.public_key()
    assert back.private_bytes(encoding, PrivateFormat.PKCS8, NoEncryption(), form=form) == data
    if form != "expanded":
        assert back.private_bytes_raw() == key.private_bytes_raw()


@pytest.mark.parametrize("name", ["ML-KEM-512", "ML-DSA-87"])
@pytest.mark.parametrize("encoding", [Encoding.PEM, Encoding.DER], ids=["PEM", "DER"])
def test_encrypted_round_trip(name: str, encoding: Encoding) -> None:
    pytest.importorskip("cryptography")
    cls = private_key_class(name)
    key = cls.from_seed_bytes(seed_for(cls))
    encryption = BestAvailableEncryption(b"s3cret", iterations=1000)
    data = key.private_bytes(encoding, PrivateFormat.PKCS8, encryption, form="both")
    if encoding is Encoding.PEM:
        assert data.startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----\n")
        back = pqkit.load_pem_private_key(data, b"s3cret")
    else:
        back = pqkit.load_der_private_key(data, bytearray(b"s3cret"))
    assert back.private_bytes_raw() == key.private_bytes_raw()
    loader = pqkit.load_pem_private_key if encoding is Encoding.PEM else pqkit.load_der_private_key
    with pytest.raises(ValueError, match="wrong password"):
        loader(data, b"s3cret!")


@pytest.mark.parametrize("name", ALGORITHMS)
def test_public_round_trip(name: str) -> None:
    cls = private_key_class(name)
    public = cls.from_seed_bytes(seed_for(cls)).public_key()
    pem = public.public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
    der_bytes = public.public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    assert pem.startswith(b"-----BEGIN PUBLIC KEY-----\n")
    assert pqkit.load_pem_public_key(pem) == public
    assert pqkit.load_der_public_key(der_bytes) == public
    assert public.public_bytes(Encoding.Raw, PublicFormat.Raw) == public.public_bytes_raw()


def test_output_option_errors() -> None:
    key = MLDSA44PrivateKey.from_seed_bytes(bytes(32))
    none = NoEncryption()
    assert key.private_bytes(Encoding.Raw, PrivateFormat.Raw, none) == bytes(32)
    with pytest.raises(ValueError, match="Raw encoding goes with Raw format"):
        key.private_bytes(Encoding.PEM, PrivateFormat.Raw, none)
    with pytest.raises(ValueError, match="Raw encoding goes with Raw format"):
        key.public_key().public_bytes(Encoding.Raw, PublicFormat.SubjectPublicKeyInfo)
    with pytest.raises(ValueError, match="unknown private key form 'full'"):
        key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, none, form="full")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cannot be encrypted"):
        key.private_bytes(Encoding.Raw, PrivateFormat.Raw, BestAvailableEncryption(b"pw"))
    with pytest.raises(TypeError, match="Encoding member"):
        key.private_bytes("PEM", PrivateFormat.PKCS8, none)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="encryption_algorithm"):
        key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, b"pw")
    with pytest.raises(ValueError, match="must not be empty"):
        BestAvailableEncryption(b"")


@given(st.data())
@settings(max_examples=40, deadline=None)
def test_mutated_keys_raise_only_value_error(data: st.DataObject) -> None:
    key = MLKEM768PrivateKey.from_seed_bytes(bytes(64))
    der_bytes = bytearray(
        key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, NoEncryption(), form="both")
    )
    for _ in range(data.draw(st.integers(1, 3))):
        action = data.draw(st.sampled_from(["flip", "cut", "insert"]))
        at = data.draw(st.integers(0, len(der_bytes) - 1))
        if action == "flip":
            der_bytes[at] ^= data.draw(st.integers(1, 255))
        elif action == "cut":
            del der_bytes[at]
        else:
            der_bytes.insert(at, data.draw(st.integers(0, 255)))
    try:
        loaded = pqkit.load_der_private_key(bytes(der_bytes))
    except ValueError:
        return
    # A mutation that still parses changed only key bytes that every check accepts:
    # the seed, or (after the seed) bytes checked against the seed.
    assert isinstance(loaded, MLKEM768PrivateKey)


@given(st.binary(min_size=1, max_size=64), st.integers(0, 2000), st.sampled_from(["PEM", "DER"]))
@settings(max_examples=60, deadline=None)
def test_mutated_public_keys_raise_only_value_error(patch: bytes, at: int, encoding: str) -> None:
    public = MLKEM768PrivateKey.from_seed_bytes(bytes(64)).public_key()
    data = public.public_bytes(Encoding[encoding], PublicFormat.SubjectPublicKeyInfo)
    at %= len(data)
    mutated = data[:at] + patch + data[at + len(patch) :]
    loader = pqkit.load_pem_public_key if encoding == "PEM" else pqkit.load_der_public_key
    try:
        loaded = loader(mutated)
    except ValueError:
        return
    assert isinstance(loaded, MLKEMPublicKey)


# --- ML-KEM -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", KEMS)
def test_encapsulate_decapsulate(name: str) -> None:
    cls = private_key_class(name)
    key = cls.from_seed_bytes(seed_for(cls))
    assert isinstance(key, MLKEMPrivateKey)
    shared, ct = key.public_key().encapsulate()
    assert len(shared) == 32 and len(ct) == cls.algorithm.output_length
    assert key.decapsulate(ct) == shared
    m = bytes(range(32))
    fixed = key.public_key().encapsulate(rng=lambda n: m[:n])
    assert tuple(fixed) == tuple(
        pqkit.kem(name).encaps_derand(key.public_key().public_bytes_raw(), m)
    )
    tampered = bytes([ct[0] ^ 1]) + ct[1:]
    assert key.decapsulate(tampered) != shared  # implicit rejection: no error
    with pytest.raises(ValueError, match=f"ciphertext must be {len(ct)} bytes"):
        key.decapsulate(ct[:-1])


@pytest.mark.parametrize("name", KEMS)
def test_modulus_check(name: str) -> None:
    cls = public_key_class(name)
    raw = private_key_class(name).from_seed_bytes(bytes(64)).public_key().public_bytes_raw()
    # first 12-bit coefficient := 3329 = q (0xd01): bytes 01, x d
    bad = bytes([0x01, (raw[1] & 0xF0) | 0x0D]) + raw[2:]
    with pytest.raises(ValueError, match=r"FIPS 203 §7.2 modulus check"):
        cls.from_public_bytes(bad)
    last = len(raw) - 33  # the final coefficient (high 12 bits of the last triple) := 0xfff
    bad = raw[: last - 1] + bytes([raw[last - 1] | 0xF0, 0xFF]) + raw[last + 1 :]
    with pytest.raises(ValueError, match=r"FIPS 203 §7.2 modulus check"):
        cls.from_public_bytes(bad)
    assert cls.from_public_bytes(raw).public_bytes_raw() == raw


@pytest.mark.parametrize("name", KEMS)
def test_expanded_key_checks(name: str) -> None:
    cls = private_key_class(name)
    dk = cls.from_seed_bytes(bytes(64)).private_bytes_expanded()
    k384 = cls.algorithm.public_key_length - 32
    h_at = k384 + cls.algorithm.public_key_length
    bad_hash = dk[:h_at] + bytes([dk[h_at] ^ 1]) + dk[h_at + 1 :]
    with pytest.raises(ValueError, match=r"FIPS 203 §7.3 hash check"):
        cls.from_expanded_bytes(bad_hash)
    bad_s = bytes([dk[0] ^ 1]) + dk[1:]  # s_hat changed, H(ek) intact
    with pytest.raises(ValueError, match="pairwise consistency test"):
        cls.from_expanded_bytes(bad_s)


# --- ML-DSA -------------------------------------------------------------------------------


def dsa_key(name: str, fill: int = 3) -> MLDSAPrivateKey:
    cls = private_key_class(name)
    key = cls.from_seed_bytes(seed_for(cls, fill))
    assert isinstance(key, MLDSAPrivateKey)
    return key


@pytest.mark.parametrize("name", SIGS)
def test_sign_verify(name: str) -> None:
    key = dsa_key(name)
    public = key.public_key()
    message = b"attack at dawn"
    signature = key.sign(message, b"ctx")
    assert len(signature) == key.algorithm.output_length
    public.verify(signature, message, b"ctx")
    for bad_args in [(message, None), (message + b"!", b"ctx"), (message, b"ctx2")]:
        with pytest.raises(pqkit.InvalidSignature):
            public.verify(signature, *bad_args)
    with pytest.raises(pqkit.InvalidSignature):
        public.verify(signature[:-1], message, b"ctx")
    with pytest.raises(pqkit.InvalidSignature):
        dsa_key(name, 4).public_key().verify(signature, message, b"ctx")
    det = key.sign(message, deterministic=True)
    assert det == key.sign(message, b"", deterministic=True)
    assert det == pqkit.sig(name).sign(key.private_bytes_expanded(), message, deterministic=True)
    public.verify(det, message)
    assert pqkit.sig(name).verify(public.public_bytes_raw(), message, signature, b"ctx")


def test_sign_argument_errors() -> None:
    key = dsa_key("ML-DSA-44")
    with pytest.raises(ValueError, match="at most 255 bytes"):
        key.sign(b"m", bytes(256))
    with pytest.raises(ValueError, match="at most 255 bytes"):
        key.public_key().verify(bytes(2420), b"m", bytes(256))
    with pytest.raises(TypeError, match="bytes-like"):
        key.sign("text")
    with pytest.raises(TypeError, match="bytes-like"):
        key.public_key().verify("sig", b"m")


@pytest.mark.parametrize("prehash", list(PREHASHES))
def test_prehashed_matches_hash_ml_dsa(prehash: str) -> None:
    key = dsa_key("ML-DSA-44")
    public = key.public_key()
    message = b"a message to pre-hash"
    hashlib_name = prehash.lower().replace("sha2-", "sha").replace("/", "_").replace("-", "_")
    hasher = hashlib.new(hashlib_name, message)
    length = {"SHAKE-128": 32, "SHAKE-256": 64}.get(prehash, 0)
    digest = hasher.digest(length) if length else hasher.digest()  # type: ignore[call-arg]
    length = len(digest)
    signature = key.sign_prehashed(digest, prehash, b"ctx", deterministic=True)
    expected = pqkit.sig("ML-DSA-44").sign(
        key.private_bytes_expanded(), message, b"ctx", prehash=prehash, deterministic=True
    )
    assert signature == expected
    public.verify_prehashed(signature, digest, prehash, b"ctx")
    assert pqkit.sig("ML-DSA-44").verify(
        public.public_bytes_raw(), message, key.sign_prehashed(digest, prehash, b"ctx"), b"ctx",
        prehash=prehash,
    )  # fmt: skip
    with pytest.raises(pqkit.InvalidSignature):
        public.verify_prehashed(signature, digest, prehash)
    with pytest.raises(pqkit.InvalidSignature):
        public.verify(signature, message, b"ctx")  # HashML-DSA is not pure ML-DSA
    with pytest.raises(ValueError, match=f"digest must be {length} bytes"):
        key.sign_prehashed(digest + b"\x00", prehash)


def test_prehash_name_errors() -> None:
    key = dsa_key("ML-DSA-44")
    with pytest.raises(ValueError, match="unknown prehash 'MD5'"):
        key.sign_prehashed(bytes(16), "MD5")
    with pytest.raises(TypeError, match="must be a str"):
        key.sign_prehashed(bytes(32), None)
    # Left out: only a key bound to a pre-hash by its OID may (keys/_base.SchemeSigner).
    with pytest.raises(TypeError, match="must be a str"):
        key.sign_prehashed(bytes(64))


@pytest.mark.parametrize("name", SIGS)
def test_mu_hasher(name: str) -> None:
    key = dsa_key(name)
    public = key.public_key()
    message = bytes(range(256)) * 40
    ctx = b"context"
    tr = shake256_digest(public.public_bytes_raw(), 64)
    expected = shake256_digest(tr + b"\x00" + bytes([len(ctx)]) + ctx + message, 64)
    hasher = public.mu_hasher(ctx)
    hasher.update(message[:1000])
    fork = hasher.copy()
    for i in range(1000, len(message), 999):
        hasher.update(message[i : i + 999])
    mu = hasher.finalize()
    assert mu == expected
    fork.update(message[1000:])
    assert fork.finalize() == expected
    with pytest.raises(ValueError, match="finalized"):
        hasher.update(b"more")
    with pytest.raises(ValueError, match="finalized"):
        hasher.finalize()
    signature = key.sign_mu(mu)
    public.verify(signature, message, ctx)
    public.verify_mu(signature, mu)
    public.verify_mu(key.sign(message, ctx), mu)
    det = key.sign_mu(mu, deterministic=True)
    assert det == key.sign(message, ctx, deterministic=True)
    with pytest.raises(pqkit.InvalidSignature):
        public.verify_mu(signature, bytes(64))
    with pytest.raises(ValueError, match="mu must be 64 bytes"):
        key.sign_mu(bytes(32))


def test_mu_hasher_matches_cryptography() -> None:
    from pyca_features import VERSION, pyca_module

    mldsa = pyca_module("mldsa")
    if not hasattr(mldsa, "MLDSAMuHasher"):
        pytest.skip(f"cryptography {VERSION} has no mldsa.MLDSAMuHasher")
    key = dsa_key("ML-DSA-65")
    theirs = mldsa.MLDSA65PublicKey.from_public_bytes(key.public_key().public_bytes_raw())
    ours = key.public_key().mu_hasher(b"ctx")
    reference = mldsa.MLDSAMuHasher(theirs, b"ctx")
    for piece in (b"", b"abc", bytes(5000)):
        ours.update(piece)
        reference.update(piece)
    assert ours.finalize() == reference.finalize()

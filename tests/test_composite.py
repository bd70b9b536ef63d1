"""Composite ML-DSA and composite ML-KEM on generated keys (issue 29 items 1, 2, 3, 5).

Per OID: the round trip, the sizes against the drafts' maxima, the key classes with
their SPKI / PKCS#8 round trips; a signature fails if its halves come from different
messages, keys or labels; bad input (wrong half lengths, the wrong curve or RSA
size, an RSA key below the OID's size, a non-DER ECDSA signature, a point not on the
curve) is a ``ValueError`` naming the defect in the loaders and ``False`` in
``verify``, never an exception of pyca's; decapsulation fails with one message
whichever half failed; the command line and ``pqkit speed`` rows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import Cli, composite_private_key, traditional_key

import pqkit
from pqkit import common, der
from pqkit.composite.kem import DecapsulationError
from pqkit.composite.sig import PREFIX
from pqkit.composite.traditional import KEYS, pyca
from pqkit.keys import CompositeKemPrivateKey, CompositeSigPrivateKey, private_key_class
from pqkit.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat
from pqkit.serialization.algorithms import ALGORITHMS

pytest.importorskip("cryptography", reason="the composites' traditional half is pyca's")

SIGS = [a.name for a in ALGORITHMS if a.composite and a.kind == "sig"]
KEMS = [a.name for a in ALGORITHMS if a.composite and a.kind == "kem"]
MESSAGE = b"composite test message"


def _keys(name: str, seed: bytes = bytes(64)) -> tuple[Any, bytes, bytes]:
    """(scheme, public key, secret key) of a key from :func:`composite_private_key`."""
    key = composite_private_key(name, seed)
    return (
        pqkit.registry.algorithm(name).scheme(),
        key.public_key().public_bytes_raw(),
        (key.private_bytes_raw()),
    )


def test_thirty_oids_with_the_drafts_names() -> None:
    assert len(SIGS) == 18 and len(KEMS) == 12
    oids = [pqkit.registry.algorithm(n).oid for n in SIGS + KEMS]
    assert oids == [f"1.3.6.1.5.5.7.6.{arc}" for arc in range(37, 67)]
    assert pqkit.sig("id-MLDSA65-ECDSA-P256-SHA512").name == "MLDSA65-ECDSA-P256-SHA512"
    assert pqkit.kem("id-MLKEM768-X25519-SHA3-256").name == "MLKEM768-X25519-SHA3-256"
    assert pqkit.kem("MLKEM768-X25519").name == "X-Wing"  # the hybrid, not the composite
    assert private_key_class("id-MLDSA87-Ed448-SHAKE256").__name__ == (
        "MLDSA87_Ed448_SHAKE256PrivateKey"
    )


# --- composite ML-DSA ---------------------------------------------------------------------


@pytest.mark.parametrize("name", SIGS)
def test_signature_round_trip_and_what_must_fail(name: str) -> None:
    scheme, pk, sk = _keys(name)
    assert len(pk) <= scheme.length_public_key and len(sk) <= scheme.length_secret_key
    assert scheme.public_key_from_secret(sk) == pk
    signature = scheme.sign(sk, MESSAGE, b"ctx")
    assert len(signature) <= scheme.length_signature
    assert scheme.verify(pk, MESSAGE, signature, b"ctx")
    assert not scheme.verify(pk, MESSAGE, signature)  # another context
    assert not scheme.verify(pk, MESSAGE + b"!", signature, b"ctx")  # another message
    n = scheme.params.length_mldsa_signature
    other = scheme.sign(sk, b"another message", b"ctx")
    assert scheme.verify(pk, b"another message", other, b"ctx")
    assert not scheme.verify(pk, MESSAGE, signature[:n] + other[n:], b"ctx")  # trad half
    assert not scheme.verify(pk, MESSAGE, other[:n] + signature[n:], b"ctx")  # ML-DSA half
    # a half from another key: another ML-DSA seed with the same traditional key
    _, pk2, sk2 = _keys(name, bytes(range(64)))
    assert pk2[len(pk2) - len(pk) + n :] != pk[:n]
    theirs = scheme.sign(sk2, MESSAGE, b"ctx")
    assert not scheme.verify(pk, MESSAGE, theirs[:n] + signature[n:], b"ctx")
    # malformed: short, long, only the ML-DSA half, empty
    for bad in (signature[:n], signature + b"\x00", signature[:-1], b""):
        assert scheme.verify(pk, MESSAGE, bad, b"ctx") is False


@pytest.mark.parametrize("name", ["MLDSA65-ECDSA-P256-SHA512", "MLDSA44-Ed25519-SHA512"])
def test_the_label_binds_the_ml_dsa_half(name: str) -> None:
    # M' by the draft, by hand: the ML-DSA half signed with another label as its context
    scheme, pk, sk = _keys(name)
    digest = scheme.prehash(MESSAGE)
    m_prime = PREFIX + scheme.label + b"\x00" + digest
    assert scheme.message_representative(digest) == m_prime
    seed, trad = scheme.split_secret_key(sk)
    mldsa_sk = scheme.mldsa.keygen_derand(seed).secret_key
    trad_half = scheme.signer.sign(trad, m_prime)
    right = scheme.mldsa.sign(mldsa_sk, m_prime, scheme.label)
    assert scheme.verify(pk, MESSAGE, right + trad_half)
    wrong = scheme.mldsa.sign(mldsa_sk, m_prime, b"COMPSIG-MLDSA65-P256-SHA512")  # draft -13's
    assert not scheme.verify(pk, MESSAGE, wrong + trad_half)
    plain = scheme.mldsa.sign(mldsa_sk, m_prime)  # no context at all
    assert not scheme.verify(pk, MESSAGE, plain + trad_half)


def test_a_signature_does_not_verify_under_another_oid() -> None:
    # .41 and .42 take the same key bytes (ML-DSA-65 and RSA-3072); labels and padding differ
    pss, pk, sk = _keys("MLDSA65-RSA3072-PSS-SHA512")
    pkcs15 = pqkit.sig("MLDSA65-RSA3072-PKCS15-SHA512")
    assert pkcs15.public_key_from_secret(sk) == pk
    assert not pkcs15.verify(pk, MESSAGE, pss.sign(sk, MESSAGE))
    assert not pss.verify(pk, MESSAGE, pkcs15.sign(sk, MESSAGE))


def test_keygen_derand_takes_the_traditional_key() -> None:
    scheme = pqkit.sig("MLDSA65-ECDSA-P256-SHA512")
    trad = traditional_key("P-256")
    pk, sk = scheme.keygen_derand(bytes(32), trad)
    assert (
        sk == bytes(32) + trad and pk[:1952] == pqkit.sig("ML-DSA-65").keygen_derand(bytes(32))[0]
    )
    with pytest.raises(TypeError, match="needs the traditional private key"):
        scheme.keygen_derand(bytes(32))
    with pytest.raises(ValueError, match="xi"):
        scheme.keygen_derand(bytes(31), trad)
    pk2, sk2 = scheme.keygen()
    assert scheme.verify(pk2, MESSAGE, scheme.sign(sk2, MESSAGE))
    # deterministic: the ML-DSA half repeats; ECDSA draws its nonce (OpenSSL)
    first = scheme.sign(sk, MESSAGE, deterministic=True)
    assert scheme.sign(sk, MESSAGE, deterministic=True)[:3309] == first[:3309]


def test_prehash_argument_and_types() -> None:
    scheme, pk, sk = _keys("MLDSA87-Ed448-SHAKE256")
    signature = scheme.sign(sk, MESSAGE, prehash="SHAKE-256")
    assert scheme.verify(pk, MESSAGE, signature, prehash="SHAKE-256")
    with pytest.raises(ValueError, match="pre-hashes with SHAKE-256"):
        scheme.sign(sk, MESSAGE, prehash="SHA2-512")
    with pytest.raises(TypeError):
        scheme.verify(pk, "text", signature)
    with pytest.raises(ValueError, match="at most 255"):
        scheme.verify(pk, MESSAGE, signature, bytes(256))


def _ecdsa_ber(signature: bytes) -> bytes:
    """The same (r, s) with r's INTEGER length in long form: BER, not DER."""
    body = der.read_single(signature, der.SEQUENCE, "SEQUENCE", "sig")
    reader = der.DerReader(body, "sig")
    r, s = reader.expect(der.INTEGER, "r"), reader.expect(der.INTEGER, "s")
    inner = b"\x02\x81" + bytes([len(r)]) + r + der.encode_tlv(der.INTEGER, s)
    return b"\x30" + bytes([len(inner)]) + inner


def test_verify_is_false_for_a_non_der_ecdsa_half() -> None:
    scheme, pk, sk = _keys("MLDSA44-ECDSA-P256-SHA256")
    signature = scheme.sign(sk, MESSAGE)
    n = scheme.params.length_mldsa_signature
    ber = _ecdsa_ber(signature[n:])
    assert ber != signature[n:]
    assert scheme.verify(pk, MESSAGE, signature)
    assert scheme.verify(pk, MESSAGE, signature[:n] + ber) is False
    assert scheme.verify(pk, MESSAGE, signature[:n] + b"\x30\x00") is False


# --- bad keys: ValueError naming the defect, False in verify --------------------------------


def _point_off_curve(point: bytes) -> bytes:
    return point[:-1] + bytes([point[-1] ^ 1])


def _rsa_private(bits: int) -> bytes:
    m = pyca()
    key = m.rsa.generate_private_key(public_exponent=65537, key_size=bits)
    s = m.serialization
    data: bytes = key.private_bytes(
        s.Encoding.DER, s.PrivateFormat.TraditionalOpenSSL, s.NoEncryption()
    )
    return data


def _bad_public_keys(name: str, pk: bytes) -> list[tuple[bytes, str]]:
    """(public key, the words the error names) for a scheme's key ``pk``."""
    alg = pqkit.registry.algorithm(name)
    fixed = (
        alg.params.length_mldsa_public_key
        if alg.kind == "sig"
        else alg.params.length_mlkem_public_key
    )  # type: ignore[attr-defined]
    head, tail = pk[:fixed], pk[fixed:]
    out = [(head, "leave no traditional key"), (pk[: fixed - 1], "leave no traditional key")]
    key_type = alg.params.key  # type: ignore[attr-defined]
    if key_type.startswith("RSA"):
        m = pyca()
        small_key = m.serialization.load_der_private_key(_rsa_private(1024), None)
        small = small_key.public_key().public_bytes(
            m.serialization.Encoding.DER, m.serialization.PublicFormat.PKCS1
        )
        out.append((head + small, "1024 bits, too small"))
        out.append((head + tail[:-1], "RSAPublicKey"))
    elif key_type in ("Ed25519", "Ed448", "X25519", "X448"):
        out.append((head + tail[:-1], "bytes, got"))
    else:
        out.append((head + _point_off_curve(tail), f"not a point on {key_type}"))
        out.append((head + b"\x02" + tail[1 : 1 + (len(tail) - 1) // 2], "uncompressed point"))
        other = "P-384" if key_type != "P-384" else "P-256"
        wrong_curve = KEYS[other].public_bytes(KEYS[other].private(traditional_key(other), "k"))
        out.append((head + wrong_curve, "uncompressed point"))
    return out


BAD_KEY_CASES = ["MLDSA44-RSA2048-PSS-SHA256", "MLDSA65-ECDSA-P256-SHA512",
                 "MLDSA65-ECDSA-brainpoolP256r1-SHA512", "MLDSA87-Ed448-SHAKE256",
                 "MLKEM768-X25519-SHA3-256", "MLKEM1024-ECDH-P521-SHA3-256",
                 "MLKEM768-RSA3072-SHA3-256"]  # fmt: skip


@pytest.mark.parametrize("name", BAD_KEY_CASES)
def test_bad_public_key_is_a_clear_value_error_and_false_in_verify(name: str) -> None:
    scheme, pk, sk = _keys(name)
    cls = private_key_class(name)._public_class
    signature = scheme.sign(sk, MESSAGE) if name.startswith("MLDSA") else None
    for bad, words in _bad_public_keys(name, pk):
        with pytest.raises(ValueError, match=words) as info:
            cls.from_public_bytes(bad)
        assert type(info.value) is ValueError and name in str(info.value)
        if signature is not None:
            assert scheme.verify(bad, MESSAGE, signature) is False
        else:
            with pytest.raises(ValueError, match=words):
                scheme.encaps(bad)


def _ec_private(curve: str, scalar: int | None = None, *, oid: str | None = None) -> bytes:
    key = KEYS[curve]
    data = traditional_key(curve)
    if scalar is None and oid is None:
        return data
    value = (scalar if scalar is not None else 1).to_bytes(key.size, "big")  # type: ignore[attr-defined]
    return der.encode_sequence(
        der.encode_integer(1),
        der.encode_octet_string(value),
        der.encode_tlv(der.CONTEXT_CONSTRUCTED_0, der.encode_oid(oid or key.oid)),  # type: ignore[attr-defined]
    )


def test_bad_private_keys_are_clear_value_errors() -> None:
    p256 = private_key_class("MLDSA65-ECDSA-P256-SHA512")
    seed = bytes(32)
    rsa2048 = private_key_class("MLDSA44-RSA2048-PSS-SHA256")
    x25519 = private_key_class("MLKEM768-X25519-SHA3-256")
    ed448 = private_key_class("MLDSA87-Ed448-SHAKE256")
    cases = [
        (p256, seed, "leave no traditional key"),
        (p256, seed + _ec_private("brainpoolP256r1"), "curve 1.3.36.3.3.2.8.1.1.7, not P-256"),
        (p256, seed + traditional_key("P-384"), "must be 32 bytes, got 48"),
        (p256, seed + _ec_private("P-256", 0), r"not in \[1, n\)"),
        (p256, seed + _ec_private("P-256", KEYS["P-256"].order), r"not in \[1, n\)"),  # type: ignore[attr-defined]
        (p256, seed + traditional_key("P-256")[:-1], "ECPrivateKey"),
        (rsa2048, seed + _rsa_private(1024), "1024 bits, too small"),
        (rsa2048, seed + traditional_key("RSA3072"), "3072 bits, too large"),
        (x25519, bytes(64) + bytes(31), "32 bytes, got 31"),
        (ed448, seed + traditional_key("Ed25519"), "57 bytes"),
    ]  # fmt: skip
    for cls, data, words in cases:
        with pytest.raises(ValueError, match=words) as info:
            cls.from_private_bytes(data)
        assert type(info.value) is ValueError, (cls, words)
    # RSA numbers that do not belong together: pyca's check, in pqkit's words
    rsa = traditional_key("RSA2048")
    body = der.DerReader(der.read_single(rsa, der.SEQUENCE, "SEQUENCE", "k"), "k")
    ints = [
        der.decode_integer(body.expect(der.INTEGER, "i"), "k", max_octets=300) for _ in range(9)
    ]
    ints[3] += 2  # d
    broken = der.encode_sequence(*(der.encode_integer(i) for i in ints))
    with pytest.raises(ValueError, match="inconsistent RSA private key numbers") as info:
        private_key_class("MLDSA44-RSA2048-PSS-SHA256").from_private_bytes(seed + broken)
    assert type(info.value) is ValueError
    multi = der.encode_sequence(*(der.encode_integer(i) for i in [1, *ints[1:]]))
    with pytest.raises(ValueError, match="version must be 0"):
        private_key_class("MLDSA44-RSA2048-PSS-SHA256").from_private_bytes(seed + multi)


def test_pkcs8_publickey_field_must_match_and_spki_lengths_are_bounded() -> None:
    key = composite_private_key("MLDSA44-Ed25519-SHA512")
    other = composite_private_key("MLDSA44-Ed25519-SHA512", bytes(range(64)))
    from pqkit.serialization.structures import encode_private_key_info, encode_spki

    alg = key.algorithm
    data = encode_private_key_info(
        alg, "seed", None, key.private_bytes_raw(), other.public_key().public_bytes_raw()
    )
    with pytest.raises(ValueError, match="publicKey field does not match"):
        pqkit.load_der_private_key(data)
    good = encode_private_key_info(
        alg, "seed", None, key.private_bytes_raw(), key.public_key().public_bytes_raw()
    )
    assert (
        pqkit.load_der_private_key(good).private_bytes(
            Encoding.DER, PrivateFormat.PKCS8, NoEncryption(), include_public_key=True
        )
        == good
    )
    spki = encode_spki(alg, key.public_key().public_bytes_raw())
    short = spki.replace(der.encode_bit_string(key.public_key().public_bytes_raw()),
                         der.encode_bit_string(bytes(1312)))  # fmt: skip
    short = der.encode_sequence(*_fields(short))
    with pytest.raises(ValueError, match="its ML-x half is 1312 bytes"):
        pqkit.load_der_public_key(short)
    with pytest.raises(ValueError, match="both"):
        key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, NoEncryption(), form="both")


def _fields(spki: bytes) -> list[bytes]:
    """The fields of a SEQUENCE whose length octets may be stale, re-encoded."""
    reader = der.DerReader(spki[4:] if spki[1] == 0x82 else spki[2:], "spki")
    out = []
    while not reader.at_end():
        tag, content = reader.read()
        out.append(der.encode_tlv(tag, content))
    return out


# --- composite ML-KEM -----------------------------------------------------------------------


@pytest.mark.parametrize("name", KEMS)
def test_kem_round_trip_and_the_combiner(name: str) -> None:
    scheme, pk, sk = _keys(name)
    assert scheme.public_key(sk) == pk
    shared, ciphertext = scheme.encaps(pk)
    assert len(ciphertext) == scheme.length_ciphertext and len(shared) == 32
    assert scheme.decaps(sk, ciphertext) == shared
    # the combiner by hand (draft §3.4) from the two halves
    n = scheme.params.length_mlkem_ciphertext
    mlkem = pqkit.kem(scheme.params.mlkem)
    _, dk = mlkem.keygen_derand(sk[:64])
    trad_pk = pk[scheme.params.length_mlkem_public_key :]
    trad_ss, ok = scheme.trad.decaps(scheme.key.private(sk[64:], "k"), ciphertext[n:])
    assert ok
    expected = common.sha3_256(
        mlkem.decaps(dk, ciphertext[:n]) + trad_ss + ciphertext[n:] + trad_pk + scheme.label
    )
    assert shared == expected
    # a modified ML-KEM half: implicit rejection, another key and no error
    flipped = bytes([ciphertext[0] ^ 1]) + ciphertext[1:]
    assert scheme.decaps(sk, flipped) != shared
    key = private_key_class(name).from_private_bytes(sk)
    assert isinstance(key, CompositeKemPrivateKey)
    s2, c2 = key.public_key().encapsulate()
    assert key.decapsulate(c2) == s2


@pytest.mark.parametrize("name", ["MLKEM768-ECDH-P256-SHA3-256", "MLKEM768-X25519-SHA3-256"])
def test_encaps_derand_is_deterministic(name: str) -> None:
    scheme, pk, sk = _keys(name)
    randomness = bytes(range(scheme.length_randomness))
    first = scheme.encaps_derand(pk, randomness)
    assert scheme.encaps_derand(pk, randomness) == first
    assert scheme.decaps(sk, first.ciphertext) == first.shared_secret
    with pytest.raises(ValueError, match="randomness"):
        scheme.encaps_derand(pk, randomness[:-1])


def test_decapsulation_failure_does_not_say_which_half() -> None:
    rsa, pk, sk = _keys("MLKEM768-RSA2048-SHA3-256")
    _, ciphertext = rsa.encaps(pk)
    n = rsa.params.length_mlkem_ciphertext
    bad_rsa = ciphertext[:-1] + bytes([ciphertext[-1] ^ 1])
    bad_both = bytes([ciphertext[0] ^ 1]) + bad_rsa[1:]
    messages = set()
    for bad in (bad_rsa, bad_both):
        with pytest.raises(DecapsulationError) as info:
            rsa.decaps(sk, bad)
        messages.add(str(info.value))
    ecdh, pk2, sk2 = _keys("MLKEM768-ECDH-P256-SHA3-256")
    _, ct2 = ecdh.encaps(pk2)
    off = ct2[:-1] + bytes([ct2[-1] ^ 1])  # the ephemeral point leaves the curve
    with pytest.raises(DecapsulationError) as info:
        ecdh.decaps(sk2, off)
    assert messages == {"MLKEM768-RSA2048-SHA3-256 decapsulation failed"}
    assert str(info.value) == "MLKEM768-ECDH-P256-SHA3-256 decapsulation failed"
    assert isinstance(info.value, ValueError) and n == 1088
    with pytest.raises(ValueError, match="ciphertext"):
        ecdh.decaps(sk2, ct2[:-1])


def test_x25519_low_order_public_key_is_refused() -> None:
    scheme, pk, _ = _keys("MLKEM768-X25519-SHA3-256")
    with pytest.raises(ValueError, match="all zero"):
        scheme.encaps(pk[:1184] + bytes(32))


# --- key objects, files, command line -------------------------------------------------------


@pytest.mark.parametrize("name", ["MLDSA65-ECDSA-P256-SHA512", "MLKEM1024-X448-SHA3-256"])
def test_key_objects_round_trip_pem_der_and_encrypted(name: str) -> None:
    key = composite_private_key(name)
    for encoding in (Encoding.PEM, Encoding.DER):
        data = key.private_bytes(encoding, PrivateFormat.PKCS8, NoEncryption())
        load = (
            pqkit.load_pem_private_key if encoding is Encoding.PEM else pqkit.load_der_private_key
        )
        assert load(data).private_bytes(encoding, PrivateFormat.PKCS8, NoEncryption()) == data
        public = key.public_key().public_bytes(encoding, PublicFormat.SubjectPublicKeyInfo)
        loadp = pqkit.load_pem_public_key if encoding is Encoding.PEM else pqkit.load_der_public_key
        assert loadp(public) == key.public_key()
    encrypted = key.private_bytes(
        Encoding.PEM, PrivateFormat.PKCS8, pqkit.BestAvailableEncryption(b"pw")
    )
    assert (
        pqkit.load_pem_private_key(encrypted, b"pw").private_bytes_raw() == key.private_bytes_raw()
    )
    raw = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    assert raw == key.private_bytes_raw()
    with pytest.raises(TypeError, match="from_private_bytes"):
        type(key).from_seed_bytes(bytes(key.algorithm.seed_length))
    from cryptography.exceptions import UnsupportedAlgorithm

    with pytest.raises(UnsupportedAlgorithm, match="do not convert"):
        key.to_cryptography_key()
    if isinstance(key, CompositeSigPrivateKey):
        digest = pqkit.registry.algorithm(name).scheme().prehash(MESSAGE)
        signature = key.sign_prehashed(digest, "SHA2-512", b"c")
        key.public_key().verify(signature, MESSAGE, b"c")
        key.public_key().verify_prehashed(key.sign(MESSAGE), digest)
        with pytest.raises(pqkit.InvalidSignature):
            key.public_key().verify(signature, MESSAGE)


def test_cli_keygen_show_sign_verify_encaps_decaps(cli: Cli) -> None:
    cli.ok("keygen", "MLDSA65-ECDSA-P256-SHA512", "-o", "k.pem", "--pub", "p.pem")
    shown = cli.ok("show", "k.pem").decode()
    assert "OID 1.3.6.1.5.5.7.6.45" in shown and "pre-hash:     SHA2-512" in shown
    assert "form:         single" in shown and "public key:   2017 bytes" in shown
    cli.ok("show", "k.pem", "-o", "k.der", "--der")
    cli.ok("show", "k.der", "-o", "k2.pem")
    assert Path("k2.pem").read_bytes() == Path("k.pem").read_bytes()
    cli.ok("show", "k.pem", "-o", "p2.pem", "--pubout")
    assert Path("p2.pem").read_bytes() == Path("p.pem").read_bytes()
    Path("m.txt").write_bytes(MESSAGE)
    cli.ok("sign", "k.der", "m.txt", "-o", "s.bin")
    assert cli.ok("verify", "p.pem", "m.txt", "s.bin").strip() == b"signature valid"
    public = pqkit.load_pem_public_key(Path("p.pem").read_bytes())
    public.verify(Path("s.bin").read_bytes(), MESSAGE)  # type: ignore[union-attr]
    Path("m.txt").write_bytes(MESSAGE + b"!")
    cli.fails("verify", "p.pem", "m.txt", "s.bin", status=1, match="NOT valid")
    cli.fails("sign", "k.pem", "m.txt", "-o", "t.bin", "--prehash", "SHA2-256", match="bound")
    cli.ok("keygen", "id-MLKEM768-X25519-SHA3-256", "-o", "d.pem", "--pub", "e.pem")
    cli.ok("encaps", "e.pem", "--ct", "c.bin", "--secret", "s1")
    cli.ok("decaps", "d.pem", "c.bin", "--secret", "s2")
    assert Path("s1").read_bytes() == Path("s2").read_bytes()
    cli.fails(
        "keygen", "MLKEM768-X25519-SHA3-256", "-o", "x.pem", "--form", "both", match="single form"
    )


def test_speed_rows(cli: Cli) -> None:
    # (stderr may carry the key ring's budget note on a loaded machine)
    for kind, name, operation in (
        ("sig", "MLDSA65-ECDSA-P256-SHA512", b"verify"),
        ("kem", "MLKEM768-X25519-SHA3-256", b"decaps"),
    ):
        status, out, err = cli.run("speed", kind, name, "--duration", "0.001", "-q")
        assert status == 0 and "Traceback" not in err, err
        assert name.encode() in out and operation in out

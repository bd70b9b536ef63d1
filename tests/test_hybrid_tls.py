"""TLS hybrid key shares (draft-ietf-tls-ecdhe-mlkem). No official vectors exist:
the shares are checked against pqkit's component KEM and against a composition of
pyca/cryptography's X25519 / ECDH and ML-KEM."""

from __future__ import annotations

import pytest

import pqkit
from pqkit.hybrid import tls

pytest.importorskip("cryptography", reason="the ECDH halves need pyca/cryptography")
from cryptography.hazmat.primitives.asymmetric import ec, x25519
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

mlkem = pytest.importorskip(
    "cryptography.hazmat.primitives.asymmetric.mlkem", reason="pyca without ML-KEM"
)

GROUPS = [tls.X25519MLKEM768, tls.SecP256r1MLKEM768, tls.SecP384r1MLKEM1024]
SIZES = {  # draft-ietf-tls-ecdhe-mlkem: client share, server share, secret
    "X25519MLKEM768": (1216, 1120, 64),
    "SecP256r1MLKEM768": (1249, 1153, 64),
    "SecP384r1MLKEM1024": (1665, 1665, 80),
}


def test_codepoints_and_sizes() -> None:
    assert {c: g.name for c, g in tls.GROUPS_BY_CODEPOINT.items()} == {
        0x11EC: "X25519MLKEM768",
        0x11EB: "SecP256r1MLKEM768",
        0x11ED: "SecP384r1MLKEM1024",
    }
    for g in GROUPS:
        sizes = (g.length_client_share, g.length_server_share, g.length_shared_secret)
        assert sizes == SIZES[g.name]


@pytest.mark.parametrize("group", GROUPS, ids=lambda g: g.name)
def test_round_trip_and_layout_against_component_kem(group: tls.HybridGroup) -> None:
    seed, m = bytes(range(64)), bytes(range(100, 132))
    n = 48 if "384" in group.name else 32
    client_ecdh, server_ecdh = bytes([1]) * n, bytes([2]) * n
    state, client_share = group.client_share_derand(seed, client_ecdh)
    server_share, secret = group.server_share_derand(client_share, m, server_ecdh)
    assert group.client_finish(state, server_share) == secret

    kem = pqkit.kem(group.mlkem)
    ek, _dk = kem.keygen_derand(seed)
    ss, ct = kem.encaps_derand(ek, m)
    e = len(client_share) - len(ek)
    if group.ecdh_first:
        assert client_share[e:] == ek and server_share[e:] == ct and secret[-32:] == ss
    else:
        assert client_share[:-e] == ek and server_share[:-e] == ct and secret[:32] == ss


def _pyca_ecdh(group: tls.HybridGroup) -> tuple[object, bytes]:
    if group.ecdh == "X25519":
        key = x25519.X25519PrivateKey.generate()
        return key, key.public_key().public_bytes_raw()
    curve = ec.SECP256R1() if group.ecdh == "P-256" else ec.SECP384R1()
    key = ec.generate_private_key(curve)
    return key, key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)


def _pyca_exchange(group: tls.HybridGroup, key: object, peer: bytes) -> bytes:
    if group.ecdh == "X25519":
        assert isinstance(key, x25519.X25519PrivateKey)
        return key.exchange(x25519.X25519PublicKey.from_public_bytes(peer))
    assert isinstance(key, ec.EllipticCurvePrivateKey)
    point = ec.EllipticCurvePublicKey.from_encoded_point(key.curve, peer)
    return key.exchange(ec.ECDH(), point)


def _pyca_mlkem(group: tls.HybridGroup) -> type:
    return mlkem.MLKEM768PrivateKey if group.mlkem == "ML-KEM-768" else mlkem.MLKEM1024PrivateKey


@pytest.mark.parametrize("group", GROUPS, ids=lambda g: g.name)
def test_pqkit_client_pyca_server(group: tls.HybridGroup) -> None:
    state, share = group.client_share()
    e = len(share) - pqkit.kem(group.mlkem).length_public_key
    ek, peer = (share[e:], share[:e]) if group.ecdh_first else (share[:-e], share[-e:])
    pub_cls = mlkem.MLKEM768PublicKey if group.mlkem == "ML-KEM-768" else mlkem.MLKEM1024PublicKey
    ss_pq, ct = pub_cls.from_public_bytes(ek).encapsulate()
    key, mine = _pyca_ecdh(group)
    ss_t = _pyca_exchange(group, key, peer)
    server = mine + ct if group.ecdh_first else ct + mine
    expected = ss_t + ss_pq if group.ecdh_first else ss_pq + ss_t
    assert group.client_finish(state, server) == expected


@pytest.mark.parametrize("group", GROUPS, ids=lambda g: g.name)
def test_pyca_client_pqkit_server(group: tls.HybridGroup) -> None:
    dk = _pyca_mlkem(group).generate()
    ek = dk.public_key().public_bytes_raw()
    key, mine = _pyca_ecdh(group)
    share = mine + ek if group.ecdh_first else ek + mine
    server, secret = group.server_share(share)
    e = len(mine)
    ct, peer = (server[e:], server[:e]) if group.ecdh_first else (server[:-e], server[-e:])
    ss_pq, ss_t = dk.decapsulate(ct), _pyca_exchange(group, key, peer)
    assert secret == (ss_t + ss_pq if group.ecdh_first else ss_pq + ss_t)


def test_bad_input() -> None:
    g = tls.X25519MLKEM768
    state, share = g.client_share()
    server, _ = g.server_share(share)
    with pytest.raises(ValueError, match="client share must be 1216 bytes"):
        g.server_share(share[:-1])
    with pytest.raises(ValueError, match="server share must be 1120 bytes"):
        g.client_finish(state, server + b"\x00")
    with pytest.raises(ValueError, match="all zero"):
        g.server_share(share[:-32] + bytes(32))
    with pytest.raises(ValueError, match="all zero"):
        g.client_finish(state, server[:-32] + bytes(32))
    with pytest.raises(ValueError, match="modulus"):
        g.server_share(b"\xff\xff" + share[2:])
    with pytest.raises(TypeError, match="ClientState"):
        g.client_finish((state.mlkem_seed, state.ecdh_private), server)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="mlkem_seed"):
        g.client_share_derand(bytes(63), bytes(32))
    with pytest.raises(ValueError, match="m must be 32 bytes"):
        g.server_share_derand(share, bytes(31), bytes(32))
    modified = bytearray(server)
    modified[0] ^= 1
    assert g.client_finish(state, bytes(modified)) != g.client_finish(state, server)

    p = tls.SecP256r1MLKEM768
    state, share = p.client_share()
    off_curve = b"\x04" + bytes(64)
    with pytest.raises(ValueError, match="client share: not a point on P-256"):
        p.server_share(off_curve + share[65:])
    server, _ = p.server_share(share)
    with pytest.raises(ValueError, match="server share: not a point on P-256"):
        p.client_finish(state, off_curve + server[65:])
    with pytest.raises(ValueError, match="RandomScalar"):
        p.client_share_derand(bytes(64), b"\xff" * 32)  # >= the group order
    with pytest.raises(ValueError, match="RandomScalar"):
        p.client_share_derand(bytes(64), bytes(32))  # zero

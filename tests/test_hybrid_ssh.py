"""SSH hybrid key exchanges (pqkit.hybrid.ssh): sntrup761x25519-sha512 against
OpenSSH's sshd on loopback, mlkem768x25519-sha256 against paramiko's own engine
(pyca's ML-KEM) and against the draft's construction from independent parts."""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pqkit.hybrid.ssh import (
    METHODS,
    MLKEM768X25519_SHA256,
    SNTRUP761X25519_SHA512,
    SshHybridKex,
    ssh_string,
)

pytest.importorskip("cryptography", reason="X25519 needs the openssl extra")
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519, x25519

BOTH = [SNTRUP761X25519_SHA512, MLKEM768X25519_SHA256]
SSHD = shutil.which("sshd") or ("/usr/sbin/sshd" if os.path.exists("/usr/sbin/sshd") else None)


def _drbg_bytes(label: bytes, n: int) -> bytes:
    return hashlib.shake_256(label).digest(n)


@pytest.mark.parametrize("method", BOTH, ids=lambda m: m.name)
def test_round_trip_and_sizes(method: SshHybridKex) -> None:
    state, q_c = method.client_init()
    q_s, k = method.server_reply(q_c)
    assert len(q_c) == method.length_client_init and len(q_s) == method.length_server_reply
    assert len(k) == {"sha512": 64, "sha256": 32}[method.hash_name]
    assert method.client_finish(state, q_s) == k
    assert method.encode_secret(k) == len(k).to_bytes(4, "big") + k
    assert "secret" in repr(state) and state.kem_secret_key.hex() not in repr(state)


def test_names() -> None:
    assert METHODS["sntrup761x25519-sha512@openssh.com"] is SNTRUP761X25519_SHA512
    assert METHODS["sntrup761x25519-sha512"] is SNTRUP761X25519_SHA512
    assert METHODS["mlkem768x25519-sha256"] is MLKEM768X25519_SHA256
    assert (
        SNTRUP761X25519_SHA512.length_client_init,
        SNTRUP761X25519_SHA512.length_server_reply,
    ) == (
        1158 + 32,
        1039 + 32,
    )
    assert (
        MLKEM768X25519_SHA256.length_client_init,
        MLKEM768X25519_SHA256.length_server_reply,
    ) == (
        1184 + 32,
        1088 + 32,
    )


@pytest.mark.parametrize("method", BOTH, ids=lambda m: m.name)
def test_secret_is_the_documents_construction(method: SshHybridKex) -> None:
    """K = HASH(K_PQ || K_CL) from the KEM and pyca's X25519 computed separately."""
    import pqkit

    kem = pqkit.kem(method.kem)
    seed = _drbg_bytes(b"seed", kem.length_seed)
    m = _drbg_bytes(b"m", getattr(kem, "length_randomness", 32))
    xc, xs = _drbg_bytes(b"xc", 32), _drbg_bytes(b"xs", 32)
    state, q_c = method.client_init_derand(seed, xc)
    q_s, k = method.server_reply_derand(q_c, m, xs)
    pk, _ = kem.keygen_derand(seed)
    xc_key = x25519.X25519PrivateKey.from_private_bytes(xc)
    xs_key = x25519.X25519PrivateKey.from_private_bytes(xs)
    assert q_c == pk + xc_key.public_key().public_bytes_raw()
    k_pq, ct = kem.encaps_derand(pk, m)
    assert q_s == ct + xs_key.public_key().public_bytes_raw()
    k_cl = xs_key.exchange(xc_key.public_key())
    assert k == hashlib.new(method.hash_name, k_pq + k_cl).digest()
    assert method.client_finish(state, q_s) == k


def test_mlkem768x25519_with_pyca_mlkem() -> None:
    """The ML-KEM half from pyca/cryptography (OpenSSL): pqkit's server against a
    pyca client key, and pqkit's client against a pyca encapsulation."""
    try:
        from cryptography.hazmat.primitives.asymmetric import mlkem
    except ImportError:
        pytest.skip("this cryptography has no ML-KEM (needs cryptography >= 48)")
    method = MLKEM768X25519_SHA256
    dk = mlkem.MLKEM768PrivateKey.generate()
    xc = x25519.X25519PrivateKey.generate()
    q_c = dk.public_key().public_bytes_raw() + xc.public_key().public_bytes_raw()
    q_s, k = method.server_reply(q_c)
    k_pq = dk.decapsulate(q_s[:-32])
    k_cl = xc.exchange(x25519.X25519PublicKey.from_public_bytes(q_s[-32:]))
    assert k == hashlib.sha256(k_pq + k_cl).digest()
    state, q_c = method.client_init()
    ek = mlkem.MLKEM768PublicKey.from_public_bytes(q_c[:-32])
    k_pq, ct = ek.encapsulate()
    xs = x25519.X25519PrivateKey.generate()
    k_cl = xs.exchange(x25519.X25519PublicKey.from_public_bytes(q_c[-32:]))
    got = method.client_finish(state, ct + xs.public_key().public_bytes_raw())
    assert got == hashlib.sha256(k_pq + k_cl).digest()


def test_exchange_hash_layout() -> None:
    fields = [b"SSH-2.0-a", b"SSH-2.0-b", b"\x14ic", b"\x14is", b"hostkey", b"qc", b"qs"]
    k = bytes(range(64))
    want = hashlib.sha512(b"".join(map(ssh_string, fields)) + ssh_string(k)).digest()
    assert SNTRUP761X25519_SHA512.exchange_hash(*fields, k) == want


@pytest.mark.parametrize("method", BOTH, ids=lambda m: m.name)
def test_bad_inputs(method: SshHybridKex) -> None:
    state, q_c = method.client_init()
    with pytest.raises(ValueError, match="Q_C"):
        method.server_reply(q_c[:-1])
    with pytest.raises(ValueError, match="Q_S"):
        method.client_finish(state, bytes(method.length_server_reply + 1))
    with pytest.raises(ValueError, match="all zero"):  # X25519 low-order point
        method.server_reply(q_c[:-32] + bytes(32))
    other = MLKEM768X25519_SHA256 if method is SNTRUP761X25519_SHA512 else SNTRUP761X25519_SHA512
    with pytest.raises(ValueError, match="belongs to"):
        other.client_finish(state, bytes(other.length_server_reply))
    with pytest.raises(TypeError):
        method.client_finish(object(), bytes(method.length_server_reply))  # type: ignore[arg-type]
    q_s, k = method.server_reply(q_c)
    bad = bytearray(q_s)
    bad[3] ^= 1  # a modified ciphertext: implicit rejection, another K
    assert method.client_finish(state, bytes(bad)) != k


# --- over an SSH transport (paramiko) --------------------------------------------


def _paramiko() -> Any:
    paramiko = pytest.importorskip("paramiko", reason="the SSH transport tests use paramiko")
    if not hasattr(paramiko.Transport, "_add_K"):
        pytest.skip("this paramiko encodes K only as an mpint (needs paramiko >= 5.1)")
    return paramiko


def _ed25519_openssh(path: Path) -> ed25519.Ed25519PrivateKey:
    key = ed25519.Ed25519PrivateKey.generate()
    path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.OpenSSH,
            serialization.NoEncryption(),
        )
    )
    path.chmod(0o600)
    return key


def _public_line(key: ed25519.Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(
        serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def sshd(tmp_path: Path) -> Iterator[tuple[int, Path, Path]]:
    """OpenSSH's sshd on a free localhost port offering only
    sntrup761x25519-sha512@openssh.com, a temporary host key and an authorized key
    for the current user: (port, the user's private key file, sshd's log)."""
    if SSHD is None:
        pytest.skip("OpenSSH's sshd is not installed (apt-get install openssh-server)")
    if os.geteuid() == 0:  # sshd as root chroots its unprivileged child here
        os.makedirs("/run/sshd", mode=0o755, exist_ok=True)
    _ed25519_openssh(tmp_path / "host_ed25519")
    user_key = _ed25519_openssh(tmp_path / "user_ed25519")
    (tmp_path / "authorized_keys").write_bytes(_public_line(user_key) + b"\n")
    port = _free_port()
    config = tmp_path / "sshd_config"
    config.write_text(
        f"Port {port}\nListenAddress 127.0.0.1\n"
        f"HostKey {tmp_path / 'host_ed25519'}\n"
        f"AuthorizedKeysFile {tmp_path / 'authorized_keys'}\n"
        f"PidFile {tmp_path / 'sshd.pid'}\n"
        "KexAlgorithms sntrup761x25519-sha512@openssh.com\n"
        "PubkeyAuthentication yes\nPasswordAuthentication no\n"
        "KbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\n"
        "PermitRootLogin prohibit-password\nLogLevel DEBUG1\n"
    )
    log = tmp_path / "sshd.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [SSHD, "-f", str(config), "-D", "-e"], stdout=out, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 20
        while True:
            if proc.poll() is not None:
                pytest.fail(f"sshd exited: {log.read_text()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"sshd did not listen: {log.read_text()[-2000:]}")
                time.sleep(0.1)
        yield port, tmp_path / "user_ed25519", log
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_sntrup761x25519_against_openssh_sshd(sshd: tuple[int, Path, Path]) -> None:
    """pqkit's sntrup761x25519-sha512@openssh.com in a paramiko client against
    OpenSSH's sshd: key exchange, public-key authentication, a session channel."""
    paramiko = _paramiko()
    import getpass

    from ssh_kex import transport_class

    port, key_file, log = sshd
    name = "sntrup761x25519-sha512@openssh.com"
    transport = transport_class(SNTRUP761X25519_SHA512, name)(
        socket.create_connection(("127.0.0.1", port), timeout=10)
    )
    try:
        transport.get_security_options().kex = (name,)
        transport.start_client(timeout=30)
        assert transport._kex_info[name].completed == 1  # pqkit's engine ran
        transport.auth_publickey(
            getpass.getuser(), paramiko.Ed25519Key.from_private_key_file(str(key_file))
        )
        assert transport.is_authenticated()
        channel = transport.open_session(timeout=30)
        channel.exec_command("echo pqkit-sntrup-ok")
        output = channel.makefile("rb").read()
        assert channel.recv_exit_status() == 0
        assert output.strip() == b"pqkit-sntrup-ok"
    finally:
        transport.close()
    assert f"kex: algorithm: {name}" in log.read_text()


def _serve_once(paramiko: Any, transport: Any, key: Any) -> threading.Thread:
    class Server(paramiko.ServerInterface):  # type: ignore[misc]
        def get_allowed_auths(self, username: str) -> str:
            return "none"

        def check_auth_none(self, username: str) -> int:
            return int(paramiko.AUTH_SUCCESSFUL)

        def check_channel_request(self, kind: str, chanid: int) -> int:
            return int(paramiko.OPEN_SUCCEEDED)

    transport.add_server_key(key)
    interface = Server()  # held here: the transport may keep only a weak reference

    def run() -> None:
        transport.start_server(server=interface)
        channel = transport.accept(timeout=30)
        if channel is not None:
            # answer only once the client speaks: a channel closed before the
            # client's open_session returns would look like a refused one
            channel.sendall(b"hello from the server: " + channel.recv(64))
            channel.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("pqkit_side", ["client", "server"])
@pytest.mark.parametrize("method", BOTH, ids=lambda m: m.name)
def test_key_exchange_over_paramiko(method: SshHybridKex, pqkit_side: str) -> None:
    """A whole SSH connection over a socket pair. mlkem768x25519-sha256: pqkit's
    engine on one side, paramiko's own (pyca's ML-KEM) on the other;
    sntrup761x25519: pqkit's engine on both sides (paramiko has none)."""
    paramiko = _paramiko()
    from ssh_kex import transport_class

    name = method.name
    ours = transport_class(method, name)
    own = paramiko.Transport
    if name not in own._kex_info:
        own = ours  # no independent engine for this method in paramiko
    client_cls, server_cls = (ours, own) if pqkit_side == "client" else (own, ours)
    a, b = socket.socketpair()
    server, client = server_cls(a), client_cls(b)
    try:
        for t in (server, client):
            t.get_security_options().kex = (name,)
        thread = _serve_once(paramiko, server, paramiko.ECDSAKey.generate())
        client.start_client(timeout=30)
        client.auth_none("tester")
        channel = client.open_session(timeout=30)
        channel.sendall(b"ping")
        assert channel.makefile("rb").read() == b"hello from the server: ping"
        thread.join(timeout=30)
        assert client.session_id == server.session_id is not None  # one exchange hash
        assert ours._kex_info[name].completed == (2 if own is ours else 1)
    finally:
        client.close()
        server.close()

"""A paramiko key-exchange engine around pqkit's SSH hybrid helpers
(:mod:`pqkit.hybrid.ssh`): the SSH transport the interoperability tests plug them
into (tests/test_hybrid_ssh.py). Test-only: paramiko is a dev dependency."""

from __future__ import annotations

import hashlib
from typing import Any, ClassVar

import paramiko
from paramiko.message import Message

from pqkit.hybrid.ssh import SshHybridKex

MSG_INIT, MSG_REPLY = 30, 31  # SSH_MSG_KEX_ECDH_INIT / _REPLY (= KEX_HYBRID_*)


def kex_engine(method: SshHybridKex, wire_name: str) -> type[Any]:
    """A paramiko kex class speaking ``method`` under the SSH name ``wire_name``."""

    class PqkitKex:
        name = wire_name
        completed = 0
        """Key exchanges this engine finished (the tests check it ran)."""
        hash_algo = getattr(hashlib, method.hash_name)

        def __init__(self, transport: Any) -> None:
            self.transport = transport
            self.state: Any = None
            self.q_c = b""

        def start_kex(self) -> None:
            t = self.transport
            if t.server_mode:
                t._expect_packet(MSG_INIT)
                return
            self.state, self.q_c = method.client_init()
            m = Message()
            m.add_byte(bytes((MSG_INIT,)))
            m.add_string(self.q_c)
            t._send_message(m)
            t._expect_packet(MSG_REPLY)

        def parse_next(self, ptype: int, m: Message) -> None:
            t = self.transport
            if t.server_mode and ptype == MSG_INIT:
                q_c = m.get_string()
                q_s, k = method.server_reply(q_c)
                k_s = t.get_server_key().asbytes()
                h = method.exchange_hash(
                    t.remote_version.encode(),
                    t.local_version.encode(),
                    t.remote_kex_init,
                    t.local_kex_init,
                    k_s,
                    q_c,
                    q_s,
                    k,
                )
                t._set_K_H(k, h)
                sig = t.get_server_key().sign_ssh_data(h, t.host_key_type)
                reply = Message()
                reply.add_byte(bytes((MSG_REPLY,)))
                reply.add_string(k_s)
                reply.add_string(q_s)
                reply.add_string(sig)
                t._send_message(reply)
                t._activate_outbound()
                type(self).completed += 1
            elif not t.server_mode and ptype == MSG_REPLY:
                k_s = m.get_string()
                q_s = m.get_string()
                sig = m.get_binary()
                k = method.client_finish(self.state, q_s)
                h = method.exchange_hash(
                    t.local_version.encode(),
                    t.remote_version.encode(),
                    t.local_kex_init,
                    t.remote_kex_init,
                    k_s,
                    self.q_c,
                    q_s,
                    k,
                )
                t._set_K_H(k, h)
                t._verify_key(k_s, sig)
                t._activate_outbound()
                type(self).completed += 1
            else:
                raise paramiko.SSHException(f"{wire_name}: unexpected packet {ptype}")

    return PqkitKex


def transport_class(method: SshHybridKex, wire_name: str) -> type[paramiko.Transport]:
    """A paramiko Transport that knows ``wire_name`` (pqkit's engine) besides its own."""
    engine = kex_engine(method, wire_name)

    class PqkitTransport(paramiko.Transport):
        _kex_info: ClassVar[dict[str, Any]] = {**paramiko.Transport._kex_info, wire_name: engine}

    return PqkitTransport

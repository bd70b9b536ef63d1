"""Issue 28 item 7: ``hybrid.tls.ClientState`` keeps the client's ephemeral secrets
like a private key: no copy, no pickle, no secret bytes in its ``repr``."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from pqkit.hybrid.tls import X25519MLKEM768, SecP256r1MLKEM768

pytest.importorskip("cryptography", reason="the ECDH halves need pyca/cryptography")


@pytest.mark.parametrize(
    "refuse",
    [copy.copy, copy.deepcopy, *[lambda s, p=p: pickle.dumps(s, protocol=p) for p in range(6)]],
    ids=["copy", "deepcopy", *[f"pickle-{p}" for p in range(6)]],
)
def test_client_state_is_uncopyable(refuse: Callable[[Any], object]) -> None:
    """Issue 28 item 7: the client's ephemeral secrets cannot be duplicated."""
    state, _ = X25519MLKEM768.client_share()
    with pytest.raises(TypeError, match="ClientState holds secret state and cannot be"):
        refuse(state)


@pytest.mark.parametrize("group", [X25519MLKEM768, SecP256r1MLKEM768], ids=lambda g: g.name)
def test_client_state_repr_hides_secrets(group: Any) -> None:
    state, _ = group.client_share()
    text = repr(state) + str(state)
    for secret in (state.mlkem_seed, state.ecdh_private):
        assert secret.hex() not in text and repr(secret) not in text
        assert secret[:8].hex() not in text
    assert group.name in text
    with pytest.raises(AttributeError):
        state.mlkem_seed = bytes(64)  # type: ignore[misc]
    with pytest.raises(TypeError):
        tuple(state)  # type: ignore[call-overload]


def test_client_state_of_another_group_is_refused() -> None:
    state, _ = X25519MLKEM768.client_share()
    server, _ = SecP256r1MLKEM768.server_share(SecP256r1MLKEM768.client_share()[1])
    with pytest.raises(ValueError, match="state belongs to X25519MLKEM768"):
        SecP256r1MLKEM768.client_finish(state, server)

"""Issue 13 item 4: objects holding secrets cannot be copied or pickled.

A copied CtrDrbg would repeat its output stream; a pickle of a private key, a
DRBG or an encryption choice would write its secrets out. Public keys stay
copyable and picklable (public data; unpickling re-runs the input checks).
"""

from __future__ import annotations

import copy
import importlib.util
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from helpers import composite_private_key

from pqkit.common import CtrDrbg
from pqkit.keys import private_key_class
from pqkit.serialization import BestAvailableEncryption
from pqkit.serialization.algorithms import ALGORITHMS

_REFUSALS: list[tuple[str, Callable[[Any], object]]] = [
    ("copy", copy.copy),
    ("deepcopy", copy.deepcopy),
    ("deepcopy-in-list", lambda obj: copy.deepcopy([obj])),
    *[(f"pickle-{p}", lambda obj, p=p: pickle.dumps(obj, protocol=p)) for p in range(6)],
    ("getstate", lambda obj: obj.__getstate__()),
    ("reduce_ex", lambda obj: obj.__reduce_ex__(2)),
]
_IDS = [name for name, _ in _REFUSALS]


def _secret_objects() -> list[Any]:
    out: list[Any] = []
    for backend in ("python", "openssl", None):
        try:
            out.append(CtrDrbg(bytes(48), backend=backend))
        except ValueError:  # the backend is not installed here
            continue
    out.append(BestAvailableEncryption(b"hunter2", iterations=1000))
    for alg in ALGORITHMS:
        if alg.composite:  # an ML-x seed and a traditional key (pyca's)
            if importlib.util.find_spec("cryptography") is not None:
                out.append(composite_private_key(alg.name))
            continue
        cls = private_key_class(alg.name)
        out.append(cls.from_seed_bytes(bytes(alg.seed_length)))
    return out


_OBJECTS = _secret_objects()


@pytest.mark.parametrize("refuse", [fn for _, fn in _REFUSALS], ids=_IDS)
@pytest.mark.parametrize("obj", _OBJECTS, ids=lambda o: type(o).__name__)
def test_secret_objects_refuse_copy_and_pickle(obj: Any, refuse: Callable[[Any], object]) -> None:
    with pytest.raises(TypeError, match="holds secret state and cannot be"):
        refuse(obj)


def test_every_private_key_class_is_covered() -> None:
    covered = {type(o).__name__ for o in _OBJECTS}
    pyca = importlib.util.find_spec("cryptography") is not None
    for alg in ALGORITHMS:
        if pyca or not alg.composite:
            assert private_key_class(alg.name).__name__ in covered


def test_drbg_still_works_and_messages_say_what_to_do() -> None:
    drbg = CtrDrbg(bytes(48))
    first = drbg(32)
    with pytest.raises(TypeError, match="fresh entropy"):
        copy.copy(drbg)
    with pytest.raises(TypeError, match="private_bytes"):
        pickle.dumps(private_key_class("ML-DSA-44").from_seed_bytes(bytes(32)))
    assert drbg(32) != first and CtrDrbg(bytes(48))(32) == first


def test_public_keys_stay_copyable() -> None:
    public = private_key_class("ML-KEM-512").from_seed_bytes(bytes(64)).public_key()
    assert copy.copy(public) is public
    assert pickle.loads(pickle.dumps(public)) == public

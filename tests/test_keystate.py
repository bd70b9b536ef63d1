"""pqkit._keystate: secret state kept only in the key object's KeyState."""

from __future__ import annotations

import copy
import pickle
import threading

import pytest

from pqkit._keystate import KeyState, cached, holding


def test_nothing_kept_without_a_key_object() -> None:
    made: list[int] = []

    def make() -> int:
        made.append(1)
        return len(made)

    assert [cached("kind", lambda v: True, make) for _ in range(3)] == [1, 2, 3]


def test_kept_in_the_current_state_and_checked() -> None:
    state, other = KeyState(), KeyState()
    with holding(state):
        assert cached("k", lambda v: v == "a", lambda: "a") == "a"
        assert cached("k", lambda v: v == "a", lambda: "never") == "a"  # accepted
        assert cached("k", lambda v: v == "b", lambda: "b") == "b"  # refused: replaced
        with holding(other):
            assert cached("k", lambda v: True, lambda: "c") == "c"
        assert cached("k", lambda v: True, lambda: "never") == "b"  # back to state
    assert state.get("k") == "b" and other.get("k") == "c" and len(state) == 1
    state.clear()
    assert state.get("k") is None and len(state) == 0
    assert "b" not in repr(state)


def test_scope_is_per_thread() -> None:
    state = KeyState()
    seen: list[object] = []
    with holding(state):
        t = threading.Thread(target=lambda: seen.append(cached("k", lambda v: True, lambda: 7)))
        t.start()
        t.join()
    assert seen == [7] and state.get("k") is None  # the thread had no key object


@pytest.mark.parametrize("refuse", [copy.copy, copy.deepcopy, pickle.dumps])
def test_uncopyable(refuse: object) -> None:
    with pytest.raises(TypeError, match="KeyState holds secret state"):
        refuse(KeyState())  # type: ignore[operator]

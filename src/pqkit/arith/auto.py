"""The default backend: ``jit`` once its compiled code is ready, ``numpy`` until then.

When nothing selects a backend (no argument, no :func:`pqkit.arith.use` scope, no
``PQKIT_ARITH``), the first kernel request of a family (one of
:func:`pqkit.arith.warmup.groups`) queues it for a daemon thread that loads or
compiles its ``jit`` code by running the warm-up workload of
:mod:`pqkit.arith.warmup` (real operations on the ``jit`` backend), family after
family in request order; families nobody asked for are not loaded.
Until a family's workload has run, its requests get the ``numpy`` table;
afterwards the ``jit`` one. Both give identical bytes, so the switch is invisible
except in speed: no call ever waits for compilation.

NOTE: a thread, not a helper process. The compiled code must end up in this
process anyway (a helper process could only fill the on-disk cache, which this
process would then load: twice the start-up, and nothing gained where the cache
directory is not writable); a thread needs no second interpreter and leaves no
process behind at exit. The cost is the GIL: Numba's compiler is Python code, so
while it runs, foreground calls share the interpreter with it (measured in
docs/decisions.md); with a warm on-disk cache the thread only loads (about a second).

The thread waits :data:`START_DELAY_S` from the process's first kernel request
before it imports Numba (:func:`wait` ends the pause): a short process (a command
line tool, a script doing one operation) ends before that and never pays for Numba
(0.1-0.2 s of imports, and the GIL shared with them, against a first ML-KEM round
trip of a few milliseconds); a longer one gets ``jit`` that much later.

Without Numba, or with ``PQKIT_JIT_BACKGROUND=0``, nothing starts and the default
stays ``numpy``. A workload that fails (a Numba bug, an unsupported CPU) leaves the
default on ``numpy``, records why (:func:`status`) and says so once with a
:class:`JitUnavailableWarning`: the fallback is slower, so it is never silent.
"""

from __future__ import annotations

import contextvars
import functools
import importlib.util
import os
import threading
import time
import warnings
from typing import Any

from pqkit import _env

__all__ = [
    "FALLBACK",
    "JitUnavailableWarning",
    "choice",
    "explicit",
    "note",
    "pending",
    "status",
    "wait",
]

FALLBACK = "numpy"
"""The default until the compiled code is ready (and for good without Numba)."""

_ENV_BACKGROUND = "PQKIT_JIT_BACKGROUND"

scope: contextvars.ContextVar[str | None] = contextvars.ContextVar("pqkit_arith", default=None)
"""The backend a :func:`pqkit.arith.use` scope selects (None outside one)."""

START_DELAY_S = 0.5
"""Seconds from the first kernel request to the start of the warm-up (Numba's import,
then loading or compiling), unless :func:`wait` is called sooner."""


class JitUnavailableWarning(RuntimeWarning):
    """The compiled kernels could not be built or loaded: the default stays on the
    slower ``numpy`` backend."""


_lock = threading.Lock()
_ready: dict[str, float] = {}  # family -> seconds from the first request to ready
_backend: dict[str, str] = {}  # family -> the backend its warm-up prepared (jit)
_queue: list[str] = []  # requested families not ready yet, in request order
_state: dict[str, Any] = {"thread": None, "error": None, "started": None}
_now = threading.Event()  # set by wait(): the warm-up starts without the delay


@functools.cache
def _numba_found() -> bool:
    """Whether Numba is installed: looked up once (a search of ``sys.path``, tens of
    microseconds, that every kernel request made on ``numpy`` would repeat)."""
    return importlib.util.find_spec("numba") is not None


def _enabled() -> bool:
    if os.environ.get(_ENV_BACKGROUND, "").strip() == "0":
        return False
    return _numba_found()


def choice(scheme: str, *, start: bool = True) -> str:
    """The backend a default request for ``scheme`` gets now: ``jit`` when ready,
    else ``numpy`` (queueing ``scheme`` for the background warm-up on its first
    request, unless ``start`` is False: a question about the backend starts nothing)."""
    if scheme in _ready:
        return _backend.get(scheme, "jit")
    if start:
        _request((scheme,))
    return FALLBACK


def _request(families: tuple[str, ...], *, now: bool = False) -> None:
    """Queue ``families`` for the warm-up (those not ready or queued yet), starting
    the thread when none runs (it waits out :data:`START_DELAY_S` first, unless
    ``now``). Only requested families are loaded: a process that signs with
    SLH-DSA never loads the ML-KEM code (memory, and CPU beside it)."""
    if now:
        _now.set()
    with _lock:
        if _state["started"] is None:
            _state["started"] = time.monotonic()
        new = [f for f in families if f not in _ready and f not in _queue]
        if not new or _state["error"] is not None or not _enabled():
            return  # (every request on numpy comes here: nothing more to do is cheap)
        _queue.extend(f for f in new if _has_warmup(f))
        if _queue and _state["thread"] is None:
            thread = threading.Thread(target=_warm, name="pqkit-jit-warmup", daemon=True)
            _state["thread"] = thread
            thread.start()


def _has_warmup(family: str) -> bool:
    """Whether a family declares warm-up parts (one that does not stays on the
    fallback: there is nothing to switch to)."""
    from pqkit.arith import warmup

    return family in warmup.groups()


def _next() -> str | None:
    """The next queued family, or None (and the thread is done: a later request
    starts a new one)."""
    with _lock:
        if not _queue or _state["error"] is not None:
            _state["thread"] = None
            return None
        return _queue[0]


def _pause() -> None:
    """Wait until :data:`START_DELAY_S` after the first request, or until :func:`wait`
    is called (the wait releases the GIL: the foreground runs undisturbed)."""
    started = _state["started"]
    if started is not None:
        _now.wait(max(0.0, started + START_DELAY_S - time.monotonic()))


def _warm() -> None:
    _pause()
    from pqkit.arith import warmup

    while (family := _next()) is not None:
        try:
            for _label, step in warmup.steps(family):
                step()
        except Exception as exc:  # stay on numpy; say why in status() and once here
            with _lock:
                _state["error"] = f"{type(exc).__name__}: {exc}"
                _queue.clear()
            warnings.warn(
                f"pqkit: the jit kernels could not be built ({_state['error']}); the "
                "default backend stays numpy, which is slower (pqkit.arith.auto.status() "
                "has the details)",
                JitUnavailableWarning,
                stacklevel=1,
            )
            continue  # _next() ends the thread
        with _lock:
            _backend[family] = warmup.target(family)
            _ready[family] = time.monotonic() - _state["started"]
            _queue.remove(family)


def wait(timeout: float | None = None, families: tuple[str, ...] | None = None) -> bool:
    """Queue ``families`` (default: every kernel family) for the background warm-up
    and wait for it; True when all of them switched to ``jit``."""
    from pqkit.arith import warmup

    wanted = warmup.groups() if families is None else families
    _request(wanted, now=True)
    thread = _state["thread"]
    if thread is not None:
        thread.join(timeout)
    return all(family in _ready for family in wanted)


def status() -> dict[str, Any]:
    """Where the automatic selection stands: per scheme the backend a default request
    gets now, whether the warm-up runs, seconds to readiness, and any error."""
    from pqkit.arith import warmup

    thread = _state["thread"]
    return {
        "enabled": _enabled(),
        "running": bool(thread is not None and thread.is_alive()),
        "backend": {
            s: (_backend.get(s, "jit") if s in _ready else FALLBACK) for s in warmup.groups()
        },
        "ready_after_s": dict(_ready),
        "error": _state["error"],
    }


def pending(scheme: str | None = None) -> bool:
    """Whether a default request for ``scheme`` (None: any) would get ``numpy`` now
    only because the ``jit`` code is still being compiled or loaded in the background."""
    thread = _state["thread"]
    queued = bool(_queue) if scheme is None else scheme in _queue
    return queued and thread is not None and thread.is_alive()


def explicit() -> bool:
    """Whether the backend is chosen explicitly now (a :func:`pqkit.arith.use` scope
    or ``PQKIT_ARITH``), so the automatic selection does not apply."""
    return bool(_env.value("PQKIT_ARITH")) or scope.get() is not None


def note(scheme: str | None = None) -> str:
    """A remark for messages naming the backend: empty unless the automatic
    selection is still on ``numpy`` while ``jit`` compiles."""
    if explicit() or not pending(scheme):
        return ""
    return (
        " (jit is being compiled in the background and takes over when ready; "
        "`pqkit compile --all` builds it ahead of time)"
    )

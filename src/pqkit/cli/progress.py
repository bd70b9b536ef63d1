"""Progress bars for long jobs, on stderr, only when stderr is a terminal.

Uses ``tqdm`` (the optional ``progress`` extra: ``pip install ".[progress]"``) for
count, rate and time left; without tqdm, or when stderr is redirected, every call
here does nothing, so output piped to a file stays clean. Long jobs (``pqkit kat``,
``pqkit speed``, batch key generation, jit compilation) use :func:`track` for a
loop over known items or :class:`Bar` for steps announced one at a time.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable, Iterator
from types import TracebackType
from typing import Any, TextIO, TypeVar

__all__ = ["Bar", "enabled", "track"]

T = TypeVar("T")


def _tqdm() -> Any:
    try:
        return importlib.import_module("tqdm").tqdm
    except ImportError:
        return None


def enabled(stream: TextIO | None = None) -> bool:
    """Whether a bar would be shown on ``stream`` (default stderr): a terminal, and
    tqdm installed."""
    out = sys.stderr if stream is None else stream
    isatty = getattr(out, "isatty", None)
    return bool(isatty is not None and isatty()) and _tqdm() is not None


class Bar:
    """A progress bar of ``total`` steps (None: unknown), or nothing (see module doc).

    Use as a context manager; ``update(n)`` advances it, ``describe(text)`` names the
    current step.
    """

    def __init__(
        self,
        total: int | None,
        description: str,
        *,
        unit: str = "it",
        stream: TextIO | None = None,
        show: bool = True,
    ) -> None:
        out = sys.stderr if stream is None else stream
        self._bar: Any = None
        if show and enabled(out):
            self._bar = _tqdm()(
                total=total, desc=description, unit=unit, file=out, leave=False, dynamic_ncols=True
            )

    @property
    def active(self) -> bool:
        """Whether a bar is being drawn."""
        return self._bar is not None

    def update(self, n: int = 1) -> None:
        """Advance by ``n`` steps."""
        if self._bar is not None:
            self._bar.update(n)

    def describe(self, text: str) -> None:
        """Name the current step."""
        if self._bar is not None:
            self._bar.set_description_str(text)

    def close(self) -> None:
        """Remove the bar."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Bar:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def track(
    items: Iterable[T],
    total: int | None,
    description: str,
    *,
    unit: str = "it",
    stream: TextIO | None = None,
) -> Iterator[T]:
    """Yield ``items``, advancing a bar of ``total`` steps as each is taken."""
    with Bar(total, description, unit=unit, stream=stream) as bar:
        for item in items:
            yield item
            bar.update()

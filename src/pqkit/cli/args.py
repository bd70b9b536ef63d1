"""Argument types shared by the ``pqkit`` subcommands (checked by the parser, so a
bad value is a usage error, exit status 2, before any work or output)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

__all__ = ["non_negative_int", "positive_int"]


def non_negative_int(what: str) -> Callable[[str], int]:
    """An argparse ``type=``: a whole number >= 0; errors name ``what``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what}: not a whole number: {text!r}") from None
        if value < 0:
            raise argparse.ArgumentTypeError(f"{what} must be >= 0, got {value}")
        return value

    return parse


def positive_int(what: str) -> Callable[[str], int]:
    """An argparse ``type=``: a whole number >= 1; errors name ``what``."""
    whole = non_negative_int(what)

    def parse(text: str) -> int:
        value = whole(text)
        if value < 1:
            raise argparse.ArgumentTypeError(f"{what} must be >= 1, got {value}")
        return value

    return parse

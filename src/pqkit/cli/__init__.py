"""The ``pqkit`` command.

Each feature module contributes its subcommands through a ``register(subparsers)``
function listed in ``_COMMANDS``; this module only builds the parser, runs
the chosen command and turns user errors into one line on stderr, with the exit
statuses of :mod:`pqkit.cli.status`: 0 success, 1 a failed check (invalid
signature, wrong password), 2 a usage error or an unusable input.

Start-up: ``pqkit --version`` answers before any parser is built, and a command
named first loads only the module that registers it (its argument table and its
imports), not those of every other command; help and usage errors build the
whole parser.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pqkit.cli.status import EPILOG, FAILURE, USAGE, Failure

if TYPE_CHECKING:
    import argparse

__all__ = ["main"]

# Each subcommand and the module that adds it; each module defines
# register(subparsers) and sets ``func=`` (a callable taking the parsed namespace,
# returning the exit status). In listing order (``pqkit --help``).
_COMMANDS: dict[str, str] = {
    "demo": "pqkit.cli.demo",
    "kat": "pqkit.cli.kat",
    **dict.fromkeys(
        ("keygen", "pub", "show", "list", "encaps", "decaps", "sign", "verify"), "pqkit.cli.keys"
    ),
    "hpke": "pqkit.cli.hpke",
    "speed": "pqkit.bench.cli",
    "compile": "pqkit.cli.compile",
}
_COMMAND_MODULES: tuple[str, ...] = tuple(dict.fromkeys(_COMMANDS.values()))


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``pqkit`` argument parser: every subcommand, or only the module of
    ``command`` when it names one (what a run of that command needs)."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="pqkit",
        description="Post-quantum cryptography: ML-KEM, ML-DSA and friends.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=_version())
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    module = _COMMANDS.get(command or "")
    for name in _COMMAND_MODULES if module is None else (module,):
        importlib.import_module(name).register(subparsers)
    return parser


def _version() -> str:
    from pqkit import __version__

    return f"pqkit {__version__}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``pqkit`` with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv == ["--version"]:  # no parser, no NumPy: as fast as Python starts
        print(_version())
        return 0
    parser = build_parser(argv[0] if argv else None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help, --version, or a usage error (status 2)
        return stop.code if isinstance(stop.code, int) else USAGE
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return USAGE
    try:
        status: int = func(args)
    except Failure as exc:
        print(f"pqkit: {exc}", file=sys.stderr)
        return FAILURE
    except (ValueError, TypeError, KeyError, OSError) as exc:
        # KeyError quotes its message in str(); UnknownAlgorithm overrides __str__.
        plain_key_error = type(exc) is KeyError and exc.args
        message = str(exc.args[0]) if plain_key_error else str(exc)
        print(f"pqkit: error: {message}", file=sys.stderr)
        return USAGE
    except KeyboardInterrupt:  # pragma: no cover
        return 130
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

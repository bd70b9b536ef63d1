"""The ``pqkit`` command.

Each feature module contributes its subcommands through a ``register(subparsers)``
function listed in ``_COMMAND_MODULES``; this module only builds the parser, runs
the chosen command and turns user errors into one line on stderr, with the exit
statuses of :mod:`pqkit.cli.status`: 0 success, 1 a failed check (invalid
signature, wrong password), 2 a usage error or an unusable input.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from pqkit.cli.status import EPILOG, FAILURE, USAGE, Failure

__all__ = ["main"]

# Modules that add subcommands; each defines register(subparsers) and sets
# ``func=`` (a callable taking the parsed namespace, returning the exit status).
_COMMAND_MODULES: tuple[str, ...] = (
    "pqkit.cli.demo",
    "pqkit.cli.kat",
    "pqkit.cli.keys",
    "pqkit.cli.hpke",
    "pqkit.bench.cli",
    "pqkit.cli.compile",
)


def build_parser() -> argparse.ArgumentParser:
    """The full ``pqkit`` argument parser."""
    parser = argparse.ArgumentParser(
        prog="pqkit",
        description="Post-quantum cryptography: ML-KEM, ML-DSA and friends.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=_version())
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def _version() -> str:
    from pqkit import __version__

    return f"pqkit {__version__}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``pqkit`` with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    parser = build_parser()
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

"""The ``pqkit`` command.

Each feature module contributes its subcommands through a ``register(subparsers)``
function listed in ``_COMMANDS``; this module only builds the parser, runs
the chosen command and turns user errors into one line on stderr, with the exit
statuses of :mod:`pqkit.cli.status`: 0 success, 1 a failed check (invalid
signature, wrong password), 2 a usage error or an unusable input (a feature whose
optional extra is not installed included: :class:`pqkit.MissingExtra`).

Start-up: ``pqkit --version`` answers before any parser is built, and a command
named first loads only the module that registers it (its argument table and its
imports), not those of every other command; help and usage errors build the
whole parser.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pqkit.cli.status import EPILOG, FAILURE, USAGE, Failure
from pqkit.errors import MissingExtra

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
    "cms": "pqkit.cli.cms",
    **dict.fromkeys(("req", "x509", "crl", "verify-cert"), "pqkit.cli.x509"),
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
        description=(
            "Post-quantum cryptography: ML-KEM, ML-DSA, SLH-DSA, the hybrid KEMs (X-Wing,\n"
            "MLKEM768-P256, MLKEM1024-P384), HPKE and the round-3 Kyber / Dilithium: key\n"
            "files, encapsulation, signatures, KATs, and speed tools."
        ),
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


def _silence_stdout() -> None:
    """Point standard output at the null device after a broken pipe, so that the
    interpreter's final flush of what is still buffered does not fail again (the
    recipe of Python's ``signal`` documentation, "Note on SIGPIPE"): the command then
    ends quietly, as coreutils' do."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (captured in tests)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``pqkit`` with ``argv`` (default ``sys.argv[1:]``); return the exit status.

    A reader that closes the pipe early (``pqkit list | head -1``) ends the command
    quietly with status 0: the reader has all it wanted."""
    try:
        status = _run(sys.argv[1:] if argv is None else list(argv))
        sys.stdout.flush()  # a closed pipe shows here, not at the interpreter's exit
    except BrokenPipeError:
        _silence_stdout()
        return 0
    return status


def _run(argv: list[str]) -> int:
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
    except MissingExtra as exc:  # an optional dependency: one line naming the extra
        print(f"pqkit: error: {exc}", file=sys.stderr)
        return USAGE
    except BrokenPipeError:
        raise  # main() ends quietly
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

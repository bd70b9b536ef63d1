"""``pqkit speed kem | sig | common | kernels | compare`` (also ``python -m pqkit.bench``).

Every timing subcommand prints liboqs's layout: a "Configuration info" block, a
"Speed test" heading and a Markdown table; ``--format json`` prints every figure
instead, ``--style bssl`` BoringSSL's one-liners. A progress bar goes to stderr
when it is a terminal and tqdm is installed (:mod:`pqkit.cli.progress`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import sys
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from pqkit import arith, common, registry
from pqkit.bench import compare as compare_mod
from pqkit.bench import kernels as kernels_mod
from pqkit.bench import report as report_mod
from pqkit.bench import suites
from pqkit.bench.config import configuration
from pqkit.bench.keyring import KEY_RING
from pqkit.bench.runner import Group, Progress, Report, run_groups
from pqkit.cli.args import non_negative_int
from pqkit.common.select import FAMILIES, parse_settings

__all__ = ["main", "register"]

EXIT_UNKNOWN_ALGORITHM = 2


def _duration(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value >= 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"duration must be a finite number >= 0, got {text!r}")
    return value


def _timing_options() -> argparse.ArgumentParser:
    """The options every timing subcommand takes."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--duration",
        type=_duration,
        default=3.0,
        metavar="SECONDS",
        help="time each operation for this long (default: 3, as liboqs; any float)",
    )
    parent.add_argument(
        "--format", choices=("table", "json"), default="table", help="output format"
    )
    parent.add_argument(
        "--style",
        choices=("liboqs", "bssl"),
        default="liboqs",
        help="table style: liboqs's Markdown table or BoringSSL's 'Did N ... operations' lines",
    )
    parent.add_argument(
        "--percentiles",
        action="store_true",
        help="also print the median and the 1/10/25/50/75/90/99th percentiles",
    )
    parent.add_argument(
        "--backend",
        metavar="SPEC",
        help="symmetric providers: a backend name (python, openssl) or per family "
        "as in PQKIT_SYMMETRIC (sha3=python,aes=openssl)",
    )
    parent.add_argument("--arith", metavar="BACKEND", help="arithmetic backend (ref, numpy, ...)")
    parent.add_argument("-q", "--quiet", action="store_true", help="no progress bar on stderr")
    return parent


def _add_commands(speed: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    timing = _timing_options()
    for kind, title, ops, cycle in (
        ("kem", "KEM", "keygen, encaps and decaps", "keygen+encaps+decaps"),
        (
            "sig",
            "signature scheme",
            "keypair, sign and verify (a 50-byte message)",
            "keypair+sign+verify",
        ),
    ):
        p = speed.add_parser(
            kind,
            parents=[timing],
            help=f"time each {title} (default: all)",
            description=f"Time {ops} of each {title} named (default: all of them).",
        )
        p.add_argument("algorithms", nargs="*", metavar="ALG", help="algorithm names")
        p.add_argument(
            "--info", action="store_true", help="print sizes and claimed NIST level first"
        )
        p.add_argument(
            "--fullcycle",
            action="store_true",
            help=f"time {cycle} together, as one 'fullcycle' row",
        )
        p.add_argument(
            "--keys",
            choices=suites.KEYS,
            default="both",
            help=f"fresh: a new key every call (cycling through {KEY_RING} key pairs); "
            "one: one key reused on every call, rows labelled '(one key)'; "
            "both (default): the fresh-key rows, then the one-key rows",
        )
        p.add_argument(
            "--batch",
            type=non_negative_int("--batch"),
            default=0,
            metavar="N",
            help="time the batch view (scheme.batch) on N items per call and add "
            "per-item time and items/s columns (0: single operations, the default)",
        )
        p.set_defaults(func=_run_schemes, kind=kind)

    p = speed.add_parser(
        "common",
        parents=[timing],
        help="time the symmetric primitives on every backend",
        description="Time SHA-3, SHAKE, SHA-2, AES-256 and the CTR-DRBG on each backend.",
    )
    p.add_argument(
        "--msglen",
        type=non_negative_int("--msglen"),
        default=32,
        help="message length for hashes (default: 32)",
    )
    p.add_argument(
        "--outlen",
        type=non_negative_int("--outlen"),
        default=168,
        help="output length of SHAKE, AES-CTR and the DRBG (default: 168, a SHAKE-128 block)",
    )
    p.set_defaults(func=_run_common)

    p = speed.add_parser(
        "kernels",
        parents=[timing],
        help="time each arithmetic kernel and the Keccak permutation",
        description="Per-kernel timings for every arithmetic and symmetric backend.",
    )
    p.set_defaults(func=_run_kernels)

    p = speed.add_parser(
        "compare",
        help="before/after table of two JSON runs",
        description="Markdown before/after table (Improv = before / after) of two "
        "'--format json' runs.",
    )
    p.add_argument("old", metavar="OLD.json")
    p.add_argument("new", metavar="NEW.json")
    p.add_argument(
        "--metric",
        choices=tuple(compare_mod.METRICS),
        default="median",
        help="which figure to compare (default: median)",
    )
    p.set_defaults(func=_run_compare)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``pqkit speed`` and its subcommands to the ``pqkit`` command."""
    speed = subparsers.add_parser(
        "speed",
        help="speed tools in the liboqs format (kem, sig, common, kernels, compare)",
        description="Speed tools in the liboqs format.",
    )
    commands = speed.add_subparsers(dest="speed_command", metavar="SUBCOMMAND")
    _add_commands(commands)
    speed.set_defaults(func=lambda _args: _usage(speed))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _symmetric_settings(spec: str | None) -> dict[str, str]:
    """``--backend`` in the syntax of ``PQKIT_SYMMETRIC``: family -> backend name."""
    if not spec:
        return {}
    return parse_settings(spec, source="--backend")


@contextlib.contextmanager
def _providers(args: argparse.Namespace) -> Iterator[None]:
    """Enter the providers chosen by ``--backend`` / ``--arith`` (checked on entry)."""
    with contextlib.ExitStack() as stack:
        settings = _symmetric_settings(args.backend)
        if settings:
            stack.enter_context(common.use(**settings))
        if args.arith:
            stack.enter_context(arith.use(args.arith))
        yield


def _emit(args: argparse.Namespace, report: Report) -> int:
    if args.format == "json":
        print(json.dumps(report_mod.to_json(report), indent=2))
    elif args.style == "bssl":
        print("\n".join(report_mod.format_bssl(report)))
    else:
        print("\n".join(report_mod.format_table(report, percentiles=args.percentiles)))
    return 0


def _settle_backend(args: argparse.Namespace, groups: tuple[str, ...] | None) -> None:
    """With the automatic backend selection (no ``--arith``, no ``PQKIT_ARITH``),
    wait until the background jit warm-up of ``groups`` (None: every kernel group) is
    done, so one backend runs every timed call and the configuration block names it."""
    from pqkit.arith import auto

    if getattr(args, "arith", None) or auto.explicit():
        return
    if not auto.status()["enabled"] or auto.wait(0, groups):  # queues them
        return
    print("pqkit speed: waiting for the jit backend to compile ...", file=sys.stderr)
    auto.wait(None, groups)


def _timed(
    args: argparse.Namespace,
    command: str,
    groups: list[Group],
    *,
    algorithms: dict[str, dict[str, Any]] | None = None,
    parameters: dict[str, Any] | None = None,
    kernels: tuple[str, ...] | None = None,
) -> Report:
    """Run ``groups`` with the chosen providers and wrap the rows in a report;
    ``kernels``: the kernel groups they run on (None: every one)."""
    _settle_backend(args, kernels)
    config = configuration()
    started = datetime.now().astimezone()
    rows = run_groups(groups, args.duration, Progress(sys.stderr, enabled=not args.quiet))
    return Report(
        command=command,
        duration=args.duration,
        configuration=config,
        started=started,
        ended=datetime.now().astimezone(),
        rows=rows,
        algorithms=algorithms or {},
        parameters=parameters or {},
    )


def _installed(schemes: list[Any]) -> list[Any]:
    """``schemes`` less those that need an extra that is not installed, which are
    named on stderr with the extra (a named one still runs, and fails with
    :class:`pqkit.MissingExtra`, exit status 2)."""
    from pqkit import registry
    from pqkit._extras import installed

    kept: list[Any] = []
    left: dict[str, list[str]] = {}
    for scheme in schemes:
        extra = registry.algorithm(scheme.name).extra
        if extra is None or installed(extra):
            kept.append(scheme)
        else:
            left.setdefault(extra, []).append(scheme.name)
    for extra, names in left.items():
        print(
            f"pqkit speed: skipped {', '.join(names)}: the '{extra}' extra is not installed "
            f'(pip install "pqkit[{extra}]")',
            file=sys.stderr,
        )
    return kept


def _run_schemes(args: argparse.Namespace) -> int:
    schemes, unknown = suites.resolve(args.algorithms, args.kind)
    if unknown:
        title = "KEM" if args.kind == "kem" else "signature scheme"
        known = suites.known(args.kind)
        for name in unknown:
            print(f"pqkit speed: unknown {title} {name!r}", file=sys.stderr)
        print(f"known {title}s: {', '.join(known) if known else '(none)'}", file=sys.stderr)
        return EXIT_UNKNOWN_ALGORITHM
    if not args.algorithms:  # all of them: leave out those an absent extra keeps from running
        schemes = _installed(schemes)
    build = suites.kem_groups if args.kind == "kem" else suites.sig_groups
    infos = {s.name: suites.scheme_info(s) for s in schemes}
    parameters: dict[str, Any] = (
        {"message_bytes": len(suites.MESSAGE)} if args.kind == "sig" else {}
    )
    batch = getattr(args, "batch", 0)
    if batch and args.fullcycle:
        print("pqkit speed: --batch and --fullcycle cannot be combined", file=sys.stderr)
        return 2
    with _providers(args):
        groups = (
            suites.batch_groups(schemes, args.kind, batch, keys=args.keys)
            if batch
            else build(schemes, fullcycle=args.fullcycle, keys=args.keys)
        )
        if not args.fullcycle:
            parameters.update(keys=args.keys, key_ring=KEY_RING)
        if batch:
            parameters["batch"] = batch
        # wait for the kernel groups of the schemes timed only (and their batch groups)
        kernels = tuple(
            dict.fromkeys(
                group
                for s in schemes
                for group in (
                    registry.batch_kernel_groups(s.name)
                    if batch
                    else (registry.kernel_group(s.name),)
                )
            )
        )
        report = _timed(
            args, args.kind, groups, algorithms=infos, parameters=parameters, kernels=kernels
        )
    if not args.info and args.format == "table":
        report.algorithms = {}
    return _emit(args, report)


def _run_common(args: argparse.Namespace) -> int:
    settings = _symmetric_settings(args.backend)
    only: dict[str, list[str]] | None = (
        {f: [settings[f]] for f in FAMILIES if f in settings} if settings else None
    )
    with _providers(args):
        groups = suites.common_groups(msglen=args.msglen, outlen=args.outlen, only=only)
        report = _timed(
            args, "common", groups, parameters={"msglen": args.msglen, "outlen": args.outlen}
        )
    return _emit(args, report)


def _run_kernels(args: argparse.Namespace) -> int:
    settings = _symmetric_settings(args.backend)
    with _providers(args):
        groups = kernels_mod.kernel_groups(
            arith_backends=[args.arith] if args.arith else None,
            symmetric_backends=[settings["sha3"]] if "sha3" in settings else None,
        )
        report = _timed(args, "kernels", groups)
    return _emit(args, report)


def _run_compare(args: argparse.Namespace) -> int:
    old = compare_mod.load_run(args.old)
    new = compare_mod.load_run(args.new)
    print("\n".join(compare_mod.compare(old, new, metric=args.metric)))
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m pqkit.bench ARGS`` is ``pqkit speed ARGS``."""
    from pqkit.cli import main as pqkit_main

    return pqkit_main(["speed", *(sys.argv[1:] if argv is None else argv)])

"""The "Configuration info" block: what a speed figure was measured on.

Modelled on liboqs's ``print_system_info``: target platform, interpreter, the
libraries the figures depend on (NumPy and the SIMD extensions it dispatches to,
OpenSSL through ``hashlib`` and through ``cryptography``), pqkit's version and git
commit, the providers in use and the CPU extensions present.
"""

from __future__ import annotations

import importlib
import platform
import ssl
import subprocess
from pathlib import Path
from typing import Any

import numpy as np

from pqkit import arith, common

__all__ = ["LABELS", "configuration", "cpu_extensions", "format_configuration"]

LABELS: dict[str, str] = {
    "platform": "Target platform",
    "python": "Python",
    "numpy": "NumPy",
    "openssl_hashlib": "OpenSSL (hashlib)",
    "openssl_cryptography": "OpenSSL (cryptography)",
    "pqkit": "pqkit version",
    "git_commit": "Git commit",
    "sha3": "SHA-3",
    "sha2": "SHA-2",
    "aes": "AES",
    "arith": "Arithmetic",
    "cpu_extensions": "CPU exts active",
}
"""The configuration keys (as in the JSON output) and their printed labels, in order."""

# The /proc/cpuinfo flags (x86) and features (Arm) that matter for this code, in
# the spelling of the kernel; anything starting with "avx512" is kept as well.
_INTERESTING = {
    "sse2", "ssse3", "sse4_1", "sse4_2", "popcnt", "avx", "avx2", "fma", "bmi1", "bmi2",
    "adx", "aes", "pclmulqdq", "vaes", "vpclmulqdq", "sha_ni", "gfni", "rdrand", "rdseed",
    "neon", "asimd", "pmull", "sha1", "sha2", "sha3", "sha512", "sve", "sve2",
}  # fmt: skip


def _python() -> str:
    compiler = platform.python_compiler()
    text = f"{platform.python_implementation()} {platform.python_version()}"
    return f"{text} ({compiler})" if compiler else text


def _numpy_simd() -> str:
    """NumPy's SIMD dispatch: the compiled-in baseline and which extras the CPU has."""
    try:
        module: Any = importlib.import_module("numpy._core._multiarray_umath")
    except ImportError:  # pragma: no cover - NumPy 1.x
        module = importlib.import_module("numpy.core._multiarray_umath")
    features: dict[str, bool] = getattr(module, "__cpu_features__", {})
    baseline: list[str] = list(getattr(module, "__cpu_baseline__", []))
    dispatch: list[str] = list(getattr(module, "__cpu_dispatch__", []))
    found = [name for name in dispatch if features.get(name)]
    missing = [name for name in dispatch if not features.get(name)]
    parts = [f"baseline {' '.join(baseline) or '-'}", f"found {' '.join(found) or '-'}"]
    if missing:
        parts.append(f"not found {' '.join(missing)}")
    return f"{np.__version__} (SIMD {'; '.join(parts)})"


def _cryptography_openssl() -> str:
    try:
        cryptography: Any = importlib.import_module("cryptography")
        backend: Any = importlib.import_module("cryptography.hazmat.backends.openssl.backend")
        return f"{backend.backend.openssl_version_text()} (cryptography {cryptography.__version__})"
    except Exception:  # ImportError, or an API that moved: not worth failing a benchmark
        return "not available (cryptography not installed)"


def _git_commit() -> str:
    """The commit of the checkout pqkit is imported from, or "" when not a checkout."""
    package = Path(__file__).resolve().parent.parent
    try:

        def git(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                ["git", *args],
                cwd=package,
                capture_output=True,
                text=True,
                timeout=5,
                check=False,
            )

        top = git("rev-parse", "--show-toplevel")
        # Only pqkit's own checkout counts, not some repository it is installed inside.
        if top.returncode != 0 or Path(top.stdout.strip()) / "src" / "pqkit" != package:
            return ""
        head = git("rev-parse", "HEAD")
        if head.returncode != 0:
            return ""
        dirty = git("status", "--porcelain", "--untracked-files=no").stdout.strip()
        return head.stdout.strip() + (" (modified)" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return ""


def cpu_extensions() -> list[str]:
    """The interesting CPU extensions this machine reports, upper case, sorted.

    From ``/proc/cpuinfo`` (Linux: ``flags`` on x86, ``Features`` on Arm); elsewhere
    from the features NumPy detected.
    """
    flags: set[str] = set()
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() in ("flags", "Features"):
                    flags.update(value.split())
                    break
    except OSError:
        pass
    if flags:
        return sorted(f.upper() for f in flags if f in _INTERESTING or f.startswith("avx512"))
    try:  # pragma: no cover - not Linux
        module: Any = importlib.import_module("numpy._core._multiarray_umath")
        return sorted(k for k, v in getattr(module, "__cpu_features__", {}).items() if v)
    except ImportError:  # pragma: no cover
        return []


def configuration() -> dict[str, str]:
    """The configuration info, keyed as in :data:`LABELS`, for the providers active now."""
    symmetric = common.backends()
    available = arith.backends()["available"]
    arith_backends = sorted({b for names in available.values() for b in names})
    return {
        "platform": f"{platform.machine()}-{platform.system()}-{platform.release()}",
        "python": _python(),
        "numpy": _numpy_simd(),
        "openssl_hashlib": ssl.OPENSSL_VERSION,
        "openssl_cryptography": _cryptography_openssl(),
        "pqkit": _pqkit_version(),
        "git_commit": _git_commit() or "unknown",
        **{
            family: (
                f"{symmetric[family]['active']}"
                f" (available: {', '.join(symmetric[family]['available'])})"
            )
            for family in ("sha3", "sha2", "aes")
        },
        "arith": f"{arith.active()} (available: {', '.join(arith_backends) or '-'})",
        "cpu_extensions": " ".join(cpu_extensions()) or "unknown",
    }


def _pqkit_version() -> str:
    from pqkit import __version__

    return __version__


def format_configuration(config: dict[str, str]) -> list[str]:
    """The block as printed: a heading, then one aligned ``Label: value`` line each."""
    width = max(len(label) for label in LABELS.values()) + 2
    lines = ["Configuration info", "=================="]
    for key, value in config.items():
        label = LABELS.get(key, key) + ":"
        lines.append(f"{label:<{width}}{value}")
    return lines

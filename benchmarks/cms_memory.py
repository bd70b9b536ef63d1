"""Peak memory of ``pqkit cms sign --detached`` and ``pqkit cms verify --content``
on a large file: the content is hashed in chunks, so the peak should not grow with
the file.

Each command runs as a child process; its peak resident set is the ``ru_maxrss``
of that child alone (``os.wait4``). The file is made in a temporary folder and
deleted afterwards. A small file is measured first as the baseline (the
interpreter, NumPy, pyasn1 and the key). The children run with
``PQKIT_JIT_BACKGROUND=0``: the background compilation of the kernels runs in
worker processes whose memory ``wait4`` would count as the child's (about 100 MiB
more, whatever the file size). On Linux a child's ``ru_maxrss`` starts from its
parent's resident set at the fork, so this script never imports pqkit itself: the
signer's key and certificate are made by a child (``--make-signer``), and the
script's own resident set (the interpreter, about 10 MiB) is the floor of every
figure.

    python benchmarks/cms_memory.py              # 64 MiB (the default)
    python benchmarks/cms_memory.py --size-mb 1024

Needs the cms extra. Timings are not the point (and mean little on a shared
machine); the memory figures are.
"""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_MB = 1 << 20


def _make_signer(folder: Path) -> None:
    from pqkit import x509
    from pqkit.keys import MLDSA65PrivateKey
    from pqkit.serialization import Encoding, NoEncryption, PrivateFormat

    key = MLDSA65PrivateKey.generate()
    name = x509.Name([x509.NameAttribute(x509.NameOID.COMMON_NAME, "cms memory benchmark")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(True, None), True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
        .sign(key)
    )
    private = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    (folder / "key.pem").write_bytes(private)
    (folder / "cert.pem").write_bytes(cert.public_bytes(Encoding.PEM))


def _write_file(path: Path, size: int) -> None:
    block = os.urandom(_MB)
    with path.open("wb") as f:
        for _ in range(size // _MB):
            f.write(block)


def _run(argv: list[str]) -> tuple[float, float, int]:
    """(peak RSS in MiB, seconds, exit status) of one child process."""
    start = time.perf_counter()
    env = {**os.environ, "PQKIT_JIT_BACKGROUND": "0"}
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if child.stderr is not None:
        child.stderr.close()
    # Linux reports ru_maxrss in KiB (macOS in bytes).
    scale = 1 if sys.platform == "darwin" else 1024
    return usage.ru_maxrss * scale / _MB, seconds, os.waitstatus_to_exitcode(status)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mb", type=int, default=64, help="content size in MiB (64)")
    parser.add_argument("--make-signer", metavar="FOLDER", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.make_signer:
        _make_signer(Path(args.make_signer))
        return
    pqkit = [sys.executable, "-m", "pqkit", "cms"]
    with tempfile.TemporaryDirectory(prefix="pqkit-cms-memory-") as tmp:
        folder = Path(tmp)
        subprocess.run([sys.executable, __file__, "--make-signer", tmp], check=True)
        key, cert = folder / "key.pem", folder / "cert.pem"
        print(f"{'content':>10}  {'step':<6}  {'peak RSS MiB':>12}  {'seconds':>8}")
        # The small file again last: a peak that depends on the order (a warm-up) and
        # not on the size shows there.
        for size in (_MB, args.size_mb * _MB, _MB):
            content, sig = folder / "content.bin", folder / "content.p7s"
            _write_file(content, size)
            sign = [*pqkit, "sign", "--signer", str(cert), "--inkey", str(key), "--detached"]
            verify = [*pqkit, "verify", "--CAfile", str(cert), "--content", str(content)]
            for step, argv in (
                ("sign", [*sign, "-i", str(content), "-o", str(sig), "--force"]),
                ("verify", [*verify, "-i", str(sig)]),
            ):
                rss, seconds, status = _run(argv)
                if status != 0:
                    raise SystemExit(f"{step} failed (exit status {status})")
                print(f"{size // _MB:>7} MiB  {step:<6}  {rss:>12.1f}  {seconds:>8.1f}")
            content.unlink()


if __name__ == "__main__":
    main()

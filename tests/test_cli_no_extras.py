"""Every ``pqkit`` command on an install without extras (issue 25 item 1).

Each command runs in a fresh process in which pyca/cryptography (the ``openssl``
extra), tqdm (``progress``) and Dask (``dask``) cannot be imported (``None`` in
``sys.modules`` before pqkit loads), so the suite checks the plain install
wherever it runs. ``.ci/run`` also runs this file in a virtual environment with
the wheel installed without extras (plain ``pip install pqkit-*.whl``), where
those packages are really absent. Numba is left as it is found (it is the
``jit`` extra, and may be a default dependency); the background compilation is
off, as in the rest of the suite.

What must hold: commands that need nothing more succeed; ``pqkit demo`` and
``pqkit speed`` run every row they can, name what they skipped and the extra
once, and exit 0; a command that needs a missing extra prints one line naming
the extra and exits 2 (the documented status of an unusable input), never a
traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import pqkit

BLOCKED = ("cryptography", "tqdm", "dask")
PRELUDE = (
    "import sys\n"
    f"for name in {BLOCKED!r}:\n"
    "    sys.modules[name] = None\n"
    "from pqkit.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)
INSTALL = 'pip install "pqkit[openssl]"'


def _env() -> dict[str, str]:
    src = str(Path(pqkit.__file__).resolve().parents[1])
    path = os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH", "")) if p)
    return dict(os.environ, PYTHONPATH=path, PQKIT_JIT_BACKGROUND="0")


def pqkit_cmd(cwd: Path, *args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    """``pqkit ARGS`` in a fresh process without the extras: (status, stdout, stderr)."""
    done = subprocess.run(
        [sys.executable, "-c", PRELUDE, *args],
        cwd=cwd, env=_env(), input=stdin, capture_output=True, check=False, timeout=1800,
    )  # fmt: skip
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def ok(cwd: Path, *args: str, stdin: bytes | None = None) -> str:
    status, out, err = pqkit_cmd(cwd, *args, stdin=stdin)
    assert status == 0 and err == "", (args, status, err)
    return out


def needs_extra(cwd: Path, *args: str, extra: str = "openssl") -> str:
    """The command fails with one line naming ``extra``, exit status 2."""
    status, _, err = pqkit_cmd(cwd, *args)
    assert status == 2, (args, status, err)
    assert err.count("\n") == 1 and err.startswith("pqkit: error: "), err
    assert f"the '{extra}' extra" in err and f'pip install "pqkit[{extra}]"' in err, err
    return err


def test_the_prelude_blocks_the_extras(tmp_path: Path) -> None:
    code = (
        f"import sys\nfor n in {BLOCKED!r}: sys.modules[n] = None\n"
        "import importlib.util as u\nprint([u.find_spec(n) is None for n in "
        f"{BLOCKED!r}])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=_env()
    )
    assert done.stdout.strip() == "[True, True, True]"


@pytest.mark.slow  # every scheme in a fresh process (minutes; the README's demo runs by default)
def test_demo_runs_every_row_it_can_and_names_what_it_skipped(tmp_path: Path) -> None:
    out = ok(tmp_path, "demo")
    rows = {line.split()[0]: line for line in out.splitlines() if line.endswith(" yes")}
    hybrids = [a.name for a in pqkit.registry.algorithms() if a.extra == "openssl"]
    slow = [n for n in pqkit.sigs() if n.startswith("SLH-DSA-") and n.endswith("s")]
    slow += [n for n in pqkit.sigs() if pqkit.registry.algorithm(n).stateful]
    for name in pqkit.kems() + pqkit.sigs():
        if name not in hybrids + slow:
            assert name in rows, name
    assert not set(hybrids) & set(rows)
    skipped = [line for line in out.splitlines() if line.startswith("skipped")]
    in_order = [n for n in pqkit.kems() + pqkit.sigs() if n in hybrids]  # the demo's order
    assert skipped == [f"skipped {', '.join(in_order)}: {skipped[0].split(': ', 1)[1]}"]
    assert INSTALL in skipped[0] and " NO" not in out


def test_list_marks_the_extras(tmp_path: Path) -> None:
    out = ok(tmp_path, "list")
    assert "X-Wing" in out and "not installed here: the 'openssl' extra" in out
    rows = [line.split() for line in out.splitlines()[1:] if line.startswith("X-Wing ")]
    assert rows and rows[0][-1] == "openssl"


def test_version_help_and_kat(tmp_path: Path) -> None:
    assert ok(tmp_path, "--version").startswith("pqkit ")
    assert "exit status" in ok(tmp_path, "--help")
    assert ok(tmp_path, "kat", "Kyber512", "--count", "1").startswith("# Kyber512\n")
    assert ok(tmp_path, "kat", "ML-DSA-44", "--count", "1").startswith("# ML-DSA-44\n")


def test_key_files_kem_and_signatures(tmp_path: Path) -> None:
    ok(tmp_path, "keygen", "ML-KEM-768", "-o", "k.pem", "--pub", "k.pub")
    ok(tmp_path, "encaps", "k.pub", "--ct", "ct", "--secret", "ss1")
    ok(tmp_path, "decaps", "k.pem", "ct", "--secret", "ss2")
    assert (tmp_path / "ss1").read_bytes() == (tmp_path / "ss2").read_bytes()
    assert "ML-KEM-768" in ok(tmp_path, "show", "k.pem")
    assert ok(tmp_path, "pub", "k.pem") == (tmp_path / "k.pub").read_text()
    ok(tmp_path, "show", "k.pem", "-o", "k.der", "--der", "--form", "both")
    (tmp_path / "m").write_bytes(b"message")
    for alg in ("ML-DSA-44", "SLH-DSA-SHAKE-128f"):
        ok(tmp_path, "keygen", alg, "-o", f"{alg}.pem", "--pub", f"{alg}.pub")
        ok(tmp_path, "sign", f"{alg}.pem", "m", "-o", f"{alg}.sig", "--context", "6162")
        assert ok(tmp_path, "verify", f"{alg}.pub", "m", f"{alg}.sig", "--context", "6162") == (
            "signature valid\n"
        )
    ok(tmp_path, "keygen", "ML-KEM-512", "--count", "3", "-o", "batch")
    assert sorted(p.name for p in (tmp_path / "batch").iterdir()) == [
        "public_keys.npy",
        "secret_keys.npy",
    ]


def test_what_needs_the_openssl_extra_is_one_line(tmp_path: Path) -> None:
    needs_extra(tmp_path, "keygen", "X-Wing", "-o", "x.pem")
    needs_extra(tmp_path, "keygen", "MLKEM1024-P384", "-o", "p.pem")
    needs_extra(tmp_path, "keygen", "ML-KEM-768", "-o", "e.pem", "--passout", "pass:pw")
    needs_extra(
        tmp_path, "hpke", "keygen", "--kem", "X-Wing", "--private-out", "a", "--public-out", "b"
    )
    assert not (tmp_path / "x.pem").exists() and not (tmp_path / "e.pem").exists()
    # A hybrid key file made elsewhere: reading it needs the curve half too.
    from pqkit.serialization.pem import pem_encode

    (tmp_path / "xw.pem").write_bytes(pem_encode(bytes(range(32)), "X-WING SEED PRIVATE KEY"))
    needs_extra(tmp_path, "show", "xw.pem")
    needs_extra(tmp_path, "pub", "xw.pem")
    needs_extra(tmp_path, "encaps", "xw.pem", "--ct", "ct", "--secret", "ss")


def test_hpke_with_ml_kem(tmp_path: Path) -> None:
    ok(
        tmp_path,
        "hpke",
        "keygen",
        "--kem",
        "ML-KEM-768",
        "--private-out",
        "h.pem",
        "--public-out",
        "h.pub",
    )
    (tmp_path / "m").write_bytes(b"message")
    # The ML-KEM KEM and the HKDF need no extra; the AEADs are pyca's.
    for aead in ("AES-128-GCM", "ChaCha20-Poly1305"):
        err = needs_extra(
            tmp_path,
            "hpke",
            "seal",
            "h.pub",
            "--kem",
            "ML-KEM-768",
            "--aead",
            aead,
            "-i",
            "m",
            "-o",
            "s",
        )
        assert aead.upper() in err
    assert not (tmp_path / "s").exists()


def test_speed_names_what_it_skips(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """What ``pqkit speed kem`` (no names) leaves out without pyca/cryptography, in
    one stderr line naming the extra; the full sweep runs in
    test_speed_runs_every_kem_it_can (slow)."""
    from pqkit.bench import cli as speed_cli
    from pqkit.bench import suites

    monkeypatch.setitem(sys.modules, "cryptography", None)
    schemes, unknown = suites.resolve([], "kem")
    assert not unknown
    kept = speed_cli._installed(schemes)
    needing = [a.name for a in pqkit.registry.algorithms("kem") if a.extra == "openssl"]
    assert {"X-Wing", "FrodoKEM-640-AES", "MLKEM768-RSA2048-SHA3-256"} <= set(needing)
    assert [s.name for s in kept] == [n for n in pqkit.kems() if n not in needing]
    err = capsys.readouterr().err
    assert err == f"pqkit speed: skipped {', '.join(needing)}: the 'openssl' extra is not " + (
        f"installed ({INSTALL})\n"
    )


def test_speed(tmp_path: Path) -> None:
    """``pqkit speed`` on the plain install: rows of the families that need no extra
    (one set each of the heavier ones: ``--keys one``, no key ring), and a named
    algorithm that needs the extra fails with one line."""
    kems = ("ML-KEM-768", "HQC-1", "FrodoKEM-640-SHAKE", "Classic-McEliece-348864")
    status, out, err = pqkit_cmd(
        tmp_path, "speed", "kem", *kems, "--duration", "0.001", "-q", "--keys", "one"
    )
    assert status == 0 and err == "", err
    for name in kems:
        assert name in out
    # (--keys one: a key ring's set-up can run out of its budget on a loaded machine,
    # and its note on stderr failed this test before)
    sig = ok(tmp_path, "speed", "sig", "ML-DSA-44", "--duration", "0.001", "-q", "--keys", "one")
    assert "ML-DSA-44" in sig
    needs_extra(tmp_path, "speed", "kem", "X-Wing", "--duration", "0.001", "-q")


@pytest.mark.slow
def test_speed_runs_every_kem_it_can(tmp_path: Path) -> None:
    """The full sweep (every KEM, a key ring each: minutes of CPU, the large Classic
    McEliece sets above all)."""
    status, out, err = pqkit_cmd(tmp_path, "speed", "kem", "--duration", "0.001", "-q")
    assert status == 0, err
    needing = [a.name for a in pqkit.registry.algorithms("kem") if a.extra == "openssl"]
    assert err.startswith(f"pqkit speed: skipped {', '.join(needing)}: ")
    # one line names the extra (other stderr lines are the key ring's budget notes of a
    # slow machine: "note: Kyber1024-90s: 54 fresh key pairs instead of 64 ...")
    naming = [line for line in err.splitlines() if "openssl" in line]
    assert len(naming) == 1 and INSTALL in naming[0]
    for name in pqkit.kems():
        assert (name in out) == (name not in needing), name


def test_compile_without_numba_is_one_line(tmp_path: Path) -> None:
    # Numba too is blocked here: pqkit compile then needs the jit extra.
    code = PRELUDE.replace(f"for name in {BLOCKED!r}:", f"for name in {(*BLOCKED, 'numba')!r}:")
    assert code != PRELUDE
    done = subprocess.run(
        [sys.executable, "-c", code, "compile"],
        cwd=tmp_path, env=_env(), capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("pqkit: error: compiling the jit kernels")
    assert 'pip install "pqkit[jit]"' in done.stderr

"""``pqkit speed``: every subcommand, its outputs and its errors.

The runs are short (``--duration 0.01``): these tests check the tools, not speed.
Scheme tests run on the real registry when a scheme is there, and on small fake
schemes put in the registry's catalogue (entries whose module is this one) so the
table logic is covered independently of any scheme's speed.
"""

from __future__ import annotations

import json
import re
import runpy
import sys
from pathlib import Path
from typing import Any

import pytest

import pqkit
from pqkit import arith, common, registry
from pqkit.bench import suites
from pqkit.bench.keyring import KEY_RING, cycling, make_ring
from pqkit.cli import main
from pqkit.schemes import Encapsulation, KeyPair

FAST = ["--duration", "0.01", "--quiet"]
KEM_OPS = ["keygen", "encaps", "decaps", "encaps (one key)", "decaps (one key)"]
ROW = re.compile(
    r"^(?P<op>[^|]+?)\s*\|\s*(?P<it>\d+)\s*\|\s*(?P<total>[\d.]+)\s*\|(?:[^|]*\|){3}[^|]*$"
)


class FakeKem:
    """A stand-in KEM with the registry's shape (not cryptography)."""

    name = "FAKE-KEM"
    length_public_key = 3
    length_secret_key = 4
    length_ciphertext = 5
    length_shared_secret = 32
    length_seed = 8
    claimed_nist_level = 1
    nist_level = 1

    def keygen(self, *, rng: Any = None) -> KeyPair:
        return KeyPair(b"pub", b"priv")

    def encaps(self, public_key: bytes, *, rng: Any = None) -> Encapsulation:
        return Encapsulation(bytes(32), b"ciphr")

    def decaps(self, secret_key: bytes, ciphertext: bytes) -> bytes:
        return bytes(32)


class FakeSig:
    """A stand-in signature scheme with the registry's shape."""

    name = "FAKE-SIG"
    length_public_key = 3
    length_secret_key = 4
    length_signature = 6
    length_seed = 8
    claimed_nist_level = 2
    nist_level = 2

    def keygen(self, *, rng: Any = None) -> KeyPair:
        return KeyPair(b"pub", b"priv")

    def sign(self, secret_key: bytes, message: bytes, ctx: bytes = b"", **kw: Any) -> bytes:
        return b"signed"

    def verify(self, public_key: bytes, message: bytes, signature: bytes, ctx: bytes = b"") -> bool:
        return signature == b"signed"


@pytest.fixture
def fakes(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_entries = (
        registry.Algorithm("FAKE-KEM", "kem", "fake", __name__, FakeKem()),  # type: ignore[arg-type]
        registry.Algorithm("FAKE-SIG", "sig", "fake", __name__, FakeSig()),  # type: ignore[arg-type]
    )
    catalog = registry._catalog() + fake_entries
    monkeypatch.setattr(registry, "_catalog", lambda: catalog)
    monkeypatch.setattr(
        registry, "_by_key", lambda: {registry.normalise(a.name): a for a in catalog}
    )


SCHEMES = {"FAKE-KEM": FakeKem(), "FAKE-SIG": FakeSig()}
"""The fake scheme objects, found by the registry through the fake entries above."""


def _rows(out: str) -> dict[str, list[str]]:
    """Group name -> its operation names, from the Markdown table of ``out``."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Operation"))
    groups: dict[str, list[str]] = {}
    current = None
    for line in lines[start + 2 :]:
        if not line.startswith(tuple("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")):
            break
        if line.startswith("Ended at"):
            break
        cells = [c.strip() for c in line.split("|")]
        if all(c == "" for c in cells[1:]):
            current = cells[0]
            groups[current] = []
        else:
            assert current is not None, line
            assert ROW.match(line), line
            assert int(cells[1]) >= 1
            groups[current].append(cells[0])
    return groups


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["speed", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# --- kem / sig -----------------------------------------------------------------------


@pytest.mark.usefixtures("fakes")
@pytest.mark.parametrize(
    ("kind", "name", "ops"),
    [
        ("kem", "FAKE-KEM", ["keygen", "encaps", "decaps", "encaps (one key)", "decaps (one key)"]),
        ("sig", "FAKE-SIG", ["keypair", "sign", "verify", "sign (one key)", "verify (one key)"]),
    ],
    ids=["kem", "sig"],
)
def test_scheme_table(
    capsys: pytest.CaptureFixture[str], kind: str, name: str, ops: list[str]
) -> None:
    status, out, _ = _run(capsys, kind, name, *FAST)
    assert status == 0
    assert out.startswith("Configuration info\n==================\n")
    for label in ("Target platform:", "Python:", "NumPy:", "OpenSSL (hashlib):", "SHA-3:", "AES:"):
        assert f"\n{label}" in out
    assert "\nSpeed test\n==========\n" in out
    assert (
        "Operation                      | Iterations | Total time (s) | Time (us): mean | "
        "pop. stdev | High-prec time (ns): mean | pop. stdev"
    ) in out
    assert _rows(out) == {name: ops}
    assert "Algorithm info" not in out


def _real(kind: str) -> list[str]:
    return pqkit.kems() if kind == "kem" else pqkit.sigs()


@pytest.mark.parametrize(
    ("kind", "ops"),
    [
        ("kem", ["keygen", "encaps", "decaps", "encaps (one key)", "decaps (one key)"]),
        ("sig", ["keypair", "sign", "verify", "sign (one key)", "verify (one key)"]),
    ],
    ids=["kem", "sig"],
)
def test_real_scheme_table(capsys: pytest.CaptureFixture[str], kind: str, ops: list[str]) -> None:
    names = _real(kind)
    if not names:
        pytest.skip(f"no {kind} in the registry yet")
    name = names[0]
    status, out, _ = _run(capsys, kind, name, *FAST)
    assert status == 0
    assert _rows(out) == {name: ops}


def test_kernel_group_of_each_kind_of_scheme() -> None:
    assert registry.kernel_group("ML-KEM-768") == "mlkem"
    assert registry.kernel_group("X-Wing") == "mlkem"  # the hybrids run ML-KEM's kernels
    assert registry.kernel_group("Dilithium2") == "mldsa"
    assert registry.kernel_group("MLDSA44-Ed25519-SHA512") == "mldsa"  # its ML-DSA half
    assert registry.kernel_group("MLKEM768-X25519-SHA3-256") == "mlkem"
    assert registry.kernel_group("SLH-DSA-SHA2-128f") == "hash"
    assert registry.kernel_group("Falcon-512") == "falcon"


def _record_waits(
    monkeypatch: pytest.MonkeyPatch,
) -> list[tuple[float | None, tuple[str, ...] | None]]:
    """The automatic backend, enabled and not chosen explicitly, with ``auto.wait``
    replaced by a recorder: the list of its (timeout, families) calls."""
    from pqkit.arith import auto

    waits: list[tuple[float | None, tuple[str, ...] | None]] = []

    def wait(timeout: float | None = None, families: tuple[str, ...] | None = None) -> bool:
        waits.append((timeout, families))
        return True

    monkeypatch.delenv("PQKIT_ARITH", raising=False)
    monkeypatch.setattr(auto, "explicit", lambda: False)
    monkeypatch.setattr(auto, "status", lambda: {"enabled": True})
    monkeypatch.setattr(auto, "wait", wait)
    return waits


def test_speed_waits_only_for_the_kernels_it_times(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    waits = _record_waits(monkeypatch)
    status, _, _ = _run(capsys, "sig", "MLDSA44-Ed25519-SHA512", "--keys", "one", *FAST)
    assert status == 0
    assert waits == [(0, ("mldsa",))]


def test_batch_kernel_groups() -> None:
    assert registry.batch_kernel_groups("ML-KEM-768") == ("mlkem", "mlkem-batch")
    assert registry.batch_kernel_groups("ML-DSA-65") == ("mldsa", "mldsa-batch")
    assert registry.batch_kernel_groups("Falcon-512") == ("falcon",)  # a loop view


def test_speed_batch_waits_only_for_the_batch_kernels_it_times(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    waits = _record_waits(monkeypatch)
    status, _, _ = _run(capsys, "kem", "ML-KEM-512", "--batch", "2", "--keys", "one", *FAST)
    assert status == 0
    assert waits == [(0, ("mlkem", "mlkem-batch"))]  # not None: every family


@pytest.mark.parametrize("kind", ["kem", "sig"])
def test_real_scheme_json_info_fullcycle(capsys: pytest.CaptureFixture[str], kind: str) -> None:
    names = _real(kind)
    if not names:
        pytest.skip(f"no {kind} in the registry yet")
    name = names[-1]
    status, out, _ = _run(capsys, kind, name, *FAST, "--fullcycle", "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert [(r["group"], r["operation"]) for r in data["results"]] == [(name, "fullcycle")]
    scheme: Any = pqkit.kem(name) if kind == "kem" else pqkit.sig(name)
    info = data["algorithms"][name]
    assert info["claimed_nist_level"] == scheme.claimed_nist_level
    assert info["length_public_key"] == scheme.length_public_key


@pytest.mark.slow  # every real KEM, a key ring each (minutes); the fakes stand in by default
@pytest.mark.usefixtures("fakes")
def test_all_schemes_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "kem", *FAST, "--duration", "0")
    assert status == 0
    assert list(_rows(out)) == pqkit.kems()


@pytest.mark.usefixtures("fakes")
def test_info_and_fullcycle(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "kem", "fake-kem", *FAST, "--info", "--fullcycle")
    assert status == 0
    assert "\nAlgorithm info\n==============\n" in out
    info = out.split("Algorithm info")[1].split("Speed test")[0]
    assert re.search(r"^FAKE-KEM\s*\|\s*1\s*\|\s*3\s*\|\s*4\s*\|\s*5\s*\|\s*32$", info, re.M)
    assert _rows(out) == {"FAKE-KEM": ["fullcycle"]}

    status, out, _ = _run(capsys, "sig", "FAKE-SIG", *FAST, "--info")
    assert "Signature (bytes)" in out and "Ciphertext" not in out
    assert re.search(r"^FAKE-SIG\s*\|\s*2\s*\|\s*3\s*\|\s*4\s*\|\s*6$", out, re.M)


@pytest.mark.usefixtures("fakes")
def test_percentiles(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "sig", "FAKE-SIG", *FAST, "--percentiles")
    assert status == 0
    table = out.split("Percentiles of the high-precision time (ns)\n")[1]
    header = table.splitlines()[0]
    assert [c.strip() for c in header.split("|")] == [
        "Operation", "median (ns)", "1%", "10%", "25%", "50%", "75%", "90%", "99%",
    ]  # fmt: skip
    for op in ("keypair", "sign", "verify"):
        line = next(x for x in table.splitlines() if x.startswith(op))
        values = [float(c) for c in line.split("|")[1:]]
        assert values[0] == values[4]  # median is the 50th percentile
        assert values[1:] == sorted(values[1:])


@pytest.mark.usefixtures("fakes")
def test_json_has_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "kem", "FAKE-KEM", *FAST, "--format", "json")
    assert status == 0 and err == ""
    data = json.loads(out)
    assert data["format"] == "pqkit-speed/1" and data["command"] == "kem"
    assert data["duration_s"] == 0.01
    for key in ("platform", "python", "numpy", "openssl_hashlib", "sha3", "sha2", "aes", "arith"):
        assert data["configuration"][key]
    assert data["algorithms"]["FAKE-KEM"]["length_ciphertext"] == 5
    results = {(r["group"], r["operation"]): r for r in data["results"]}
    assert list(results) == [("FAKE-KEM", op) for op in KEM_OPS]
    assert data["parameters"] == {"keys": "both", "key_ring": KEY_RING}
    for r in results.values():
        assert r["iterations"] >= 1
        assert r["total_s"] >= 0.01
        assert r["min_ns"] <= r["median_ns"] <= r["max_ns"]
        assert r["min_ns"] <= r["mean_ns"] <= r["max_ns"]
        assert r["stdev_ns"] >= 0 and r["stdev_us"] >= 0 and r["mean_us"] >= 0
        assert list(r["percentiles_ns"]) == ["1", "10", "25", "50", "75", "90", "99"]
        assert r["percentiles_ns"]["50"] == r["median_ns"]


@pytest.mark.usefixtures("fakes")
def test_bssl_style(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "kem", "FAKE-KEM", *FAST, "--style", "bssl")
    assert status == 0
    lines = out.splitlines()
    assert [line.split(" operations")[0].split(" FAKE-KEM ")[1] for line in lines] == KEM_OPS
    for line in lines:
        m = re.fullmatch(
            r"Did (\d+) FAKE-KEM [\w ()]+ operations in (\d+)us \(([\d.]+) ops/sec\)", line
        )
        assert m, line
        n, us, rate = int(m[1]), int(m[2]), float(m[3])
        assert us >= 10_000
        assert rate == pytest.approx(n / (us / 1e6), rel=1e-3)


@pytest.mark.usefixtures("fakes")
@pytest.mark.parametrize("kind", ["kem", "sig"])
def test_unknown_algorithm(capsys: pytest.CaptureFixture[str], kind: str) -> None:
    status, out, err = _run(capsys, kind, "FAKE-KEM" if kind == "kem" else "FAKE-SIG", "NOPE-1")
    assert status == 2
    assert out == ""
    assert "unknown" in err and "'NOPE-1'" in err
    known = pqkit.kems() if kind == "kem" else pqkit.sigs()
    assert f": {', '.join(known)}" in err
    assert "Traceback" not in err


@pytest.mark.usefixtures("fakes")
def test_progress_only_on_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = _run(capsys, "sig", "FAKE-SIG", "--duration", "0.01")
    assert status == 0 and err == ""  # stderr is not a terminal: no progress
    pytest.importorskip("tqdm", reason="the bar needs the optional tqdm")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    status, out, err = _run(capsys, "sig", "FAKE-SIG", "--duration", "0.01")
    assert status == 0
    assert "timing FAKE-SIG" in err and "/1 " in err  # one group: count, rate, time left
    assert "timing" not in out
    status, out, err = _run(capsys, "sig", "FAKE-SIG", "--duration", "0.01", "-q")
    assert status == 0 and err == ""


def test_bad_options() -> None:
    for argv in (
        ["kem", "--duration", "-1"],
        ["kem", "--duration", "x"],
        ["common", "--msglen", "-3"],
    ):
        assert main(["speed", *argv]) == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["common", "--backend", "nope"], "'nope'; available: "),
        (["kernels", "--backend", "sha3=nope"], "'nope'; available: "),
        (["common", "--backend", "sha4=python"], "--backend: unknown family 'sha4'"),
        (["kernels", "--arith", "nope"], "arith backend 'nope'; available: "),
    ],
    ids=["name", "family-name", "family", "arith"],
)
def test_unknown_backend(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    status, out, err = _run(capsys, *argv, *FAST)
    assert status == 2 and out == ""
    assert err.startswith("pqkit: error: ") and message in err


# --- common ------------------------------------------------------------------------


def test_common_every_primitive_on_every_backend(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "common", *FAST, "--msglen", "7", "--outlen", "40")
    assert status == 0
    groups = _rows(out)
    available = {f: common.backends()[f]["available"] for f in ("sha3", "sha2", "aes")}
    expected = {
        "SHA3-256 (7 B)": available["sha3"],
        "SHA3-512 (7 B)": available["sha3"],
        "SHAKE-128 (7 -> 40 B)": available["sha3"],
        "SHAKE-128 incremental (7 -> 40 B)": available["sha3"],
        "SHAKE-256 (7 -> 40 B)": available["sha3"],
        "SHAKE-256 incremental (7 -> 40 B)": available["sha3"],
        "SHA-256 (7 B)": available["sha2"],
        "SHA-384 (7 B)": available["sha2"],
        "SHA-512 (7 B)": available["sha2"],
        "AES-256-ECB (1 block)": available["aes"],
        "AES-256-CTR (40 B)": available["aes"],
        "CTR-DRBG AES-256 (40 B)": available["aes"],
    }
    assert groups == {k: v for k, v in expected.items() if v}


@pytest.mark.skipif(
    len(common.backends()["sha3"]["available"]) < 2, reason="only one symmetric backend"
)
def test_common_backend_restricts(capsys: pytest.CaptureFixture[str]) -> None:
    first, second = common.backends()["sha3"]["available"][:2]
    status, out, _ = _run(
        capsys, "common", *FAST, "--backend", f"sha3={second}", "--format", "json"
    )
    assert status == 0
    results = json.loads(out)["results"]
    sha3 = {r["operation"] for r in results if r["group"].startswith(("SHA3", "SHAKE"))}
    assert sha3 == {second}
    sha2 = {r["operation"] for r in results if r["group"].startswith("SHA-")}
    assert sha2 == set(common.backends()["sha2"]["available"])
    assert first in sha2 or first not in common.backends()["sha2"]["available"]


# --- kernels -----------------------------------------------------------------------


def test_kernels(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "kernels", *FAST)
    assert status == 0
    groups = _rows(out)
    for backend in arith.available("mlkem"):
        ops = groups.pop(f"ML-KEM kernels ({backend})")
        for name in (
            "ntt",
            "intt",
            "basemul_acc 3x3 (with mulcache)",
            "basemul_acc 3x3 (no mulcache)",
        ):
            assert name in ops
        assert any(op.startswith("rej_uniform") for op in ops)
        assert {"cbd eta=2", "compress d=10", "decompress d=10"} <= set(ops)
    for backend in arith.available("mldsa"):
        ops = groups.pop(f"ML-DSA kernels ({backend})")
        assert {"ntt", "intt", "power2round", "decompose", "make_hint", "use_hint"} <= set(ops)
    for backend in common.backends()["sha3"]["available"]:
        ops = groups.pop(f"Symmetric kernels ({backend})")
        assert any(re.fullmatch(r"SHAKE-128 x9 \(34 -> \d+ B\)", op) for op in ops)
        if arith.available("mlkem"):
            assert any(op.startswith("matrix expansion k=3") for op in ops)
        if backend == "python":
            assert "Keccak-f[1600]" in ops
    assert groups == {}


# --- compare -----------------------------------------------------------------------


def _run_file(path: Path, figures: dict[tuple[str, str], tuple[float, float]]) -> str:
    results = [
        {"group": g, "operation": o, "median_ns": med, "mean_ns": mean}
        for (g, o), (med, mean) in figures.items()
    ]
    path.write_text(json.dumps({"format": "pqkit-speed/1", "results": results}))
    return str(path)


def test_compare(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    old = _run_file(
        tmp_path / "old.json",
        {
            ("ML-KEM-768", "keygen"): (2000, 2100),
            ("ML-KEM-768", "encaps"): (3000, 3000),
            ("ML-KEM-768", "decaps"): (1000, 1000),
            ("ML-DSA-65", "sign"): (50000, 60000),
        },
    )
    new = _run_file(
        tmp_path / "new.json",
        {
            ("ML-KEM-768", "keygen"): (1000, 1400),
            ("ML-KEM-768", "encaps"): (2857.2, 3000),
            ("ML-KEM-768", "decaps"): (1250, 1000),
            ("ML-DSA-65", "sign"): (40000, 30000),
            ("ML-DSA-65", "verify"): (9000, 9000),
        },
    )
    status, out, _ = _run(capsys, "compare", old, new)
    assert status == 0
    assert out.splitlines() == [
        "### ML-KEM-768",
        "",
        "Operation | Before (us, median) | After (us, median) | Improv",
        "--------- | ------------------: | -----------------: | -----:",
        "keygen    |               2.000 |              1.000 |  2.00x",
        "encaps    |               3.000 |              2.857 |  1.05x",
        "decaps    |               1.000 |              1.250 |  0.80x",
        "",
        "### ML-DSA-65",
        "",
        "Operation | Before (us, median) | After (us, median) | Improv",
        "--------- | ------------------: | -----------------: | -----:",
        "sign      |              50.000 |             40.000 |  1.25x",
        "verify    |                   - |              9.000 |      -",
    ]
    status, out, _ = _run(capsys, "compare", old, new, "--metric", "mean")
    assert status == 0
    ratios = [line.split("|")[-1].strip() for line in out.splitlines() if "|" in line]
    assert ratios == [
        "Improv",
        "-----:",
        "1.50x",
        "1.00x",
        "1.00x",
        "Improv",
        "-----:",
        "2.00x",
        "-",
    ]


def test_compare_of_real_runs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = _run(capsys, "common", *FAST, "--format", "json")
    assert status == 0
    path = tmp_path / "run.json"
    path.write_text(out)
    status, out, _ = _run(capsys, "compare", str(path), str(path))
    assert status == 0
    ratios = [line.split("|")[-1].strip() for line in out.splitlines() if "|" in line]
    assert ratios and set(ratios) == {"Improv", "-----:", "1.00x"}


def test_compare_rejects_other_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"results": []}')
    status, out, err = _run(capsys, "compare", str(bad), str(bad))
    assert status == 2 and out == ""
    assert "not a pqkit speed JSON file" in err
    status, _, err = _run(capsys, "compare", str(tmp_path / "missing.json"), str(bad))
    assert status == 2 and "missing.json" in err


# --- python -m pqkit.bench -----------------------------------------------------------


def test_python_m_pqkit_bench(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["pqkit.bench", "common", "--duration", "0.005", "--format", "json"]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit) as stop:
        runpy.run_module("pqkit.bench", run_name="__main__")
    captured = capsys.readouterr()
    assert stop.value.code == 0, captured.err
    data = json.loads(captured.out)
    assert data["command"] == "common" and data["results"]
    assert captured.err == ""  # no progress: stderr is not a terminal


def test_chosen_providers_are_used_and_reported(capsys: pytest.CaptureFixture[str]) -> None:
    if "ML-KEM-512" not in pqkit.kems() or "python" not in common.backends()["sha3"]["available"]:
        pytest.skip("needs ML-KEM-512 and the python symmetric backend")
    argv = ["kem", "ML-KEM-512", *FAST, "--duration", "0", "--format", "json"]
    status, out, _ = _run(capsys, *argv, "--backend", "sha3=python", "--arith", "ref")
    assert status == 0
    slow = json.loads(out)
    assert slow["configuration"]["sha3"].startswith("python ")
    assert slow["configuration"]["sha2"].startswith(common.backends()["sha2"]["active"] + " ")
    assert slow["configuration"]["arith"].startswith("ref ")
    status, out, _ = _run(capsys, *argv)
    default = json.loads(out)
    assert default["configuration"]["arith"].startswith(arith.active() + " ")
    assert default["configuration"]["sha3"].startswith(common.backends()["sha3"]["active"] + " ")


# --- fresh keys ------------------------------------------------------------------------


class RecordingKem(FakeKem):
    """A fake KEM that hands out a new key pair each keygen and records the keys
    the timed calls are given."""

    def __init__(self) -> None:
        self.made = 0
        self.seen: list[bytes] = []

    def keygen(self, *, rng: Any = None) -> KeyPair:
        self.made += 1
        return KeyPair(b"pk%d" % self.made, b"sk%d" % self.made)

    def encaps(self, public_key: bytes, *, rng: Any = None) -> Encapsulation:
        self.seen.append(public_key)
        return Encapsulation(bytes(32), b"ct" + public_key)

    def decaps(self, secret_key: bytes, ciphertext: bytes) -> bytes:
        assert ciphertext == b"ctpk" + secret_key[2:]  # each key with its own ciphertext
        self.seen.append(secret_key)
        return bytes(32)


class RecordingSig(FakeSig):
    def __init__(self) -> None:
        self.made = 0
        self.seen: list[bytes] = []

    def keygen(self, *, rng: Any = None) -> KeyPair:
        self.made += 1
        return KeyPair(b"pk%d" % self.made, b"sk%d" % self.made)

    def sign(self, secret_key: bytes, message: bytes, ctx: bytes = b"", **kw: Any) -> bytes:
        self.seen.append(secret_key)
        return b"sig" + secret_key[2:]

    def verify(self, public_key: bytes, message: bytes, signature: bytes, ctx: bytes = b"") -> bool:
        self.seen.append(public_key)
        return signature == b"sig" + public_key[2:]


def _ops(group: Any) -> dict[str, Any]:
    return {op.name: op.run for op in group.build()}


@pytest.mark.parametrize("kind", ["kem", "sig"])
def test_every_call_meets_a_fresh_key(kind: str) -> None:
    scheme: Any = RecordingKem() if kind == "kem" else RecordingSig()
    build = suites.kem_groups if kind == "kem" else suites.sig_groups
    (group,) = build([scheme])
    ops = _ops(group)
    assert scheme.made == KEY_RING
    fresh_ops = ("encaps", "decaps") if kind == "kem" else ("sign", "verify")
    for name in fresh_ops:
        scheme.seen.clear()
        for _ in range(2 * KEY_RING):
            ops[name]()
        assert len(set(scheme.seen)) == KEY_RING  # a different key on each of 64 calls
        assert scheme.seen[:KEY_RING] == scheme.seen[KEY_RING:]
        scheme.seen.clear()
        for _ in range(5):
            ops[f"{name} (one key)"]()
        assert len(set(scheme.seen)) == 1


def test_keys_option_picks_the_rows() -> None:
    scheme = RecordingKem()
    (group,) = suites.kem_groups([scheme], keys="fresh")  # type: ignore[list-item]
    assert list(_ops(group)) == ["keygen", "encaps", "decaps"]
    scheme = RecordingKem()
    (group,) = suites.kem_groups([scheme], keys="one")  # type: ignore[list-item]
    assert list(_ops(group)) == ["keygen", "encaps (one key)", "decaps (one key)"]
    assert scheme.made == 1
    (group,) = suites.kem_groups([scheme], keys="some")  # type: ignore[list-item]
    with pytest.raises(ValueError, match="keys must be one of both, fresh, one"):
        group.build()


@pytest.mark.usefixtures("fakes")
def test_keys_option_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "sig", "FAKE-SIG", *FAST, "--keys", "fresh")
    assert status == 0
    assert _rows(out) == {"FAKE-SIG": ["keypair", "sign", "verify"]}
    status, _, err = _run(capsys, "sig", "FAKE-SIG", *FAST, "--keys", "many")
    assert status == 2 and "--keys" in err


def test_the_ring_outgrows_every_cache_of_decoded_keys() -> None:
    """Cycling through KEY_RING keys defeats an LRU cache only if it holds fewer."""
    from pqkit.mldsa import core
    from pqkit.mlkem import fips203

    # Secret keys are not cached by the scheme objects (only inside key objects, issue
    # 28); the caches left hold public data: decoded encapsulation keys and A_hat.
    caches = [fips203.EK_CACHE_SIZE, core.A_CACHE_SIZE]
    assert 2 * max(caches) <= KEY_RING


def test_make_ring_budget_and_cycling(capsys: pytest.CaptureFixture[str]) -> None:
    counter = iter(range(1000))
    assert make_ring(lambda: next(counter), "X", size=3) == [0, 1, 2]
    assert make_ring(lambda: next(counter), "X", size=5, budget=0.0) == [3]
    assert "note: X: 1 fresh key pairs instead of 5" in capsys.readouterr().err
    with pytest.raises(ValueError, match="size must be >= 1"):
        make_ring(lambda: 0, "X", size=0)
    step = cycling("ab")
    assert [step() for _ in range(5)] == ["a", "b", "a", "b", "a"]
    with pytest.raises(ValueError, match="at least one item"):
        cycling([])

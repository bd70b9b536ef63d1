"""benchmarks/peers.py runs (not its figures: it is a benchmark, not run by CI)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

PEERS = Path(__file__).resolve().parent.parent / "benchmarks" / "peers.py"


def _load(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("pqkit_benchmark_peers", PEERS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # dataclasses look the module up
    spec.loader.exec_module(module)
    return module


def test_peers_table(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("cryptography.hazmat.primitives.asymmetric.mlkem")
    peers = _load(monkeypatch)
    status = peers.main(
        ["--duration", "0.001", "--peers", "cryptography", "pqcrypto", "--no-config", "--sig"]
    )
    assert status == 0
    out = capsys.readouterr().out
    assert out.startswith("### ML-KEM-768\n")
    rows = {line.split("|")[0].strip(): line for line in out.splitlines() if "|" in line}
    crypto = next(label for label in rows if label.startswith("cryptography"))
    # label, keygen, encaps, decaps (fresh keys), encaps, decaps (one key)
    assert len(rows[crypto].split("|")) == 6
    header = next(line for line in out.splitlines() if line.startswith("Library"))
    assert [c.strip() for c in header.split("|")][1:] == [
        "keygen", "encaps", "decaps", "encaps (one key)", "decaps (one key)",
    ]  # fmt: skip
    assert "a fresh key on every call (cycling through 64 key pairs)" in out
    assert "pqcrypto: skipped" in out or any(label.startswith("pqcrypto") for label in rows)
    if any(label.startswith("pqkit") for label in rows):
        assert "pqkit time / peer time" in out


def test_every_library_meets_a_fresh_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """The operations built for any library cycle through KEY_RING key pairs, each
    decapsulation and verification with its own key's ciphertext / signature; the
    one-key operations see one key."""
    peers = _load(monkeypatch)
    from pqkit.bench.keyring import KEY_RING

    made: list[int] = []
    seen: list[object] = []

    def pair() -> tuple[str, str]:
        made.append(len(made))
        return f"pk{len(made)}", f"sk{len(made)}"

    def encaps(pk: str) -> tuple[str, str]:
        seen.append(pk)
        return "ss", "ct" + pk[2:]

    def decaps(sk: str, ct: str) -> str:
        assert ct[2:] == sk[2:]
        seen.append(sk)
        return "ss"

    ops = peers.kem_ops(peers.KemApi(pair, pair, encaps, decaps))
    assert len(made) == KEY_RING
    for name in ("encaps", "decaps"):
        seen.clear()
        for _ in range(KEY_RING):
            ops[name]()
        assert len(set(seen)) == KEY_RING
        seen.clear()
        ops[f"{name} (one key)"]()
        ops[f"{name} (one key)"]()
        assert len(set(seen)) == 1

    def sign(sk: str) -> str:
        seen.append(sk)
        return "sig" + sk[2:]

    def verify(pk: str, sig: str) -> bool:
        seen.append(pk)
        return sig[3:] == pk[2:]

    made.clear()
    ops = peers.sig_ops(peers.SigApi(pair, pair, sign, verify))
    for name in ("sign", "verify"):
        seen.clear()
        results = [ops[name]() for _ in range(KEY_RING)]
        assert len(set(seen)) == KEY_RING
        assert name == "sign" or all(results)


def test_c_peers_needs_a_source_tree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """benchmarks/c_peers.py builds the C libraries from checkouts given on the
    command line; without one, or with a folder that is not one, it says so."""
    path = PEERS.parent / "c_peers.py"
    spec = importlib.util.spec_from_file_location("pqkit_benchmark_c_peers", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    with pytest.raises(SystemExit) as exc:
        module.main([])
    assert exc.value.code == 2 and "--mlkem-native DIR" in capsys.readouterr().err
    with pytest.raises(SystemExit, match=r"mlkem_native\.c: not found"):
        module.main(["--mlkem-native", str(tmp_path), "--no-pqkit"])

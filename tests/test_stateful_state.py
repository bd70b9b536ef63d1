"""The state of LMS / HSS keys can never be reused (pqkit.stateful): durable
reservation before signing, copies and second loads that cannot repeat an index,
the file lock between processes, exhaustion, and the crash test (signing
processes killed with SIGKILL at random points never reuse an index)."""

from __future__ import annotations

import copy
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from stateful_signer import signature_index

import pqkit
from pqkit.stateful import files
from pqkit.stateful.storage import ExhaustedKey, FileStorage

NAME = "LMS_SHA256_H5_W8_H5_W8"  # 1024 indices, two levels
LEVELS = [5, 5]


def _index(sig: bytes) -> int:
    return signature_index(sig, LEVELS)


@pytest.fixture(scope="module")
def scheme() -> object:
    return pqkit.sig(NAME)


def test_file_key_reserves_before_it_signs(tmp_path: Path, scheme: object) -> None:
    s: object = scheme
    path = tmp_path / "k.key"
    pk, sk = s.keygen(path=path)  # type: ignore[attr-defined]
    assert FileStorage(path).load().next_index == 0
    sig = sk.sign(b"m")
    assert _index(sig) == 0 and s.verify(pk, b"m", sig)  # type: ignore[attr-defined]
    assert FileStorage(path).load().next_index == 1  # on disk before we saw the signature
    sk.reserve(10)
    assert FileStorage(path).load().next_index == 11 and sk.reserved() == 10
    assert sk.remaining() == 1023
    assert [_index(sk.sign(b"m")) for _ in range(3)] == [1, 2, 3]
    assert oct(path.stat().st_mode & 0o777) == "0o600"


def test_two_loads_and_copies_never_share_an_index(tmp_path: Path, scheme: object) -> None:
    s: object = scheme
    path = tmp_path / "k.key"
    s.keygen(path=path)  # type: ignore[attr-defined]
    a, b = s.load_key(path), s.load_key(path)  # type: ignore[attr-defined]
    a.reserve(5)
    used = [_index(a.sign(b"m")), _index(b.sign(b"m")), _index(a.sign(b"m"))]
    assert used == [0, 5, 1]
    for action in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(TypeError, match="cannot be"):
            action(a)
    with pytest.raises(ValueError, match="holds a LMS_SHA256_H5_W8_H5_W8 key"):
        pqkit.sig("LMS_SHA256_H5_W8").load_key(path)  # type: ignore[attr-defined]


def test_threads_share_one_key(tmp_path: Path, scheme: object) -> None:
    s: object = scheme
    _, sk = s.keygen(path=tmp_path / "k.key")  # type: ignore[attr-defined]
    sk.reserve(40)
    got: list[int] = []
    lock = threading.Lock()

    def run() -> None:
        for _ in range(10):
            i = _index(sk.sign(b"m"))
            with lock:
                got.append(i)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(got) == list(range(40))


def test_exhausted_key_refuses() -> None:
    s = pqkit.sig("LMS_SHA256_H5_W8")
    _, sk = s.keygen()
    sk.reserve(32)
    assert sk.remaining() == 32
    for _ in range(32):
        sk.sign(b"m")
    assert sk.remaining() == 0
    with pytest.raises(ExhaustedKey, match="exhausted"):
        sk.sign(b"m")
    with pytest.raises(ExhaustedKey):
        sk.reserve(1)
    with pytest.raises(ValueError, match="count"):
        sk.reserve(0)


def test_memory_key_moves_to_a_file(tmp_path: Path) -> None:
    s = pqkit.sig("LMS_SHA256_H5_W8")
    pk, sk = s.keygen()
    sk.reserve(3)
    sk.sign(b"m")
    sk.save(tmp_path / "k.key")
    # the two unused reserved indices are lost, never reissued
    assert _first(sk.sign(b"m")) == 3
    again = s.load_key(tmp_path / "k.key")  # type: ignore[attr-defined]
    assert _first(again.sign(b"m")) == 4 and again.public_key() == pk


def _first(sig: bytes) -> int:
    return int.from_bytes(sig[4:8], "big")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_forked_child_drops_the_parents_range(tmp_path: Path, scheme: object) -> None:
    s: object = scheme
    _, sk = s.keygen(path=tmp_path / "k.key")  # type: ignore[attr-defined]
    sk.reserve(5)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(r)
        os.write(w, str(_index(sk.sign(b"m"))).encode())
        os._exit(0)
    os.close(w)
    child = int(os.read(r, 64))
    os.waitpid(pid, 0)
    assert child == 5 and _index(sk.sign(b"m")) == 0


def test_damaged_key_file_is_refused(tmp_path: Path, scheme: object) -> None:
    s: object = scheme
    path = tmp_path / "k.key"
    s.keygen(path=path)  # type: ignore[attr-defined]
    data = bytearray(path.read_bytes())
    data[-40] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="checksum"):
        s.load_key(path)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="magic"):
        files.decode_record(b"X" * 80)


# --- the crash test -------------------------------------------------------------------


def _spawn(path: Path, batch: int) -> subprocess.Popen[str]:
    signer = Path(__file__).parent / "stateful_signer.py"
    env = dict(os.environ, PQKIT_JIT_BACKGROUND="0")
    return subprocess.Popen(
        [sys.executable, str(signer), NAME, str(path), str(batch)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )


def _crash_rounds(path: Path, rounds: int, pairs: bool) -> list[int]:
    """Start signers (two at once on one file when ``pairs``), SIGKILL them at a
    random time, collect every index printed; repeat."""
    seen: list[int] = []
    for _ in range(rounds):
        batch = 1 + os.urandom(1)[0] % 8
        procs = [_spawn(path, batch) for _ in range(2 if pairs else 1)]
        for p in procs:
            assert p.stdout is not None and p.stdout.readline() == "ready\n"
        time.sleep(0.5 + os.urandom(1)[0] / 255 * 2.0)
        for p in procs:
            p.send_signal(signal.SIGKILL)
        for p in procs:
            out, _ = p.communicate()
            seen += [int(line) for line in out.split() if line.isdigit()]
    return seen


def _check(path: Path, seen: list[int]) -> None:
    assert len(seen) == len(set(seen)), "an index was used twice"
    assert max(seen) < FileStorage(path).load().next_index  # the counter is ahead of use


def _fast_dir(tmp_path: Path) -> Path:
    """A temporary file system where there is one (fsync is cheap there)."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        d = shm / f"pqkit-test-{os.getpid()}-{os.urandom(4).hex()}"
        d.mkdir()
        return d
    return tmp_path


def test_killed_signers_never_reuse_an_index(tmp_path: Path) -> None:
    """Seconds-long version: rounds of two processes on one key file, killed."""
    path = _fast_dir(tmp_path) / "k.key"
    pqkit.sig(NAME).keygen(path=path)  # type: ignore[call-arg]
    seen: list[int] = []
    for _ in range(15):  # rounds until 20 signatures were seen (a loaded machine is slow)
        seen += _crash_rounds(path, 1, pairs=True)
        if len(seen) >= 20:
            break
    assert len(seen) >= 20
    _check(path, seen)
    for f in path.parent.iterdir():
        f.unlink()
    path.parent.rmdir()


@pytest.mark.slow
def test_killed_signers_never_reuse_an_index_10000(tmp_path: Path) -> None:
    """The full run: at least 10 000 signatures, killed at random points."""
    path = tmp_path / "k.key"
    pqkit.sig("LMS_SHA256_H10_W4_H5_W8").keygen(path=path)  # type: ignore[call-arg]
    global NAME, LEVELS
    NAME, LEVELS = "LMS_SHA256_H10_W4_H5_W8", [10, 5]
    try:
        seen: list[int] = []
        while len(seen) < 10_000:
            seen += _crash_rounds(path, 1, pairs=True)
        _check(path, seen)
    finally:
        NAME, LEVELS = "LMS_SHA256_H5_W8_H5_W8", [5, 5]


def test_speed_rows_roll_over_to_a_new_key() -> None:
    """``pqkit speed sig`` rows of a stateful set: keypair, sign, verify; signing more
    times than one key allows makes a new key instead of failing."""
    from pqkit.bench.suites import sig_groups

    scheme = pqkit.sig("LMS_SHA256_H5_W8")
    (group,) = sig_groups([scheme])
    ops = {op.name: op.run for op in group.build()}
    assert list(ops) == ["keypair", "sign", "verify"]
    for _ in range(40):  # 32 signatures per key
        ops["sign"]()
        assert ops["verify"]()

"""ML-KEM batch view (pqkit.mlkem.batch) against the single operations, and the
batch rules of pqkit.batch (broadcasting, checks naming rows, n = 0 and 1)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from batch_cases import BACKENDS, CountingRng, random_rows, rows_for
from helpers import h, load_json

import pqkit
from pqkit import arith, registry
from pqkit.mlkem.batch import MLKEMBatch

NAMES = ("ML-KEM-512", "ML-KEM-768", "ML-KEM-1024")


def _kem(name: str, backend: str) -> Any:
    return pqkit.kem(name).using(arith=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", NAMES)
def test_rows_equal_single_operations(name: str, backend: str) -> None:
    kem = _kem(name, backend)
    assert isinstance(kem.batch, MLKEMBatch)
    n = rows_for(backend)
    seeds = random_rows(n, 64)
    pks, sks = kem.batch.keygen_derand(seeds)
    assert pks.shape == (n, kem.length_public_key) and pks.dtype == np.uint8
    assert sks.shape == (n, kem.length_secret_key)
    ms = random_rows(n, 32)
    ss, cts = kem.batch.encaps_derand(pks, ms)
    bad = cts.copy()
    bad[:, 5] ^= 0x10  # every row implicitly rejected
    ss_bad = kem.batch.decaps(sks, bad)
    assert (kem.batch.decaps(sks, cts) == ss).all()
    for i in range(n):
        pk, sk = kem.keygen_derand(seeds[i].tobytes())
        assert (pks[i].tobytes(), sks[i].tobytes()) == (pk, sk)
        s1, c1 = kem.encaps_derand(pk, ms[i].tobytes())
        assert (ss[i].tobytes(), cts[i].tobytes()) == (s1, c1)
        assert ss_bad[i].tobytes() == kem.decaps(sk, bad[i].tobytes())
        assert ss_bad[i].tobytes() != s1


@pytest.mark.parametrize("backend", BACKENDS)
def test_broadcast_one_key(backend: str) -> None:
    kem = _kem("ML-KEM-768", backend)
    pk, sk = kem.keygen()
    n = rows_for(backend)
    ms = random_rows(n, 32)
    ss, cts = kem.batch.encaps_derand(pk, ms)  # bytes broadcasts
    ss2, cts2 = kem.batch.encaps_derand(np.frombuffer(pk, np.uint8), list(map(bytes, ms)))
    assert (ss == ss2).all() and (cts == cts2).all()
    for i in range(n):
        assert kem.encaps_derand(pk, ms[i].tobytes()) == (ss[i].tobytes(), cts[i].tobytes())
    assert (kem.batch.decaps(sk, cts) == ss).all()
    assert (kem.batch.decaps(sk, [c.tobytes() for c in cts]) == ss).all()
    # one ciphertext, one row
    one = kem.batch.decaps(sk, cts[0].tobytes())
    assert one.shape == (1, 32) and one[0].tobytes() == ss[0].tobytes()


def test_randomised_rows_follow_the_rng_like_a_loop() -> None:
    kem = pqkit.kem("ML-KEM-512")
    rng_a, rng_b = CountingRng(7), CountingRng(7)
    pks, sks = kem.batch.keygen(3, rng=rng_a)
    loop = [kem.keygen(rng=rng_b) for _ in range(3)]
    assert [(p.tobytes(), s.tobytes()) for p, s in zip(pks, sks, strict=True)] == loop
    assert rng_a.calls == rng_b.calls == [64] * 3
    ss, cts = kem.batch.encaps(pks, rng=rng_a)
    loop_e = [kem.encaps(p, rng=rng_b) for p, _ in loop]
    assert [(s.tobytes(), c.tobytes()) for s, c in zip(ss, cts, strict=True)] == loop_e
    assert rng_a.calls == rng_b.calls


def test_default_randomness_gives_working_rows() -> None:
    kem = pqkit.kem("ML-KEM-768")
    pks, sks = kem.batch.keygen(3)
    ss, cts = kem.batch.encaps(pks)
    assert (kem.batch.decaps(sks, cts) == ss).all()
    assert len({bytes(p) for p in pks}) == 3


@pytest.mark.parametrize("n", [0, 1])
def test_zero_and_one_rows(n: int) -> None:
    kem = pqkit.kem("ML-KEM-512")
    pks, sks = kem.batch.keygen(n)
    assert pks.shape == (n, kem.length_public_key) and sks.shape == (n, kem.length_secret_key)
    ss, cts = kem.batch.encaps(pks)
    assert ss.shape == (n, 32) and cts.shape == (n, kem.length_ciphertext)
    assert (kem.batch.decaps(sks, cts) == ss).all()
    assert kem.batch.keygen_derand(np.zeros((n, 64), np.uint8))[0].shape[0] == n


def test_chunks_and_workers_give_the_same_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    kem = pqkit.kem("ML-KEM-512")
    seeds = random_rows(7, 64)
    whole = kem.batch.keygen_derand(seeds)
    view = kem.batch
    view.chunk = 2  # four chunks, the last short
    for workers in (1, 3):
        pks, sks = view.keygen_derand(seeds, workers=workers)
        assert (pks == whole[0]).all() and (sks == whole[1]).all()
    monkeypatch.setenv("PQKIT_WORKERS", "2")
    ms = random_rows(7, 32)
    ss, cts = view.encaps_derand(whole[0], ms)
    assert (view.decaps(whole[1], cts) == ss).all()
    streamed = list(view.iter_keygen(5, rng=CountingRng(3)))
    assert [len(p) for p, _ in streamed] == [2, 2, 1]
    pks, _ = kem.batch.keygen(5, rng=CountingRng(3))
    assert (np.concatenate([p for p, _ in streamed]) == pks).all()


def test_modulus_check_names_the_row() -> None:
    kem = pqkit.kem("ML-KEM-768")
    pks, _ = kem.batch.keygen(4)
    bad = pks.copy()
    bad[2, 0:2] = 0xFF  # coefficient 4095 >= q
    rng = CountingRng()
    with pytest.raises(ValueError, match=r"^row 2: FIPS 203 §7\.2 modulus check failed"):
        kem.batch.encaps(bad, rng=rng)
    assert rng.calls == []  # checked before any randomness was drawn
    with pytest.raises(ValueError, match=r"^row 2: FIPS 203 §7\.2 modulus check"):
        kem.batch.encaps_derand(bad, bytes(32))
    assert pks.tobytes() != bad.tobytes()  # the input is left as it was
    with pytest.raises(ValueError, match=r"^row 0: FIPS 203 §7\.2"):
        kem.batch.encaps(bad[2])


def test_hash_check_names_the_row() -> None:
    kem = pqkit.kem("ML-KEM-512")
    pks, sks = kem.batch.keygen(3)
    _, cts = kem.batch.encaps(pks)
    bad = sks.copy()
    bad[1, 768 * 2 + 40] ^= 1  # inside H(ek)
    with pytest.raises(ValueError, match=r"^row 1: FIPS 203 §7\.3 hash check failed"):
        kem.batch.decaps(bad, cts)


def test_argument_checks() -> None:
    kem = pqkit.kem("ML-KEM-512")
    pks, _ = kem.batch.keygen(2)
    with pytest.raises(ValueError, match=r"pks\[1\] must be 800 bytes, got 799"):
        kem.batch.encaps([pks[0].tobytes(), pks[1].tobytes()[:-1]])
    with pytest.raises(TypeError, match=r"pks\[0\] must be bytes-like, not str"):
        kem.batch.encaps(["x"])
    with pytest.raises(TypeError, match="must be a uint8 array, not int64"):
        kem.batch.encaps(pks.astype(np.int64))
    with pytest.raises(ValueError, match=r"rows must be 800 bytes"):
        kem.batch.encaps(pks[:, :-1])
    with pytest.raises(ValueError, match="1-D or 2-D"):
        kem.batch.encaps(pks.reshape(1, 2, -1))
    with pytest.raises(TypeError, match="pks must be a uint8 array, bytes or a sequence"):
        kem.batch.encaps(42)
    with pytest.raises(ValueError, match="different numbers of rows: pks has 2, ms has 3"):
        kem.batch.encaps_derand(pks, random_rows(3, 32))
    with pytest.raises(ValueError, match="seeds must be 64 bytes, got 32"):
        kem.batch.keygen_derand(bytes(32))
    with pytest.raises(ValueError, match="n must be >= 0"):
        kem.batch.keygen(-1)
    with pytest.raises(TypeError, match="n must be an int"):
        kem.batch.keygen(2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="workers must be >= 1"):
        kem.batch.keygen(1, workers=0)
    with pytest.raises(TypeError, match="workers must be an int"):
        kem.batch.keygen(1, workers="2")  # type: ignore[arg-type]


def test_workers_environment_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PQKIT_WORKERS", "many")
    with pytest.raises(ValueError, match="PQKIT_WORKERS must be a positive integer"):
        pqkit.kem("ML-KEM-512").batch.keygen(1)


# --- the ACVP vectors as batches ----------------------------------------------------


def _groups(name: str) -> list[Any]:
    return list(load_json(f"acvp/{name}.json")["testGroups"])


ENCAP_FILES = ("ML-KEM-encapDecap-FIPS203", "ML-KEM-encapDecap-FIPS203-tr1")


@pytest.mark.parametrize("backend", ["numpy", "jit"])
def test_acvp_keygen_as_batches(backend: str) -> None:
    if backend not in arith.available("mlkem"):
        pytest.skip("numba (the jit extra) not installed")
    for group in _groups("ML-KEM-keyGen-FIPS203"):
        kem = _kem(group["parameterSet"], backend)
        tests = group["tests"]
        seeds = [h(t["d"]) + h(t["z"]) for t in tests]
        pks, sks = kem.batch.keygen_derand(seeds)
        assert [p.tobytes() for p in pks] == [h(t["ek"]) for t in tests]
        assert [s.tobytes() for s in sks] == [h(t["dk"]) for t in tests]


@pytest.mark.parametrize("backend", ["numpy", "jit"])
@pytest.mark.parametrize("file", ENCAP_FILES)
def test_acvp_encap_decap_as_batches(backend: str, file: str) -> None:
    if backend not in arith.available("mlkem"):
        pytest.skip("numba (the jit extra) not installed")
    seen = set()
    for group in _groups(file):
        kem = _kem(group["parameterSet"], backend)
        tests = group["tests"]
        seen.add(group["function"])
        if group["function"] == "encapsulation":
            ss, cts = kem.batch.encaps_derand(
                [h(t["ek"]) for t in tests], [h(t["m"]) for t in tests]
            )
            assert [c.tobytes() for c in cts] == [h(t["c"]) for t in tests]
            assert [s.tobytes() for s in ss] == [h(t["k"]) for t in tests]
        elif group["function"] == "decapsulation":
            if group.get("keyFormat") == "seed":
                _, dks = kem.batch.keygen_derand([h(t["d"]) + h(t["z"]) for t in tests])
            else:
                dks = np.array([list(h(t["dk"])) for t in tests], dtype=np.uint8)
            ss = kem.batch.decaps(dks, [h(t["c"]) for t in tests])
            assert [s.tobytes() for s in ss] == [h(t["k"]) for t in tests]
        elif group["function"] == "encapsulationKeyCheck":
            good = [h(t["ek"]) for t in tests if t["testPassed"]]
            assert kem.batch.encaps(good)[1].shape[0] == len(good)
            for t in tests:
                if not t["testPassed"]:
                    rows = [*good, h(t["ek"])]
                    with pytest.raises(ValueError, match=rf"^row {len(good)}: FIPS 203 §7\.2"):
                        kem.batch.encaps(rows)
        elif group["function"] == "decapsulationKeyCheck":
            good = [h(t["dk"]) for t in tests if t["testPassed"]]
            ct = bytes(kem.length_ciphertext)
            assert kem.batch.decaps(good, ct).shape == (len(good), 32)
            for t in tests:
                if not t["testPassed"]:
                    with pytest.raises(ValueError, match=r"^row 1: FIPS 203 §7\.3 hash check"):
                        kem.batch.decaps([*good[:1], h(t["dk"])], ct)
    assert {"encapsulation", "decapsulation"} <= seen


def test_round3_kyber_gets_the_loop_view() -> None:
    kem = pqkit.kem("Kyber512")
    assert type(kem.batch).__name__ == "KemBatch"
    seeds = random_rows(3, 64)
    pks, sks = kem.batch.keygen_derand(seeds)
    ms = random_rows(3, 32)
    ss, cts = kem.batch.encaps_derand(pks, ms)
    for i in range(3):
        pk, _ = kem.keygen_derand(seeds[i].tobytes())
        assert pks[i].tobytes() == pk
        assert kem.encaps_derand(pk, ms[i].tobytes()) == (ss[i].tobytes(), cts[i].tobytes())
    assert (kem.batch.decaps(sks, cts) == ss).all()
    assert (kem.batch.decaps(sks[0], cts[:1]) == ss[:1]).all()
    rng_a, rng_b = CountingRng(5), CountingRng(5)
    got = kem.batch.encaps(pks, rng=rng_a)
    want = [kem.encaps(p.tobytes(), rng=rng_b) for p in pks]
    assert [(s.tobytes(), c.tobytes()) for s, c in zip(*got, strict=True)] == want
    with pytest.raises(ValueError, match=r"ms\[0\] must be 32 bytes"):
        kem.batch.encaps_derand(pks, [b"x"] * 3)


def test_write_keypairs_streams_to_npy(tmp_path: Any) -> None:
    from pqkit.batch import write_keypairs

    kem = pqkit.kem("ML-KEM-512")
    view_chunk = kem.batch.chunk
    seen: list[int] = []
    pk_path, sk_path = write_keypairs(
        kem, view_chunk + 3, tmp_path / "out", rng=CountingRng(9), progress=seen.append
    )
    assert seen == [view_chunk, 3]
    pks = np.load(pk_path, mmap_mode="r")
    sks = np.load(sk_path)
    want_pks, want_sks = kem.batch.keygen(view_chunk + 3, rng=CountingRng(9))
    assert (pks == want_pks).all() and (sks == want_sks).all()
    assert sk_path.stat().st_mode & 0o777 == 0o600
    empty_pk, _ = write_keypairs(pqkit.sig("ML-DSA-44"), 0, tmp_path / "none")
    assert np.load(empty_pk).shape == (0, pqkit.sig("ML-DSA-44").length_public_key)


def test_write_keypairs_replaces_a_loose_secret_file(tmp_path: Any) -> None:
    """An existing world-readable secret_keys.npy does not keep its mode (it used to:
    O_TRUNC keeps a file's permissions), and no temporary file stays behind."""
    from pqkit.batch import write_keypairs

    out = tmp_path / "out"
    out.mkdir()
    (out / "secret_keys.npy").write_bytes(b"old")
    (out / "secret_keys.npy").chmod(0o644)
    _, sk_path = write_keypairs(pqkit.kem("ML-KEM-512"), 2, out)
    assert sk_path.stat().st_mode & 0o777 == 0o600
    assert np.load(sk_path).shape == (2, 1632)
    assert sorted(p.name for p in out.iterdir()) == ["public_keys.npy", "secret_keys.npy"]


def test_short_matrix_streams_are_reread(monkeypatch: pytest.MonkeyPatch) -> None:
    # A first read of 384 bytes (256 candidates) leaves most entries short of 256
    # values: the re-read path must give the single operation's matrices.
    import pqkit.mlkem.batch as mlkem_batch

    monkeypatch.setattr(mlkem_batch, "SHAKE128_XOF_BYTES", 384)
    kem = pqkit.kem("ML-KEM-512")
    seeds = random_rows(3, 64)
    pks, sks = kem.batch.keygen_derand(seeds)
    ss, cts = kem.batch.encaps_derand(pks, random_rows(3, 32))
    for i in range(3):
        assert pks[i].tobytes() == kem.keygen_derand(seeds[i].tobytes())[0]
        assert kem.decaps(sks[i].tobytes(), cts[i].tobytes()) == ss[i].tobytes()


def test_worker_threads_see_the_callers_backend_scopes() -> None:
    import contextvars

    from pqkit.batch import run_chunks

    var: contextvars.ContextVar[str] = contextvars.ContextVar("scope", default="unset")
    token = var.set("scoped")
    try:
        parts = list(run_chunks(6, 1, lambda lo, hi: lo, lambda x: (var.get(), x), 3))
    finally:
        var.reset(token)
    assert [p[2] for p in parts] == [("scoped", i) for i in range(6)]
    with arith.use("numpy"):
        kem = pqkit.kem("ML-KEM-512")
        view = kem.batch
        view.chunk = 1
        pks, _ = view.keygen(3, workers=3, rng=CountingRng(4))
    assert (pks == kem.batch.keygen(3, rng=CountingRng(4))[0]).all()


@pytest.mark.parametrize("name", ["ML-KEM-512", "ML-DSA-44", "Kyber512"])
def test_write_keypairs_with_seeds(tmp_path: Any, name: str) -> None:
    from pqkit.batch import write_keypairs

    scheme: Any = pqkit.kem(name) if "DSA" not in name else pqkit.sig(name)
    paths = write_keypairs(scheme, 3, tmp_path, seeds=True, rng=CountingRng(2))
    pks, sks, seeds = (np.load(p) for p in paths)
    assert seeds.shape == (3, scheme.length_seed)
    assert paths[2].stat().st_mode & 0o777 == 0o600
    for i in range(3):
        assert scheme.keygen_derand(seeds[i].tobytes()) == (pks[i].tobytes(), sks[i].tobytes())
    if name.startswith("ML-"):  # the vectorised views draw seeds as keygen does
        want = scheme.batch.keygen(3, rng=CountingRng(2))
        assert (want[0] == pks).all() and (want[1] == sks).all()


def _composite(name: str) -> bool:
    return pqkit.registry.algorithm(name).family.startswith("Composite")


def _every_scheme() -> list[Any]:
    # the composites have no batch view (test_composites_have_no_batch_view)
    names = [("kem", n) for n in pqkit.kems() if not _composite(n)]
    # SLH-DSA: the two fast 128-bit sets stand for the family (the s sets take seconds).
    # stateful sets (LMS, XMSS) are left out: their private keys are objects, not rows;
    # composites have no batch view
    sigs = [n for n in pqkit.sigs() if not registry.algorithm(n).stateful and not _composite(n)]
    names += [("sig", n) for n in sigs if "SLH" not in n or n.endswith("128f")]
    # Classic McEliece: the smallest set (plain and f) by default, the larger ones
    # (a key pair takes tens of seconds of CPU each) under -m slow
    return [
        pytest.param(kind, n, id=n, marks=[pytest.mark.slow] if _large_mceliece(n) else [])
        for kind, n in names
    ]


def _large_mceliece(name: str) -> bool:
    return name.startswith("Classic-McEliece-") and "-348864" not in name


def test_composites_have_no_batch_view() -> None:
    composites = [n for n in pqkit.kems() + pqkit.sigs() if _composite(n)]
    assert len(composites) == 30
    for name in composites:
        scheme = pqkit.registry.algorithm(name).scheme()
        with pytest.raises(TypeError, match="has no batch view"):
            scheme.batch.keygen(1)


@pytest.mark.parametrize(("kind", "name"), _every_scheme())
def test_every_scheme_has_a_batch_view(kind: str, name: str) -> None:
    scheme: Any = pqkit.kem(name) if kind == "kem" else pqkit.sig(name)
    pks, sks = scheme.batch.keygen(2, rng=CountingRng(6))
    rng = CountingRng(6)
    singles = [scheme.keygen(rng=rng) for _ in range(2)]
    assert [(p.tobytes(), s.tobytes()) for p, s in zip(pks, sks, strict=True)] == singles
    if kind == "kem":
        ss, cts = scheme.batch.encaps(pks)
        assert (scheme.batch.decaps(sks, cts) == ss).all()
    else:
        # Falcon has no deterministic signing: it signs randomised
        deterministic = getattr(scheme, "HAS_DETERMINISTIC", True)
        sigs = scheme.batch.sign(sks, [b"x", b"yz"], deterministic=deterministic)
        assert scheme.batch.verify(pks, [b"x", b"yz"], sigs).tolist() == [True, True]

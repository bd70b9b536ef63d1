"""``pqkit keygen ALG --count N -o DIR``: many key pairs through the batch path."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import numpy as np
from helpers import Cli

import pqkit


def test_count_writes_rows_that_work(cli: Cli) -> None:
    out = cli.ok("keygen", "ML-KEM-768", "--count", "5", "-o", "keys", "--seeds", "-q").decode()
    assert out.startswith("wrote 5 ML-KEM-768 key pairs to keys")
    pks = np.load("keys/public_keys.npy")
    sks = np.load("keys/secret_keys.npy")
    seeds = np.load("keys/seeds.npy")
    assert pks.shape == (5, 1184) and sks.shape == (5, 2400) and seeds.shape == (5, 64)
    kem = pqkit.kem("ML-KEM-768")
    for pk, sk, seed in zip(pks, sks, seeds, strict=True):
        assert kem.keygen_derand(seed.tobytes()) == (pk.tobytes(), sk.tobytes())
        ss, ct = kem.encaps(pk.tobytes())
        assert kem.decaps(sk.tobytes(), ct) == ss
    assert stat.S_IMODE(os.stat("keys/secret_keys.npy").st_mode) == 0o600
    assert stat.S_IMODE(os.stat("keys/seeds.npy").st_mode) == 0o600


def test_count_signature_scheme_and_arith(cli: Cli) -> None:
    cli.ok("keygen", "ML-DSA-44", "--count", "3", "-o", "d", "--arith", "numpy", "-q")
    pks, sks = np.load("d/public_keys.npy"), np.load("d/secret_keys.npy")
    dsa = pqkit.sig("ML-DSA-44")
    sig = dsa.sign(sks[2].tobytes(), b"m")
    assert dsa.verify(pks[2].tobytes(), b"m", sig)


def test_count_refusals(cli: Cli) -> None:
    cli.ok("keygen", "ML-KEM-512", "--count", "1", "-o", "k", "-q")
    cli.fails("keygen", "ML-KEM-512", "--count", "1", "-o", "k", match="exists; use --force")
    cli.ok("keygen", "ML-KEM-512", "--count", "2", "-o", "k", "-q", "--force")
    assert np.load("k/public_keys.npy").shape == (2, 800)
    status, _, err = cli.run("keygen", "ML-KEM-512", "--count", "0", "-o", "z")
    assert status == 2 and "--count must be >= 1" in err  # argparse: usage, then the error
    cli.fails("keygen", "ML-KEM-512", "--count", "2", "-o", "z", "--der", match="--der")
    cli.fails("keygen", "ML-KEM-512", "--count", "2", "-o", "-", match="directory")
    cli.fails("keygen", "NOPE", "--count", "2", "-o", "z", match="unknown algorithm")
    cli.fails("keygen", "ML-KEM-512", "-o", "x.pem", "--seeds", match="go with --count")
    assert not Path("z").exists()

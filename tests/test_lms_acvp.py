"""NIST ACVP LMS vectors (keyGen, sigGen, sigVer; revisions 1.0 and SP800-208).

Files: tests/vectors/lms/acvp/<release>/LMS-<mode>-<revision>/{prompt,
expectedResults}.json.gz, copied unchanged (gzipped) from the public ACVP server
repository (see tests/vectors/lms/acvp/README.md for the commits). The prompt
holds the inputs, expectedResults the answers; they are joined by tgId / tcId.

- **keyGen**: the public key of (SEED, I) (RFC 8554 Appendix A, §5.3) through
  ``keygen_derand``. Every group of release 1.1.0.42 (all 80 single-level sets:
  SHA-256 / SHA-256/192 / SHAKE m = 32 / 24, h = 5 .. 25, w = 1 .. 8) is listed;
  h = 5 runs by default, h = 10 behind ``slow``; h >= 15 is not run (2^15 to
  2^25 leaves, up to 2^25 * 34 * 255 compressions a key: minutes to days here),
  which :func:`test_keygen_groups_run` states and counts.
- **sigGen**: the IUT makes its own key, so there is no expected signature to
  reproduce: NIST's signatures verify under NIST's public key (expectedResults),
  and pqkit's own signatures of every prompt message verify, with NIST's lengths.
- **sigVer**: ``testPassed`` for every case of every group (all 80 sets in
  release 1.1.0.42), on the bare LMS form (RFC 8554 §5.4.2) and the one-level HSS
  form (§6.3) through the scheme object.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from typing import Any

import pytest
from helpers import load_json

import pqkit
from pqkit import arith
from pqkit.lms.lms import verify_lms
from pqkit.lms.params import LMOTS_TYPES, LMS_TYPES, LmotsType, LmsType, params_for

ROOT = "lms/acvp"
KEYGEN = ("v1.1.0.43/LMS-keyGen-1.0", "v1.1.0.42/LMS-keyGen-1.0")
SIGGEN = ("v1.1.0.43/LMS-sigGen-1.0", "v1.1.0.43/LMS-sigGen-SP800-208")
SIGVER = (
    "v1.1.0.43/LMS-sigVer-1.0",
    "v1.1.0.43/LMS-sigVer-SP800-208",
    "v1.1.0.42/LMS-sigVer-1.0",
)
KEYGEN_DEFAULT_H = 5
KEYGEN_SLOW_H = 10


def _modes(group: dict[str, Any]) -> tuple[LmsType, LmotsType]:
    """The LMS and LM-OTS types of ``LMS_SHA256_M24_H5`` / ``LMOTS_SHAKE_N32_W4``."""
    _, hash_, m, h = group["lmsMode"].split("_")
    _, ots_hash, n, w = group["lmOtsMode"].split("_")
    lms = next(
        t for t in LMS_TYPES.values() if (t.hash, t.m, t.h) == (hash_, int(m[1:]), int(h[1:]))
    )
    ots = next(
        t for t in LMOTS_TYPES.values() if (t.hash, t.n, t.w) == (ots_hash, int(n[1:]), int(w[1:]))
    )
    return lms, ots


def _joined(directory: str) -> Iterator[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """(prompt group, expected group, prompt test joined with its expected answer)."""
    prompt = load_json(f"{ROOT}/{directory}/prompt.json")
    expected = load_json(f"{ROOT}/{directory}/expectedResults.json")
    answers = {g["tgId"]: g for g in expected["testGroups"]}
    for group in prompt["testGroups"]:
        want = answers[group["tgId"]]
        results = {t["tcId"]: t for t in want["tests"]}
        for test in group["tests"]:
            yield group, want, {**test, **results[test["tcId"]]}


def _scheme(lms: LmsType, ots: LmotsType) -> Any:
    return pqkit.sig(params_for(((lms, ots),)).name)


def _keygen_cases() -> Iterator[Any]:
    for directory in KEYGEN:
        for group, _, test in _joined(directory):
            lms, _ = _modes(group)
            if lms.h > KEYGEN_SLOW_H:
                continue
            marks = [pytest.mark.slow] if lms.h > KEYGEN_DEFAULT_H else []
            ident = f"{directory.split('/')[0]}-tg{group['tgId']}-tc{test['tcId']}"
            yield pytest.param(group, test, id=ident, marks=marks)


@pytest.mark.parametrize(("group", "test"), list(_keygen_cases()))
def test_keygen(group: dict[str, Any], test: dict[str, Any]) -> None:
    scheme = _scheme(*_modes(group))
    seed, ident = bytes.fromhex(test["seed"]), bytes.fromhex(test["i"])
    pk, _ = scheme.keygen_derand(seed + ident)  # SEED || I
    assert pk == struct.pack(">I", 1) + bytes.fromhex(test["publicKey"])


def test_keygen_groups_run() -> None:
    """Every keyGen group is a set pqkit has; those with h >= 15 are not run (cost)."""
    sizes = {"default": 0, "slow": 0, "not run": 0}
    for directory in KEYGEN:
        for group in load_json(f"{ROOT}/{directory}/prompt.json")["testGroups"]:
            lms, ots = _modes(group)
            assert _scheme(lms, ots).name.startswith("LMS_")
            h = lms.h
            key = (
                "default" if h <= KEYGEN_DEFAULT_H else "slow" if h <= KEYGEN_SLOW_H else "not run"
            )
            sizes[key] += 1
    assert sizes == {"default": 17, "slow": 17, "not run": 48}, sizes


def _siggen_groups() -> Iterator[Any]:
    for directory in SIGGEN:
        groups: dict[int, Any] = {}
        for group, want, test in _joined(directory):
            groups.setdefault(group["tgId"], (group, want, []))[2].append(test)
        for tg, (group, want, tests) in groups.items():
            yield pytest.param(group, want, tests, id=f"{directory.split('/')[1]}-tg{tg}")


@pytest.mark.parametrize(("group", "want", "tests"), list(_siggen_groups()))
def test_siggen(group: dict[str, Any], want: dict[str, Any], tests: list[dict[str, Any]]) -> None:
    lms, ots = _modes(group)
    scheme = _scheme(lms, ots)
    kernels = arith.kernels("hash", None)
    nist_pk = bytes.fromhex(want["publicKey"])
    assert nist_pk[:8] == struct.pack(">II", lms.code, ots.code)
    pk, sk = scheme.keygen()
    for test in tests:
        message, nist_sig = bytes.fromhex(test["message"]), bytes.fromhex(test["signature"])
        assert verify_lms(nist_pk, message, nist_sig, kernels), test["tcId"]
        ours = scheme.sign(sk, message)
        assert ours[:4] == bytes(4)  # Nspk = 0: the LMS signature follows (RFC 8554 §6.2)
        assert len(ours) - 4 == len(nist_sig)
        assert verify_lms(pk[4:], message, ours[4:], kernels)
        assert not verify_lms(nist_pk, message, ours[4:], kernels)


def _sigver_cases() -> Iterator[Any]:
    for directory in SIGVER:
        for group, _, test in _joined(directory):
            ident = f"{directory.replace('/LMS-sigVer-', '-')}-tg{group['tgId']}-tc{test['tcId']}"
            yield pytest.param(group, test, id=ident)


SIGVER_CASES = list(_sigver_cases())


@pytest.mark.parametrize(("group", "test"), SIGVER_CASES)
def test_sigver(group: dict[str, Any], test: dict[str, Any]) -> None:
    lms, ots = _modes(group)
    pk, message = bytes.fromhex(group["publicKey"]), bytes.fromhex(test["message"])
    signature = bytes.fromhex(test["signature"])
    assert verify_lms(pk, message, signature, arith.kernels("hash", None)) is test["testPassed"]
    scheme = _scheme(lms, ots)
    hss_pk, hss_sig = struct.pack(">I", 1) + pk, bytes(4) + signature
    assert scheme.verify(hss_pk, message, hss_sig) is test["testPassed"]


def test_sigver_covers_both_outcomes_and_every_set() -> None:
    outcomes = {test["testPassed"] for _, test in (p.values for p in SIGVER_CASES)}
    sets = {(g["lmsMode"], g["lmOtsMode"]) for g, _ in (p.values for p in SIGVER_CASES)}
    assert outcomes == {True, False}
    assert len(sets) == 80  # 4 hashes x 5 heights x 4 Winternitz widths

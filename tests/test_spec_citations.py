"""Every algorithm of FIPS 203, FIPS 204 and FIPS 205 is findable in the source as
``FIPS 20x, Algorithm N``: the code names the spec's algorithms where it realises
them, so a reader can go from the standard to the code and back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "pqkit"

# Algorithm numbers per standard. FIPS 203, Algorithm 1 (ForExample) only
# illustrates the pseudocode notation (§3.3) and has nothing to realise.
STANDARDS = {
    "203": set(range(2, 22)),
    "204": set(range(1, 50)),
}

CITATION = re.compile(r"FIPS (20[345]),? Algorithm (\d+)\b")


def _cited() -> dict[str, set[int]]:
    found: dict[str, set[int]] = {std: set() for std in ("203", "204", "205")}
    for path in SRC.rglob("*.py"):
        text = " ".join(path.read_text(encoding="utf-8").split())  # join wrapped lines
        for std, number in CITATION.findall(text):
            found[std].add(int(number))
    return found


@pytest.mark.parametrize("std", sorted(STANDARDS))
def test_every_algorithm_is_cited(std: str) -> None:
    missing = sorted(STANDARDS[std] - _cited()[std])
    assert not missing, f"FIPS {std} algorithms not cited as 'FIPS {std}, Algorithm N': {missing}"


@pytest.mark.parametrize("std", sorted(STANDARDS))
def test_no_citation_of_an_algorithm_that_does_not_exist(std: str) -> None:
    extra = sorted(_cited()[std] - STANDARDS[std] - {1})
    assert not extra, f"FIPS {std} has no Algorithm {extra}"


def test_no_short_forms() -> None:
    short = re.compile(r"\bAlg\. ?\d+")
    offenders = [
        f"{path.relative_to(SRC)}:{n}"
        for path in SRC.rglob("*.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if short.search(line)
    ]
    assert not offenders, f"write 'FIPS 20x, Algorithm N' in full: {offenders}"

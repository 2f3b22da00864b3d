"""docs/rules.md keeps the reference rule book's numbering, so "RULES 4.3" in a test or an issue
names the same rule in both."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"
# The reference book lives beside the checkout (../shared/RULES.md), not in it.
SHARED_RULES = ROOT.parent / "shared" / "RULES.md"


def numbers(text: str) -> list[str]:
    """Section numbers ("4") and rule numbers ("4.3") in the order they appear."""
    found = re.findall(r"^(?:## (\d+)\.|(\d+\.\d+) )", text, re.MULTILINE)
    return [section or rule for section, rule in found]


def test_the_rule_book_has_sections_1_to_11_each_rule_in_its_own() -> None:
    found = numbers(RULES.read_text(encoding="utf-8"))
    sections = [n for n in found if "." not in n]
    assert sections == [str(n) for n in range(1, 12)]
    section, expected = "", 1
    for number in found:
        if "." not in number:
            section, expected = number, 1
            continue
        assert number == f"{section}.{expected}", f"{number} is out of place in section {section}"
        expected += 1


def test_every_number_of_the_reference_rule_book_is_in_the_same_place() -> None:
    if not SHARED_RULES.is_file():
        pytest.skip(f"the reference rule book {SHARED_RULES} is not beside this checkout")
    reference = numbers(SHARED_RULES.read_text(encoding="utf-8"))
    assert reference, "no numbers found in the reference rule book: its layout changed"
    assert numbers(RULES.read_text(encoding="utf-8")) == reference

# ruff: noqa: RUF001  (Russian text is meant to be Cyrillic)
"""Dealer announcements (RULES 8) in both languages, from engine events."""

from __future__ import annotations

from bot.core.announce import announce
from engine import events as ev
from engine.cards import parse_cards
from engine.stakes import DEFAULT_STAKES


def names(seat: int) -> str:
    return ["Ann", "Bob"][seat]


def test_bring_in_names_the_card_and_high_board_names_the_holding() -> None:
    """RULES 8: who brings in and with what card, who is high on board and why."""
    (card,) = parse_cards("2c")
    bring_in = ev.BringInDue(0, card, passed_on=False)
    assert announce(bring_in, "en", names, DEFAULT_STAKES) == (
        "Ann has the lowest door card (2♣) and must bring in"
    )
    high = ev.FirstToAct(4, 1, "a pair of Kings", tuple(parse_cards("KsKd")))
    assert announce(high, "en", names, DEFAULT_STAKES) == (
        "Bob is high on board with a pair of Kings and acts first"
    )
    russian = announce(high, "ru", names, DEFAULT_STAKES)
    assert russian is not None and "Kings" not in russian and "корол" in russian


def test_open_pair_all_in_and_cap_are_announced() -> None:
    """RULES 4.3 open pair, 4.5 all-in, 3.5 cap."""
    assert announce(ev.OpenPair(1, 13), "en", names, DEFAULT_STAKES) == (
        "Open pair: Bob shows a pair of Kings — bets may be 10 or 20 this street"
    )
    assert announce(ev.Raise(0, 30, 10, 30, True), "en", names, DEFAULT_STAKES) == (
        "Ann raises to 30 and is all-in"
    )
    assert announce(ev.BettingCapped(4), "en", names, DEFAULT_STAKES) == "Betting is capped"


def test_dealt_cards_are_never_announced() -> None:
    (card,) = parse_cards("As")
    assert announce(ev.CardDealt(0, 3, card, face_up=False), "en", names, DEFAULT_STAKES) is None
    assert announce(ev.CardDealt(0, 3, card, face_up=True), "en", names, DEFAULT_STAKES) is None


def test_pot_lines_agree_with_the_number_of_winners() -> None:
    one = ev.PotAwarded(0, 120, (0, 1), (0,), (120,), "a flush, Ace high")
    two = ev.PotAwarded(1, 1500, (0, 1), (0, 1), (750, 750), "a flush, Ace high")
    assert announce(one, "en", names, DEFAULT_STAKES) == (
        "Ann wins the main pot (120) — a flush, Ace high"
    )
    assert announce(two, "en", names, DEFAULT_STAKES) == (
        "Ann, Bob win the side pot 1 (1,500) — a flush, Ace high"
    )
    # Russian names the hand on the shown line instead of repeating the engine's English.
    assert announce(one, "ru", names, DEFAULT_STAKES) == "Ann забирает основной банк (120)"
    assert announce(two, "ru", names, DEFAULT_STAKES) == (
        "Ann, Bob забирают побочный банк 1 (1\xa0500)"
    )


def test_russian_lines_name_hands_and_ranks_in_russian() -> None:
    shown = ev.HandShown(0, tuple(parse_cards("KsKdKh2c2d9s8h")), (), "a full house")
    assert announce(shown, "ru", names, DEFAULT_STAKES) == (
        "Ann показывает K♠ K♦ K♥ 2♣ 2♦ 9♠ 8♥ — фулл-хаус: короли и двойки"
    )
    assert announce(ev.OpenPair(1, 13), "ru", names, DEFAULT_STAKES) == (
        "Открытая пара — короли (Bob): на этой улице ставки 10 или 20"
    )

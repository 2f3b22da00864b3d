"""Dealer announcements (RULES 8) in both languages, from engine events."""

from __future__ import annotations

from bot.announce import announce
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

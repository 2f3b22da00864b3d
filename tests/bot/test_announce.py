# ruff: noqa: RUF001  (Russian text is meant to be Cyrillic)
"""Dealer announcements (RULES 8) in both languages, from engine events."""

from __future__ import annotations

from bot.core.announce import announce
from engine import RAZZ, STUD_HI_LO, StudHand
from engine import events as ev
from engine.cards import parse_cards
from engine.stakes import DEFAULT_STAKES
from tests.engine.decks import call_down, passive, stud
from tests.render.cases import hi_lo_hand, razz_hand
from tests.texts import TEXTS


def names(seat: int) -> str:
    return ["Ann", "Bob"][seat]


def test_bring_in_names_the_card_and_high_board_names_the_holding() -> None:
    """RULES 8: who brings in and with what card, who is high on board and why."""
    (card,) = parse_cards("2c")
    bring_in = ev.BringInDue(0, card, passed_on=False)
    assert announce(bring_in, TEXTS, "en", names, DEFAULT_STAKES) == (
        "Ann has the lowest door card (2♣) and must bring in"
    )
    high = ev.FirstToAct(4, 1, "a pair of Kings", tuple(parse_cards("KsKd")))
    assert announce(high, TEXTS, "en", names, DEFAULT_STAKES) == (
        "Bob is high on board with a pair of Kings and acts first"
    )
    russian = announce(high, TEXTS, "ru", names, DEFAULT_STAKES)
    assert russian is not None and "Kings" not in russian and "корол" in russian


def test_open_pair_all_in_and_cap_are_announced() -> None:
    """RULES 4.3 open pair, 4.5 all-in, 3.5 cap."""
    assert announce(ev.OpenPair(1, 13), TEXTS, "en", names, DEFAULT_STAKES) == (
        "Open pair: Bob shows a pair of Kings — bets may be 10 or 20 this street"
    )
    assert announce(ev.Raise(0, 30, 10, 30, True), TEXTS, "en", names, DEFAULT_STAKES) == (
        "Ann raises to 30 and is all-in"
    )
    assert announce(ev.BettingCapped(4), TEXTS, "en", names, DEFAULT_STAKES) == "Betting is capped"


def test_dealt_cards_are_never_announced() -> None:
    (card,) = parse_cards("As")
    assert (
        announce(ev.CardDealt(0, 3, card, face_up=False), TEXTS, "en", names, DEFAULT_STAKES)
        is None
    )
    assert (
        announce(ev.CardDealt(0, 3, card, face_up=True), TEXTS, "en", names, DEFAULT_STAKES) is None
    )


def test_pot_lines_agree_with_the_number_of_winners() -> None:
    one = ev.PotAwarded(0, 120, (0, 1), (0,), (120,), "a flush, Ace high")
    two = ev.PotAwarded(1, 1500, (0, 1), (0, 1), (750, 750), "a flush, Ace high")
    assert announce(one, TEXTS, "en", names, DEFAULT_STAKES) == (
        "Ann wins the main pot (120) — a flush, Ace high"
    )
    assert announce(two, TEXTS, "en", names, DEFAULT_STAKES) == (
        "Ann, Bob win the side pot 1 (1,500) — a flush, Ace high"
    )
    # Russian names the hand on the shown line instead of repeating the engine's English.
    assert announce(one, TEXTS, "ru", names, DEFAULT_STAKES) == "Ann забирает основной банк (120)"
    assert announce(two, TEXTS, "ru", names, DEFAULT_STAKES) == (
        "Ann, Bob забирают побочный банк 1 (1\xa0500)"
    )


def test_russian_lines_name_hands_and_ranks_in_russian() -> None:
    shown = ev.HandShown(0, tuple(parse_cards("KsKdKh2c2d9s8h")), (), "a full house")
    assert announce(shown, TEXTS, "ru", names, DEFAULT_STAKES) == (
        "Ann показывает K♠ K♦ K♥ 2♣ 2♦ 9♠ 8♥ — фулл-хаус: короли и двойки"
    )
    assert announce(ev.OpenPair(1, 13), TEXTS, "ru", names, DEFAULT_STAKES) == (
        "Открытая пара — короли (Bob): на этой улице ставки 10 или 20"
    )


def razz_and_hi_lo_lines(hand: StudHand, lang: str) -> list[str]:
    seats = ["Dana", "Kofi", "Léa"]
    lines = (
        announce(event, TEXTS, lang, seats.__getitem__, hand.stakes, hand.variant)
        for event in hand.events
    )
    return [line for line in lines if line]


def test_razz_brings_in_the_highest_card_and_the_lowest_board_acts_first() -> None:
    """RULES 9.2, 9.3, 8: the K♠ brings in; on 4th street the lowest board acts first."""
    hand = stud({0: "As2c3d4h", 1: "5s6dKsJh", 2: "KhQhJd9d"}, dealer=2, variant=RAZZ)
    while hand.street < 4:
        passive(hand)
    english = razz_and_hi_lo_lines(hand, "en")
    assert "Kofi has the highest door card (K♠) and must bring in" in english
    assert "Dana is low on board with Four-Three low and acts first" in english
    russian = razz_and_hi_lo_lines(hand, "ru")
    assert "Kofi со старшей открытой картой (K♠) открывает торги бринг-ином" in russian
    assert "Dana: младшие открытые карты (лоу четвёрка-тройка), первый ход" in russian


def test_razz_shows_lows_as_players_say_them() -> None:
    hand = razz_hand()
    english = razz_and_hi_lo_lines(hand, "en")
    assert "Dana shows A♠ 2♣ 3♦ 4♥ 9♠ K♦ 7♣ — Seven-Four low (7-4-3-2-A)" in english
    assert english[-1] == "Dana wins the main pot (12)"


def test_hi_lo_names_the_winner_of_each_half() -> None:
    """RULES 10.1-10.2: the high half and the low half, each with its winner and amount."""
    english = razz_and_hi_lo_lines(hi_lo_hand(), "en")
    assert "Dana shows A♥ K♥ Q♥ 9♥ 4♥ 2♣ 3♦ — a flush, Ace high · no low" in english
    assert "Kofi shows A♠ 2♦ 6♣ 8♦ T♣ 4♠ J♠ — high card Ace · Eight-Six low (8-6-4-2-A)" in (
        english
    )
    assert (
        "Dana wins the high half of the main pot (6); Kofi wins the low half of the main pot (6)"
        in (english)
    )
    russian = razz_and_hi_lo_lines(hi_lo_hand(), "ru")
    halves = "половину «хай» (основной банк, 6); Kofi забирает половину «лоу» (основной банк, 6)"
    assert f"Dana забирает {halves}" in russian


def test_hi_lo_scoops_and_pots_without_a_low() -> None:
    """RULES 10.4: one hand best both ways scoops; with no qualifying low the high takes all."""
    scoop = stud({0: "Ah2h3h4h5hKdQc", 1: "KsKc9s9c7d7cTs"}, dealer=1, variant=STUD_HI_LO)
    call_down(scoop)
    assert "Dana scoops the main pot (8): best high and best low" in razz_and_hi_lo_lines(
        scoop, "en"
    )
    no_low = stud({0: "AhAdKs9c9dQhJh", 1: "KcKdQs7c7dJsTs"}, dealer=1, variant=STUD_HI_LO)
    call_down(no_low)
    assert "No low: Dana wins the whole main pot (8)" in razz_and_hi_lo_lines(no_low, "en")
    assert "Лоу нет: Dana забирает весь основной банк (8)" in razz_and_hi_lo_lines(no_low, "ru")

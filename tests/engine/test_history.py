"""PokerStars hand histories (issue 6): a golden hand line by line, what each viewer sees, and
the corners of the format (community card, bring-in completions, names, time zone)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from engine import Card, Stakes, StudHand
from engine.cards import FULL_DECK, parse_cards
from engine.events import Event, HandStarted
from engine.history import eastern_time, write_history
from tests.engine.pokerstars_parser import parse_history

STAKES = Stakes(ante=1, bring_in=3, small_bet=10, big_bet=20)
NOON_ET = datetime(2026, 11, 30, 17, 0, 0, tzinfo=UTC)
NAMES = {0: "Hero", 1: "Villain", 2: "Shorty"}


def deck_starting_with(cards: str) -> list[Card]:
    """The named cards first, in the order they leave the deck, then the rest of a fresh deck."""
    top = parse_cards(cards)
    return top + [card for card in FULL_DECK if card not in top]


def golden_hand() -> StudHand:
    """Three players, dealing order Hero, Villain, Shorty. Shorty brings in and goes all-in on 4th;
    Villain's open pair, a capped 3rd street, a timeout, an uncalled raise, then a run-out to a
    showdown where Shorty wins the main pot and Hero the side pot Villain folded out of."""
    deck = deck_starting_with(
        "Ah Th 5c  Ac Td 5d  9h Kd 2c"  # 3rd street: two rounds down, one up
        "  8h Kc 6d  7h 4s 5h  2s 3c Js"  # 4th to 6th
        "  3d Qc"  # river, to Hero and Shorty
    )
    hand = StudHand(stacks=[200, 200, 45], stakes=STAKES, deck=deck, dealer=2)
    script: list[tuple[str, int | None]] = [
        ("bring_in", None),  # Shorty
        ("raise_to", 10),  # Hero completes
        ("raise_to", 20),  # Villain
        ("call", None),  # Shorty
        ("raise_to", 30),  # Hero
        ("raise_to", 40),  # Villain: capped
        ("call", None),  # Shorty
        ("call", None),  # Hero
        ("raise_to", 20),  # 4th, Villain bets the big bet over his open pair
        ("call", None),  # Shorty, all-in
        ("call", None),  # Hero
        ("timeout", None),  # 5th, Villain checks on time
        ("raise_to", 20),  # Hero bets
        ("call", None),  # Villain
        ("raise_to", 20),  # 6th, Villain bets
        ("raise_to", 40),  # Hero raises
        ("fold", None),  # Villain
    ]
    for action, amount in script:
        hand.apply(action, amount)
    assert hand.is_over
    return hand


GOLDEN_HERO = """\
PokerStars Hand #42:  7 Card Stud Limit (10/20) - 2026/11/30 12:00:00 ET
Table 'Main Street' 3-max (Play Money)
Seat 1: Hero (200 in chips)
Seat 2: Villain (200 in chips)
Seat 3: Shorty (45 in chips)
Hero: posts the ante 1
Villain: posts the ante 1
Shorty: posts the ante 1
*** 3rd STREET ***
Dealt to Hero [Ah Ac 9h]
Dealt to Villain [Kd]
Dealt to Shorty [2c]
Shorty: brings in for 3
Hero: raises 7 to 10
Villain: raises 10 to 20
Shorty: calls 17
Hero: raises 10 to 30
Villain: raises 10 to 40
Betting is capped
Shorty: calls 20
Hero: calls 10
*** 4th STREET ***
Dealt to Hero [Ah Ac 9h] [8h]
Dealt to Villain [Kd] [Kc]
Dealt to Shorty [2c] [6d]
Pair on board - a double bet is allowed
Villain: bets 20
Shorty: calls 4 and is all-in
Hero: calls 20
*** 5th STREET ***
Dealt to Hero [Ah Ac 9h 8h] [7h]
Dealt to Villain [Kd Kc] [4s]
Dealt to Shorty [2c 6d] [5h]
Villain has timed out
Villain: checks
Hero: bets 20
Villain: calls 20
*** 6th STREET ***
Dealt to Hero [Ah Ac 9h 8h 7h] [2s]
Dealt to Villain [Kd Kc 4s] [3c]
Dealt to Shorty [2c 6d 5h] [Js]
Villain: bets 20
Hero: raises 20 to 40
Villain: folds
Uncalled bet (20) returned to Hero
*** RIVER ***
Dealt to Hero [Ah Ac 9h 8h 7h 2s] [3d]
*** SHOW DOWN ***
Hero: shows [Ah Ac 9h 8h 7h 2s 3d] (a pair of Aces)
Shorty: shows [5c 5d 2c 6d 5h Js Qc] (three of a kind, Fives)
Shorty collected 135 from main pot
Hero collected 112 from side pot
*** SUMMARY ***
Total pot 247 Main pot 135. Side pot 112. | Rake 0
Seat 1: Hero showed [Ah Ac 9h 8h 7h 2s 3d] and won (112) with a pair of Aces
Seat 2: Villain folded on the 6th Street
Seat 3: Shorty showed [5c 5d 2c 6d 5h Js Qc] and won (135) with three of a kind, Fives
"""


def history(
    events: list[Event],
    viewer: int | None,
    names: dict[int, str] = NAMES,
    table_name: str = "Main Street",
    reveal: str | None = None,
) -> str:
    return write_history(
        events,
        viewer_seat=viewer,
        hand_id=42,
        table_name=table_name,
        names=names,
        started_at=NOON_ET,
        reveal=reveal,
    )


def test_golden_hand_matches_pokerstars_format_line_by_line() -> None:
    text = history(golden_hand().events, viewer=0)
    assert text.splitlines() == GOLDEN_HERO.splitlines()
    assert text == GOLDEN_HERO


def test_observer_copy_shows_only_up_cards_before_the_showdown() -> None:
    text = history(golden_hand().events, viewer=None)
    expected = (
        GOLDEN_HERO.replace("Dealt to Hero [Ah Ac 9h]\n", "Dealt to Hero [9h]\n")
        .replace("Dealt to Hero [Ah Ac 9h] [8h]", "Dealt to Hero [9h] [8h]")
        .replace("Dealt to Hero [Ah Ac 9h 8h] [7h]", "Dealt to Hero [9h 8h] [7h]")
        .replace("Dealt to Hero [Ah Ac 9h 8h 7h] [2s]", "Dealt to Hero [9h 8h 7h] [2s]")
        .replace("Dealt to Hero [Ah Ac 9h 8h 7h 2s] [3d]\n", "")
    )
    assert text.splitlines() == expected.splitlines()


def test_each_player_copy_has_his_own_down_cards_and_nobody_elses() -> None:
    hand = golden_hand()
    villain = history(hand.events, viewer=1)
    assert "Dealt to Villain [Th Td Kd]" in villain
    assert "Dealt to Villain [Th Td Kd Kc 4s] [3c]" in villain
    assert "Dealt to Hero [9h]" in villain
    # Villain folded before the river: the cards shown at showdown are the only hidden ones he sees.
    before_showdown = villain.split("*** SHOW DOWN ***")[0]
    for hidden in ("Ah", "Ac", "3d", "5c", "5d", "Qc"):
        assert hidden not in before_showdown
    assert "Hero: shows [Ah Ac 9h 8h 7h 2s 3d]" in villain
    hero = history(hand.events, viewer=0)
    assert "Th" not in hero and "Td" not in hero  # Villain folded and never showed


def test_golden_hand_reads_back_to_the_same_actions_and_pots() -> None:
    hand = golden_hand()
    parsed = parse_history(history(hand.events, viewer=0))
    assert parsed.hand_id == "42"
    assert parsed.when == "2026/11/30 12:00:00"
    assert [(a.seat, a.kind, a.amount) for a in parsed.actions[:3]] == [
        (2, "bring_in", 3),
        (0, "complete", 10),
        (1, "raise", 20),
    ]
    assert parsed.pot_amounts == [135, 112]
    assert parsed.collected == [(0, 2, 135), (1, 0, 112)]
    assert parsed.final_stacks() == dict(enumerate(hand.stacks))
    assert parsed.summary[1].folded_on == 6


def test_fairness_reveal_comes_after_the_summary_past_a_blank_line() -> None:
    reveal = "Deck: As Kd Qh\nSalt: 00ff\n"
    text = history(golden_hand().events, viewer=0, reveal=reveal)
    assert text == GOLDEN_HERO + "\n" + reveal
    assert parse_history(text).trailer == reveal.rstrip("\n")


def test_bring_in_player_who_completes_bets_rather_than_raises() -> None:
    """RULES 3.2: the bring-in player may complete; PokerStars writes that as a bet."""
    deck = deck_starting_with("Ah Kh  Ad Kd  9c 2c")
    hand = StudHand(stacks=[100, 100], stakes=STAKES, deck=deck, dealer=1)
    hand.raise_to(10)  # seat 1 shows the 2c and completes
    hand.fold()
    text = history(hand.events, viewer=None, names={0: "Ann", 1: "Bob"})
    assert "Bob: bets 10\nAnn: folds\nUncalled bet (10) returned to Bob\n" in text
    assert "Bob collected 2 from pot\n" in text
    assert "Seat 1: Ann folded on the 3rd Street (didn't bet)" in text
    assert "Seat 2: Bob collected (2)" in text
    assert "SHOW DOWN" not in text  # RULES 2.3: the last player shows nothing
    assert parse_history(text).actions[0].kind == "complete"


def test_community_card_goes_on_the_river_marker_and_the_board_line() -> None:
    """RULES 2.2: eight players to the river leave too few cards, so one shared card is dealt."""
    hand = StudHand(stacks=[500] * 8, stakes=STAKES, deck=list(FULL_DECK), dealer=7)
    while not hand.is_over:
        if hand.legal().bring_in is not None:
            hand.bring_in()
        elif hand.legal().check:
            hand.check()
        else:
            hand.call()
    assert hand.community is not None
    names = {seat: f"Player {seat + 1}" for seat in range(8)}
    text = history(hand.events, viewer=3, names=names)
    river = text.split(f"*** RIVER *** [{hand.community}]\n")[1].split("*** SHOW DOWN ***")[0]
    assert "Dealt to" not in river  # nobody gets a card of his own
    assert f"Board [{hand.community}]\n" in text
    parsed = parse_history(text)
    assert parsed.community == parsed.board == hand.community
    for seat in range(8):
        shown_cards, _ = parsed.shown[seat]
        assert list(shown_cards) == [card for card, _ in hand.cards(seat)]  # own six only
        assert hand.community not in shown_cards


def test_header_date_is_eastern_time_with_daylight_saving() -> None:
    assert eastern_time(datetime(2026, 11, 30, 17, 0, tzinfo=UTC)) == datetime(2026, 11, 30, 12)
    assert eastern_time(datetime(2026, 7, 1, 4, 5, 6, tzinfo=UTC)) == datetime(2026, 7, 1, 0, 5, 6)
    # 2026: summer time from Sunday 8 March 2:00 EST to Sunday 1 November 2:00 EDT.
    assert eastern_time(datetime(2026, 3, 8, 6, 59, tzinfo=UTC)).hour == 1
    assert eastern_time(datetime(2026, 3, 8, 7, 0, tzinfo=UTC)).hour == 3
    assert eastern_time(datetime(2026, 11, 1, 5, 59, tzinfo=UTC)).hour == 1
    assert eastern_time(datetime(2026, 11, 1, 6, 0, tzinfo=UTC)).hour == 1
    moscow = timezone(timedelta(hours=3))
    assert eastern_time(datetime(2026, 1, 2, 12, 0, tzinfo=moscow)) == datetime(2026, 1, 2, 4)
    with pytest.raises(ValueError, match="timezone-aware"):
        eastern_time(datetime(2026, 1, 2, 12, 0))


def test_header_hour_has_no_leading_zero_like_pokerstars() -> None:
    text = history(golden_hand().events, viewer=0)
    morning = write_history(
        golden_hand().events,
        viewer_seat=0,
        hand_id=7,
        table_name="T",
        names=NAMES,
        started_at=datetime(2026, 1, 5, 14, 3, 9, tzinfo=UTC),
    )
    assert text.startswith(
        "PokerStars Hand #42:  7 Card Stud Limit (10/20) - 2026/11/30 12:00:00 ET"
    )
    assert morning.splitlines()[0].endswith(" - 2026/01/05 9:03:09 ET")


def test_names_are_made_safe_and_distinct() -> None:
    names = {0: "Bob: calls 10", 1: "Bob: calls 10", 2: "  [x]\n'y' "}
    text = history(golden_hand().events, viewer=0, names=names, table_name="it's\nmine")
    lines = text.splitlines()
    assert lines[1] == "Table 'it`s mine' 3-max (Play Money)"
    assert lines[2:5] == [
        "Seat 1: Bob_ calls 10 (200 in chips)",
        "Seat 2: Bob_ calls 10_2 (200 in chips)",
        "Seat 3: (x) `y` (45 in chips)",
    ]
    parsed = parse_history(text)
    assert parsed.final_stacks() == dict(enumerate(golden_hand().stacks))


def test_only_a_finished_hand_with_every_name_can_be_written() -> None:
    hand = StudHand(stacks=[100, 100], stakes=STAKES, deck=list(FULL_DECK), dealer=1)
    with pytest.raises(ValueError, match="finished"):
        history(hand.events, viewer=0, names={0: "A", 1: "B"})
    done = golden_hand().events
    with pytest.raises(ValueError, match="no name for seat"):
        history(done, viewer=0, names={0: "A", 1: "B"})
    with pytest.raises(ValueError, match="HandStarted"):
        history(done[1:], viewer=0)
    assert isinstance(done[0], HandStarted)


def test_seat_without_chips_is_not_in_the_history() -> None:
    """RULES 1.1: a seat with no chips is not dealt in, so it has no seat or summary line."""
    hand = StudHand(stacks=[100, 0, 100], stakes=STAKES, deck=list(FULL_DECK), dealer=2)
    hand.bring_in()
    hand.fold()
    text = history(hand.events, viewer=0, names={0: "A", 2: "C"})
    assert "Seat 2:" not in text
    assert text.splitlines()[1] == "Table 'Main Street' 3-max (Play Money)"


def test_split_pot_writes_one_collection_per_winner() -> None:
    """RULES 5.4: equal hands split the pot; the odd chip goes to the king of hearts."""
    deck = deck_starting_with("2c 2d 5s  3d 3h 6s  9h 9c Ac  Ts Td  Jh Jc  Qs Qd  Kd Kh")
    hand = StudHand(stacks=[100, 100, 100], stakes=STAKES, deck=deck, dealer=2)
    hand.bring_in()  # seat 1, nine of clubs
    hand.fold()  # seat 2
    hand.call()  # seat 0
    while not hand.is_over:
        hand.check()
    text = history(hand.events, viewer=None, names={0: "Ann", 1: "Bob", 2: "Cid"})
    # Winners collect in showdown order (RULES 5.2: no bet on the river, so Ann shows first).
    assert "Ann collected 4 from pot\nBob collected 5 from pot\n*** SUMMARY ***" in text
    assert (
        "Seat 1: Ann showed [2c 3d 9h Ts Jh Qs Kd] and won (4) with a straight, Nine to King"
        in (text)
    )
    assert (
        "Seat 2: Bob showed [2d 3h 9c Td Jc Qd Kh] and won (5) with a straight, Nine to King"
        in (text)
    )
    assert "Seat 3: Cid folded on the 3rd Street (didn't bet)" in text
    assert parse_history(text).collected == [(0, 0, 4), (0, 1, 5)]

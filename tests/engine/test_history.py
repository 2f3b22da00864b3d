"""PokerStars hand histories: a golden hand line by line, what each viewer sees, and
the corners of the format (community card, bring-in completions, names, time zone); and real
PokerStars Razz and Stud Hi/Lo hands matched line by line."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

import pytest

from engine import RAZZ, STUD_HI_LO, Card, Stakes, StudHand, Variant
from engine.cards import FULL_DECK, parse_cards
from engine.events import AntePosted, Event, HandStarted
from engine.history import eastern_time, join_histories, write_history
from tests.engine.decks import passive, stacked_deck, stud
from tests.engine.pokerstars_parser import ParseError, parse_histories, parse_history

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


# Side pots are collected before the main pot, antes and "Dealt to" lines go by seat, as in
# PokerStars' own histories (fpdb-3 regression-test-files/cash/Stars/Stud/"HH20110417 Salm IX -
# $0.04-$0.08 Ante $0.01 - USD Limit Stud.txt": "ranchim collected $0.61 from side pot" before
# "... from main pot").
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
Hero collected 112 from side pot
Shorty collected 135 from main pot
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
) -> str:
    return write_history(
        events,
        viewer_seat=viewer,
        hand_id=42,
        table_name=table_name,
        names=names,
        started_at=NOON_ET,
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
    assert parsed.collected == [(1, 0, 112), (0, 2, 135)]  # side pot first, as PokerStars
    assert parsed.final_stacks() == dict(enumerate(hand.stacks))
    assert parsed.summary[1].folded_on == 6


def test_hands_in_one_file_are_three_blank_lines_apart_with_nothing_else() -> None:
    """Hands are set apart as in PokerStars's files; the reveal is not in the file."""
    hand = golden_hand()
    copies = [history(hand.events, viewer=0), history(hand.events, viewer=1)]
    text = join_histories(copies)
    assert text == copies[0] + "\n\n\n" + copies[1]
    parsed = parse_histories(text)
    # Each copy is its own viewer's: the Villain's down cards only in his.
    assert Card.parse("Th") not in parsed[0].seen[1]
    assert parsed[1].seen[1][:3] == parse_cards("Th Td Kd")
    assert all(p.final_stacks() == dict(enumerate(hand.stacks)) for p in parsed)
    for wrong in (copies[0] + "\n\n" + copies[1], copies[0] + "\n\n\n\n" + copies[1]):
        with pytest.raises(ParseError):
            parse_histories(wrong)
    with pytest.raises(ParseError, match="after the summary"):
        parse_history(copies[0] + "\nCommitment: ab12\n")


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
    # Everyone chose always to show (RULES 5.6), so every hand lists its own six cards.
    hand = StudHand(
        stacks=[500] * 8, stakes=STAKES, deck=list(FULL_DECK), dealer=7, always_show=range(8)
    )
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


# --------------------------------------------------------------------------- Razz and Stud Hi-Lo


def replay(
    cards: dict[int, str],
    stacks: list[int],
    dealer: int,
    variant: Variant,
    script: list[tuple[str, int | None]],
) -> StudHand:
    stakes = Stakes(ante=1, bring_in=2, small_bet=4, big_bet=8)  # $0.01 = 1 chip
    deck = stacked_deck(cards, dealer=dealer, seats=len(stacks))
    hand = StudHand(stacks, stakes, deck, dealer, variant=variant)
    for action, amount in script:
        hand.apply(action, amount)
    assert hand.is_over
    return hand


def history_of_sample(hand: StudHand, sample: str, names: dict[int, str], viewer: int) -> str:
    """The history of ``hand`` with the sample's hand number, table and start (its header's
    Eastern time is EST in November: UTC-5)."""
    header = re.match(r"PokerStars Hand #(\d+):.* - (\S+ \S+) ET\nTable '([^']+)'", sample)
    assert header is not None
    eastern = datetime.strptime(header[2], "%Y/%m/%d %H:%M:%S")
    return write_history(
        hand.events,
        viewer_seat=viewer,
        hand_id=int(header[1]),
        table_name=header[3],
        names=names,
        started_at=(eastern + timedelta(hours=5)).replace(tzinfo=UTC),
    )


# PokerStars Game #35874780027, fpdb-3 regression-test-files/cash/Stars/Stud/
# Razz-USD-0.04-0.08-200911.txt, converted to play money ($0.01 = 1 chip, so no rake: the
# winner collects the whole 156 where PokerStars kept $0.07) and with "Hand #" and "(Play Money)"
# as this writer always has them. Every other line is the sample's.
RAZZ_SAMPLE = """\
PokerStars Hand #35874780027:  Razz Limit (4/8) - 2009/11/26 10:30:41 ET
Table 'Gotha II' 8-max (Play Money)
Seat 1: kobreli (101 in chips)
Seat 3: manga130 (36 in chips)
Seat 5: meg100 (126 in chips)
Seat 6: HIWAII2 (124 in chips)
Seat 7: Hero (157 in chips)
Seat 8: SilkZone (266 in chips)
kobreli: posts the ante 1
manga130: posts the ante 1
meg100: posts the ante 1
HIWAII2: posts the ante 1
Hero: posts the ante 1
SilkZone: posts the ante 1
*** 3rd STREET ***
Dealt to kobreli [6s]
Dealt to manga130 [9d]
Dealt to meg100 [5c]
Dealt to HIWAII2 [Qs]
Dealt to Hero [6d 9c 3d]
Dealt to SilkZone [Qc]
HIWAII2: brings in for 2
Hero: raises 2 to 4
SilkZone: calls 4
kobreli: calls 4
manga130: folds
meg100: calls 4
HIWAII2: folds
*** 4th STREET ***
Dealt to kobreli [6s] [7h]
Dealt to meg100 [5c] [5h]
Dealt to Hero [6d 9c 3d] [8s]
Dealt to SilkZone [Qc] [2c]
kobreli: bets 4
meg100: folds
Hero: raises 4 to 8
SilkZone: raises 4 to 12
kobreli: calls 8
Hero: calls 4
*** 5th STREET ***
Dealt to kobreli [6s 7h] [2h]
Dealt to Hero [6d 9c 3d 8s] [Jh]
Dealt to SilkZone [Qc 2c] [7c]
kobreli: bets 8
Hero: folds
SilkZone: calls 8
*** 6th STREET ***
Dealt to kobreli [6s 7h 2h] [3h]
Dealt to SilkZone [Qc 2c 7c] [Kd]
kobreli: bets 8
SilkZone: calls 8
*** RIVER ***
kobreli: bets 8
SilkZone: raises 8 to 16
kobreli: raises 8 to 24
SilkZone: raises 8 to 32
Betting is capped
kobreli: calls 8
*** SHOW DOWN ***
SilkZone: shows [3s 5d Qc 2c 7c Kd As] (Lo: 7,5,3,2,A)
kobreli: shows [Ac Qd 6s 7h 2h 3h 4c] (Lo: 6,4,3,2,A)
kobreli collected 156 from pot
*** SUMMARY ***
Total pot 156 | Rake 0
Seat 1: kobreli showed [Ac Qd 6s 7h 2h 3h 4c] and won (156) with Lo: 6,4,3,2,A
Seat 3: manga130 folded on the 3rd Street (didn't bet)
Seat 5: meg100 folded on the 4th Street
Seat 6: HIWAII2 folded on the 3rd Street
Seat 7: Hero folded on the 5th Street
Seat 8: SilkZone showed [3s 5d Qc 2c 7c Kd As] and lost with Lo: 7,5,3,2,A
"""


def test_razz_history_matches_a_real_pokerstars_razz_hand_line_by_line() -> None:
    """RULES 9 through the format: the Razz sample above (see its comment for the source),
    replayed with the same cards and decisions; the down cards nobody showed are made up."""
    cards = {
        0: "AcQd6s7h2h3h4c",  # kobreli
        2: "TcTs9d",  # manga130
        4: "ThKc5c5h",  # meg100
        5: "JcJsQs",  # HIWAII2
        6: "6d9c3d8sJh",  # Hero
        7: "3s5dQc2c7cKdAs",  # SilkZone
    }
    script: list[tuple[str, int | None]] = [
        ("bring_in", None), ("raise_to", 4), ("call", None), ("call", None), ("fold", None),
        ("call", None), ("fold", None),
        ("raise_to", 4), ("fold", None), ("raise_to", 8), ("raise_to", 12), ("call", None),
        ("call", None),
        ("raise_to", 8), ("fold", None), ("call", None),
        ("raise_to", 8), ("call", None),
        ("raise_to", 8), ("raise_to", 16), ("raise_to", 24), ("raise_to", 32), ("call", None),
    ]  # fmt: skip
    hand = replay(cards, [101, 0, 36, 0, 126, 124, 157, 266], 7, RAZZ, script)
    names = {0: "kobreli", 2: "manga130", 4: "meg100", 5: "HIWAII2", 6: "Hero", 7: "SilkZone"}
    text = history_of_sample(hand, RAZZ_SAMPLE, names, viewer=6)
    assert text.splitlines() == RAZZ_SAMPLE.splitlines()
    assert parse_history(text).game == "Razz"


# PokerStars Game #35874576282, fpdb-3 regression-test-files/cash/Stars/Stud/
# 7-StudHL-USD-0.04-0.08-200911.txt, converted as the Razz sample (no rake: each half is 38
# where PokerStars paid $0.37 and $0.36 of $0.76 after a $0.03 rake).
HI_LO_SAMPLE = """\
PokerStars Hand #35874576282:  7 Card Stud Hi/Lo Limit (4/8) - 2009/11/26 10:24:59 ET
Table 'Dawn II' 8-max (Play Money)
Seat 1: u.pressure (1100 in chips)
Seat 2: 123smoothie (133 in chips)
Seat 3: gashpor (124 in chips)
Seat 4: denny501 (87 in chips)
Seat 5: Hero (156 in chips)
Seat 6: TomSludge (160 in chips)
Seat 7: Soroka69 (97 in chips)
Seat 8: rdiezchang (175 in chips)
u.pressure: posts the ante 1
123smoothie: posts the ante 1
gashpor: posts the ante 1
denny501: posts the ante 1
Hero: posts the ante 1
TomSludge: posts the ante 1
Soroka69: posts the ante 1
rdiezchang: posts the ante 1
*** 3rd STREET ***
Dealt to u.pressure [Qs]
Dealt to 123smoothie [4h]
Dealt to gashpor [4c]
Dealt to denny501 [8s]
Dealt to Hero [Ah Kd 8d]
Dealt to TomSludge [Ks]
Dealt to Soroka69 [3h]
Dealt to rdiezchang [5s]
Soroka69: brings in for 2
rdiezchang: calls 2
u.pressure: calls 2
123smoothie: calls 2
gashpor: calls 2
denny501: folds
Hero: calls 2
TomSludge: folds
*** 4th STREET ***
Dealt to u.pressure [Qs] [Td]
Dealt to 123smoothie [4h] [9d]
Dealt to gashpor [4c] [Jc]
Dealt to Hero [Ah Kd 8d] [Kc]
Dealt to Soroka69 [3h] [Ad]
Dealt to rdiezchang [5s] [7c]
Soroka69: checks
rdiezchang: checks
u.pressure: checks
123smoothie: checks
gashpor: checks
Hero: checks
*** 5th STREET ***
Dealt to u.pressure [Qs Td] [Jh]
Dealt to 123smoothie [4h 9d] [2c]
Dealt to gashpor [4c Jc] [5h]
Dealt to Hero [Ah Kd 8d Kc] [2d]
Dealt to Soroka69 [3h Ad] [Qd]
Dealt to rdiezchang [5s 7c] [4d]
Soroka69: checks
rdiezchang: checks
u.pressure: checks
123smoothie: checks
gashpor: bets 8
Hero: folds
Soroka69: calls 8
rdiezchang: calls 8
u.pressure: calls 8
123smoothie: folds
*** 6th STREET ***
Dealt to u.pressure [Qs Td Jh] [6d]
Dealt to gashpor [4c Jc 5h] [7s]
Dealt to Soroka69 [3h Ad Qd] [9s]
Dealt to rdiezchang [5s 7c 4d] [Th]
Soroka69: checks
rdiezchang: checks
u.pressure: checks
gashpor: checks
*** RIVER ***
Soroka69: checks
rdiezchang: checks
u.pressure: checks
gashpor: bets 8
Soroka69: folds
rdiezchang: calls 8
u.pressure: calls 8
*** SHOW DOWN ***
gashpor: shows [7h 2h 4c Jc 5h 7s 8c] (HI: a pair of Sevens; LO: 8,7,5,4,2)
rdiezchang: shows [As Qh 5s 7c 4d Th Ac] (HI: a pair of Aces)
u.pressure: shows [Qc Kh Qs Td Jh 6d 6s] (HI: two pair, Queens and Sixes)
u.pressure collected 38 from pot
gashpor collected 38 from pot
*** SUMMARY ***
Total pot 76 | Rake 0
Seat 1: u.pressure showed [Qc Kh Qs Td Jh 6d 6s] and won (38) with HI: two pair, Queens and Sixes
Seat 2: 123smoothie folded on the 5th Street
Seat 3: gashpor showed [7h 2h 4c Jc 5h 7s 8c] and won (38) with HI: a pair of Sevens; LO: 8,7,5,4,2
Seat 4: denny501 folded on the 3rd Street (didn't bet)
Seat 5: Hero folded on the 5th Street
Seat 6: TomSludge folded on the 3rd Street (didn't bet)
Seat 7: Soroka69 folded on the River
Seat 8: rdiezchang showed [As Qh 5s 7c 4d Th Ac] and lost with HI: a pair of Aces
"""


def test_stud_hi_lo_history_matches_a_real_pokerstars_hand_line_by_line() -> None:
    """RULES 10 through the format: the Stud Hi/Lo sample above (see its comment), replayed
    with the same cards and decisions; the high half is collected first, then the low."""
    cards = {
        0: "QcKhQsTdJh6d6s",  # u.pressure
        1: "9c9h4h9d2c",  # 123smoothie
        2: "7h2h4cJc5h7s8c",  # gashpor
        3: "TcTs8s",  # denny501
        4: "AhKd8dKc2d",  # Hero
        5: "JdJsKs",  # TomSludge
        6: "5c5d3hAdQd9s3c",  # Soroka69
        7: "AsQh5s7c4dThAc",  # rdiezchang
    }
    script: list[tuple[str, int | None]] = [
        ("bring_in", None), ("call", None), ("call", None), ("call", None), ("call", None),
        ("fold", None), ("call", None), ("fold", None),
        *[("check", None)] * 6,
        *[("check", None)] * 4, ("raise_to", 8), ("fold", None), ("call", None),
        ("call", None), ("call", None), ("fold", None),
        *[("check", None)] * 4,
        *[("check", None)] * 3, ("raise_to", 8), ("fold", None), ("call", None),
        ("call", None),
    ]  # fmt: skip
    hand = replay(cards, [1100, 133, 124, 87, 156, 160, 97, 175], 7, STUD_HI_LO, script)
    names = dict(enumerate(
        ["u.pressure", "123smoothie", "gashpor", "denny501", "Hero", "TomSludge", "Soroka69",
         "rdiezchang"]
    ))  # fmt: skip
    text = history_of_sample(hand, HI_LO_SAMPLE, names, viewer=4)
    assert text.splitlines() == HI_LO_SAMPLE.splitlines()
    assert parse_history(text).game == "7 Card Stud Hi/Lo"


def test_stud_hi_lo_history_says_no_low_qualified_and_writes_each_half_of_a_scoop() -> None:
    """As the sample's hand #35874523510 writes it: "No low hand qualified" after the pot when
    no low qualified; a scoop collects the high half and the low half on two lines."""
    no_low = stud({0: "AhKhQhJh9h2c2d", 1: "9c9dTsJcQsKsKd"}, variant=STUD_HI_LO)
    scoop = stud({0: "AhAdKcQs9h8c8d", 1: "2c3d4h5s6cKsKd"}, variant=STUD_HI_LO)
    texts = []
    for hand in (no_low, scoop):
        while hand.actor is not None:
            passive(hand)
        texts.append(
            write_history(
                hand.events,
                viewer_seat=None,
                hand_id=1,
                table_name="Split",
                names={0: "A", 1: "B"},
                started_at=NOON_ET,
            ).splitlines()
        )
    at = texts[0].index("A collected 8 from pot")
    assert texts[0][at + 1 : at + 3] == ["No low hand qualified", "*** SUMMARY ***"]
    at = texts[1].index("B collected 4 from pot")
    assert texts[1][at + 1 : at + 3] == ["B collected 4 from pot", "*** SUMMARY ***"]
    assert (
        "Seat 2: B showed [2c 3d 4h 5s 6c Ks Kd] and won (8) with HI: a straight, Deuce to "
        "Six; LO: 6,5,4,3,2" in texts[1]
    )


def test_a_community_deuce_of_clubs_is_written_on_the_river_line() -> None:
    """The 2 of clubs is card 0, a falsy int: the river line once dropped it (RULES 2.2). Eight
    players see 6th street without folding: 48 cards are out, the 49th is shared."""
    deck = list(FULL_DECK)
    deck[0], deck[48] = deck[48], deck[0]
    hand = StudHand([200] * 8, STAKES, deck, 7)
    while hand.actor is not None:
        passive(hand)
    assert hand.community == Card.parse("2c")
    lines = write_history(
        hand.events,
        viewer_seat=None,
        hand_id=2,
        table_name="Eight",
        names={seat: f"P{seat}" for seat in range(8)},
        started_at=NOON_ET,
    ).splitlines()
    assert "*** RIVER *** [2c]" in lines and "Board [2c]" in lines


def test_antes_and_dealt_lines_go_by_seat_whatever_the_dealing_order() -> None:
    """PokerStars lists antes and "Dealt to" lines from seat 1 (fpdb-3's Stars Stud samples),
    while the cards go out from the dealer's left (RULES 1.4)."""
    hand = StudHand(
        stacks=[500, 500, 500], stakes=Stakes(1, 3, 10, 20), deck=list(FULL_DECK), dealer=0
    )
    first_dealt = next(e.seat for e in hand.events if isinstance(e, AntePosted))
    assert first_dealt == 1  # the dealer's left, not seat 1 of the history
    while not hand.is_over:
        passive(hand)
    lines = history(hand.events, viewer=None).splitlines()
    antes = [line.split(":")[0] for line in lines if "posts the ante" in line]
    assert antes == [NAMES[0], NAMES[1], NAMES[2]]
    fourth = lines.index("*** 4th STREET ***")
    dealt = [line.split()[2] for line in lines[fourth + 1 : fourth + 4]]
    assert dealt == [NAMES[0], NAMES[1], NAMES[2]]

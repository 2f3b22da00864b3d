"""Fixed hands whose pictures are kept as golden PNGs (tests/render/golden).

Each case plays a hand from a stacked deck to a chosen moment and returns the picture's PNG bytes.
``python -m tests.render.regenerate`` rewrites the golden files from these on purpose.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from bot.core.ledger import SessionLedger, ledger_sheet
from bot.core.replay import replay_frames
from bot.core.showing import still_picture
from bot.core.storage import LedgerEntry, TableLedger
from engine import DEFAULT_STAKES, RAZZ, STUD_HI_LO, StudHand
from engine.cards import FULL_DECK
from engine.odds import all_in_odds
from engine.public import PrivateHand, PublicTable
from render import (
    SeatLabel,
    TableLabels,
    hand_rankings_png,
    ledger_png,
    private_hand_png,
    showdown_png,
    table_png,
)
from render.replay import Frame, frame_png
from tests.engine.decks import call_down, passive, stud
from tests.texts import TEXTS, words

GOLDEN_DIR = Path(__file__).parent / "golden"


def _act(hand: StudHand, *actions: str | int) -> None:
    """Apply actions written "call", "check", "fold", "bring_in" or a raise-to total."""
    for action in actions:
        if isinstance(action, int):
            hand.raise_to(action)
        else:
            hand.apply(action)


def _labels(names: list[str | None], **kwargs: object) -> TableLabels:
    seats = tuple(None if name is None else SeatLabel(name) for name in names)
    return TableLabels(seats=seats, **kwargs)  # type: ignore[arg-type]


def third_street_bring_in() -> bytes:
    """8 seats, one sitting out and one empty; the bring-in posted, a call, a completion
    (RULES 3.2, 3.4); the next player is on the clock."""
    hand = stud(
        {
            0: "AsKd9c",
            1: "7h7d8s",
            2: "Qc4h2c",
            4: "JdTd5h",
            5: "3s3h6c",
            7: "KhQd9h",
        },
        stacks=[500, 320, 145, 0, 1000, 260, 0, 75],
        dealer=7,
    )
    _act(hand, "bring_in", "call", 10)  # seat 2 (2c) brings in, seat 4 calls, seat 5 completes
    seats = (
        SeatLabel("Dana"),
        SeatLabel("Олег"),
        SeatLabel("Zoë"),
        SeatLabel("Mateus", sitting_out=True, chips=250),
        SeatLabel("Émilie"),
        SeatLabel("Анастасия Владимировна"),
        None,
        SeatLabel("Bob", seconds_left=24),
    )
    return table_png(
        PublicTable.from_hand(hand),
        TableLabels(seats=seats, last_action="Анастасия Владимировна completes to 10"),
    )


def fourth_street_open_pair() -> bytes:
    """5 seats; on 4th street a pair shows, so the first bet may be the big bet (RULES 4.3)."""
    hand = stud(
        {
            0: "2d5c8h8d",
            1: "AsJs4cKh",
            2: "Tc9cQs3d",
            3: "6h6sJh2s",
            4: "Kc7d5dAc",
        },
        stacks=[400, 400, 400, 400, 400],
        dealer=4,
    )
    # 3rd: seat 1 (4c) brings in; everyone calls. 4th: seat 0 pairs Eights and bets 20.
    _act(hand, "bring_in", "call", "call", "call", "call", 20, "call")
    return table_png(
        PublicTable.from_hand(hand),
        _labels(
            ["Ivan", "Lucía", "Ji-woo 지우", "Priya", "Noah"],
            last_action="Lucía calls 20",
        ),
    )


def all_in_side_pots() -> bytes:
    """Two short stacks all-in at different totals: a main pot and two side pots (RULES 5.3),
    in Russian."""
    hand = stud(
        {
            0: "KsKd9h4c7s",
            1: "5h5c2d8c",
            2: "Jc8dTh3h6d",
            3: "Ad7c6sQh9c",
        },
        stacks=[300, 24, 60, 300],
        dealer=3,
    )
    # The short stacks (seats 1 and 2) raise whenever they can, the others call: both are
    # all-in by 6th street.
    while hand.actor is not None and hand.street < 6:
        legal = hand.legal()
        if legal.bring_in is not None:
            hand.bring_in()
        elif legal.raise_to and hand.actor in (1, 2):
            hand.raise_to(legal.raise_to[-1])
        elif legal.call is not None:
            hand.call()
        else:
            hand.check()
    names = ["Сергей", "Ольга", "Дмитрий", "Кирилл"]
    bettor = hand.actor
    assert bettor is not None
    hand.raise_to(20)  # a bet on 6th street starts a third pot above both all-ins
    return table_png(
        PublicTable.from_hand(hand),
        _labels(list(names), words=words("ru"), last_action=f"{names[bettor]}: ставка 20"),
    )


def community_card_hand() -> StudHand:
    """8 players stay to 7th street: too few cards left, so one community card (RULES 2.2)."""
    deck = list(FULL_DECK)
    random.Random(7).shuffle(deck)
    hand = StudHand([1000] * 8, DEFAULT_STAKES, deck, dealer=0)
    while hand.street < 7:
        passive(hand)
    return hand


def community_card() -> bytes:
    """The community card in the middle, with a four-colour deck."""
    names = ["Ann", "Boris", "Chen", "Dora", "Eve", "Fyodor", "Gus", "Hana"]
    return table_png(
        PublicTable.from_hand(community_card_hand()),
        _labels(list(names), four_colour=True, last_action="Community card dealt"),
    )


def _split_pot_hand() -> StudHand:
    """Seat 0 (short) wins the main pot with Aces; seats 1 and 2 tie with King-Queen-Jack high
    and split the side pot (RULES 5.3, 5.4)."""
    hand = stud(
        {0: "AhAd7c9c5sTh3s", 1: "KsQh3c8s6dJc2d", 2: "KdQc4c8d6sJh2h"},
        stacks=[30, 500, 500],
        dealer=2,
    )
    while hand.actor is not None:
        legal = hand.legal()
        if legal.bring_in is not None:
            hand.bring_in()
        elif legal.raise_to and (hand.actor == 0 or (hand.street >= 5 and legal.check)):
            hand.raise_to(legal.raise_to[-1])
        elif legal.call is not None:
            hand.call()
        else:
            hand.check()
    return hand


def showdown_split_pot() -> bytes:
    hand = _split_pot_hand()
    return showdown_png(
        PublicTable.from_hand(hand), _labels(["Marta", "Kofi", "Léa"], last_action="")
    )


def private_seven_cards() -> bytes:
    """A player's own seven cards at the end: his three down cards marked, his best five."""
    return private_hand_png(PrivateHand.for_seat(_split_pot_hand(), 0), name="Marta")


def private_third_street_russian() -> bytes:
    hand = stud({0: "9d9s9c", 1: "2h5d7s"}, stacks=[100, 100], dealer=1)
    return private_hand_png(
        PrivateHand.for_seat(hand, 0), name="Олег", four_colour=True, words=words("ru")
    )


def rankings_english() -> bytes:
    """/help's hand rankings, strongest first, with example cards."""
    return hand_rankings_png()


def rankings_russian_four_colour() -> bytes:
    return hand_rankings_png(four_colour=True, words=words("ru"))


def razz_hand() -> StudHand:
    """Razz (RULES 9): the Jack brings in (the highest door card), everyone calls it down;
    7-4-3-2-A beats 8-6-5-3-2, and the paired Kings lose."""
    hand = stud(
        {0: "As2c3d4h9sKd7c", 1: "5s6d8cJh2h3sQd", 2: "KsKhJdQs9dThTc"},
        dealer=2,
        variant=RAZZ,
    )
    call_down(hand)
    return hand


def razz_showdown() -> bytes:
    return showdown_png(
        PublicTable.from_hand(razz_hand()),
        _labels(["Dana", "Kofi", "Léa"], game="Razz"),
    )


def hi_lo_hand(streets: int = 5) -> StudHand:
    """Stud Hi-Lo (RULES 10): a flush with no low, an 8-6-4-2-A low with no high, a pair of
    Kings with neither; ``streets`` of them dealt (5: to the end)."""
    cards = {0: "AhKhQh9h4h2c3d", 1: "As2d6c8dTc4sJs", 2: "KcKs7s5h3c9dJd"}
    hand = stud(cards, dealer=2, variant=STUD_HI_LO)
    while hand.actor is not None and hand.street < 3 + streets:
        passive(hand)
    return hand


def hi_lo_halves() -> bytes:
    """The high half to the flush, the low half to the 8-6 low, each half's amount shown."""
    return showdown_png(
        PublicTable.from_hand(hi_lo_hand()),
        _labels(["Dana", "Kofi", "Léa"], game="Stud Hi-Lo"),
    )


def hi_lo_scoop_russian() -> bytes:
    """A wheel straight flush is the best high and the best low: it scoops (RULES 10.4)."""
    hand = stud({0: "Ah2h3h4h5hKdQc", 1: "KsKc9s9c7d7cTs"}, dealer=1, variant=STUD_HI_LO)
    call_down(hand)
    return showdown_png(
        PublicTable.from_hand(hand),
        _labels(["Олег", "Марта"], words=words("ru"), game="Стад хай-лоу"),
    )


def _run_out(hand: StudHand, all_in_on: int) -> StudHand:
    """Everyone calls (the short stack raises when he can) until he is all in on ``all_in_on``
    street and the rest is dealt with no betting (RULES 2.4)."""
    while hand.actor is not None:
        legal = hand.legal()
        if legal.bring_in is not None:
            hand.bring_in()
        elif hand.street == all_in_on and legal.raise_to:
            hand.raise_to(legal.raise_to[-1])
        elif legal.check:
            hand.check()
        else:
            hand.call()
    return hand


def all_in_odds_stud() -> bytes:
    """Issue 23.3: all in on 5th street, too many deals left to count: sampled chances."""
    hand = _run_out(
        stud({0: "KsKd9h4c7sQd2c", 1: "AhAc2d8c3s5d9s"}, stacks=[1 + 3 + 10 + 20, 500]), 5
    )
    return showdown_png(
        PublicTable.from_hand(hand),
        _labels(["Dana", "Kofi"], odds=all_in_odds(hand, seed=1), game="Seven Card Stud"),
    )


def all_in_odds_hi_lo_russian() -> bytes:
    """Issue 23.3: a low draw all in on 6th street against kings in Stud Hi-Lo: exact chances
    of each half and of the scoop, in Russian."""
    hand = _run_out(
        stud(
            {0: "As2c3d4h9sKcQd", 1: "KsKd4c6h7h8sJc"},
            stacks=[1 + 3 + 10 + 20 + 20, 500],
            variant=STUD_HI_LO,
        ),
        6,
    )
    return showdown_png(
        PublicTable.from_hand(hand),
        _labels(
            ["Олег", "Марта"],
            words=words("ru"),
            odds=all_in_odds(hand, seed=1),
            game="Стад хай-лоу",
        ),
    )


def replay_hand() -> StudHand:
    """Three players to the river; Dana bets it and shows two pair; Kofi and Léa, beaten,
    muck (RULES 5.6)."""
    hand = stud({0: "AsAd2c2d3h9sKc", 1: "KsKd4c5h7h8sJc", 2: "QsQd3c6h9d8cTc"})
    _act(hand, "bring_in", "call", "call")
    while hand.actor is not None:
        legal = hand.legal()
        if hand.street == 7 and hand.actor == 0 and legal.raise_to:
            hand.raise_to(legal.raise_to[0])
        elif legal.check:
            hand.check()
        else:
            hand.call()
    return hand


def replay_frames_of(hand: StudHand, viewer: int | None, lang: str = "en") -> tuple[Frame, ...]:
    return replay_frames(
        hand,
        viewer=viewer,
        names=["Dana", "Kofi", "Léa"],
        hand_id=42,
        texts=TEXTS,
        lang=lang,
        four_colour=False,
    )


def replay_frame_fourth_street() -> bytes:
    """Issue 23.2: a replay for Kofi, who played the hand: his down cards face up (marked
    underneath), everyone else's as the table saw them."""
    frames = replay_frames_of(replay_hand(), viewer=1)
    fourth = next(frame for frame in frames if frame.view.street == 4)
    return frame_png(fourth)


def replay_frame_showdown_russian() -> bytes:
    """Issue 23.2: the replay's last frame for Kofi, in Russian: he mucked, so the table saw
    nothing of his hand, but his own replay shows him his cards."""
    return frame_png(replay_frames_of(replay_hand(), viewer=1, lang="ru")[-1])


def replay_run_out_hand() -> StudHand:
    """Kofi, short, is all in early; Léa folds; the rest is dealt with no betting (RULES 2.4)."""
    hand = stud({0: "AsAd2c2d3h9sKc", 1: "KsKd4c5h7h8sJc", 2: "QsQd3c"}, stacks=[1000, 14, 1000])
    while hand.actor is not None:
        legal = hand.legal()
        if hand.actor == 2 and legal.fold:
            hand.fold()
        elif legal.raise_to and hand.actor == 1:
            hand.raise_to(legal.raise_to[-1])
        elif legal.call is not None:
            hand.call()
        elif legal.check:
            hand.check()
        else:
            hand.bring_in()
    return hand


def replay_frame_run_out() -> bytes:
    """Issue 23.2 with 23.3: a run-out street in Dana's replay, each hand's chances when the
    betting stopped on its tag, sampled and keyed as an estimate."""
    frames = replay_frames_of(replay_run_out_hand(), viewer=0)
    return frame_png(frames[-3])


def mixed_table_next_game() -> bytes:
    """A mixed table's picture: the game dealt now and which one comes next."""
    return table_png(
        PublicTable.from_hand(hi_lo_hand(streets=1)),
        _labels(
            ["Dana", "Kofi", "Léa"],
            game="Stud Hi-Lo",
            next_game="Seven Card Stud after 2 more hands",
            last_action="Kofi checks",
        ),
    )


def time_bank_running_russian() -> bytes:
    """The actor's turn ran out: his time bank runs, in red, in place of his clock."""
    hand = hi_lo_hand(streets=1)
    assert hand.actor is not None
    seats = tuple(
        SeatLabel(name, seconds_left=25 if seat == hand.actor else None, on_time_bank=True)
        for seat, name in enumerate(["Олег", "Марта", "Игорь"])
    )
    return table_png(
        PublicTable.from_hand(hand),
        TableLabels(seats=seats, words=words("ru"), game="Стад хай-лоу", last_action="Марта: чек"),
    )


def private_hi_lo() -> bytes:
    """A Stud Hi-Lo player's own five cards: his best high and his best low so far."""
    hand = stud({0: "As3d5c7h8s", 1: "KdKc9d9hQs"}, dealer=1, variant=STUD_HI_LO)
    while hand.street < 5:
        passive(hand)
    return private_hand_png(PrivateHand.for_seat(hand, 0), name="Dana")


def _session(closed: bool) -> SessionLedger:
    """Five players over an evening: two left (one after a re-buy), one is even."""
    entries = {
        "Dana": LedgerEntry(1, 1000, 0, 1840, 57, seated=True),
        "Анастасия Владимировна": LedgerEntry(2, 2000, 1310, 0, 41, seated=False),
        "Zoë Ångström-Núñez": LedgerEntry(3, 500, 0, 350, 57, seated=True),
        "Mateus": LedgerEntry(4, 300, 300, 0, 12, seated=False),
        "Bob": LedgerEntry(5, 400, 0, 400, 20, seated=True),
    }
    if closed:  # everyone was cashed out
        entries = {
            name: LedgerEntry(e.user_id, e.bought_in, e.cashed_out + e.on_table, 0, e.hands, False)
            for name, e in entries.items()
        }
    record = TableLedger(
        channel_id=1,
        guild_id=1,
        opened_at=datetime(2026, 12, 1, 18, 5, tzinfo=UTC),
        closed_at=datetime(2026, 12, 2, 1, 0, tzinfo=UTC) if closed else None,
        hands=57,
        entries=tuple(entries.values()),
    )
    names = {e.user_id: name for name, e in entries.items()}
    return SessionLedger.of(record, names.__getitem__)


def ledger_english() -> bytes:
    """/table ledger while the table is open: the biggest winner first, the players who left
    in grey with a dash on the table."""
    return ledger_png(ledger_sheet(_session(closed=False), TEXTS, "en", "#stud"))


def ledger_russian_closed() -> bytes:
    """The ledger posted when the table closed, in Russian: nothing left on the table."""
    return ledger_png(ledger_sheet(_session(closed=True), TEXTS, "ru", "#стад"))


def live_picture_russian_four_colour() -> bytes:
    """Issue 23 point 1: a live message's picture, which shows no figure a click changes (no
    stacks, bets or pot, nobody to act, no clock, nobody folded): 3rd street of the first case
    after a fold, in Russian with the four-colour deck."""
    hand = stud(
        {0: "AsKd9c", 1: "7h7d8s", 2: "Qc4h2c", 4: "JdTd5h", 5: "3s3h6c"},
        stacks=[500, 320, 145, 0, 1000, 260],
        dealer=5,
    )
    _act(hand, "bring_in", "fold", 10)  # seat 2 brings in, seat 4 folds, seat 5 completes
    names = ["Dana", "Олег", "Zoë", None, "Émilie", "Анастасия"]
    labels = _labels(
        names, last_action="Анастасия completes to 10", four_colour=True, words=words("ru")
    )
    picture = still_picture(PublicTable.from_hand(hand), labels)
    return table_png(picture.public, picture.labels)


def names_in_every_script() -> bytes:
    """Display names as Discord has them, in every script the shipped fonts draw: Latin, Greek,
    Cyrillic, Chinese, Japanese, Korean and emoji, alone and mixed, in the seats' bold and the
    last action's regular weight; one character no shipped font has stays a box."""
    hand = stud(
        {
            0: "AsKd9c",
            1: "7h7d8s",
            2: "Qc4h2c",
            3: "JdTd5h",
            4: "3s3h6c",
            5: "Ah2d9d",
            6: "KsQd8c",
            7: "5s6d4s",
        },
        stacks=[500] * 8,
        dealer=7,
    )
    _act(hand, "bring_in", "call", 10)
    names: list[str | None] = [
        "Zoë Ångström",
        "Νίκος Παπαδόπουλος",
        "Алёна",
        "王小明",
        "さくら サクラ",
        "김민준",
        "Sam 🎲🔥😀",
        "美咲 ❤ Misaki",
    ]
    return table_png(
        PublicTable.from_hand(hand),
        _labels(names, last_action="王小明 completes to 10 🎉 \U00013000"),
    )


CASES: dict[str, Callable[[], bytes]] = {
    "third_street_bring_in": third_street_bring_in,
    "fourth_street_open_pair": fourth_street_open_pair,
    "all_in_side_pots": all_in_side_pots,
    "community_card": community_card,
    "showdown_split_pot": showdown_split_pot,
    "private_seven_cards": private_seven_cards,
    "private_third_street_russian": private_third_street_russian,
    "rankings_english": rankings_english,
    "rankings_russian_four_colour": rankings_russian_four_colour,
    "razz_showdown": razz_showdown,
    "hi_lo_halves": hi_lo_halves,
    "hi_lo_scoop_russian": hi_lo_scoop_russian,
    "mixed_table_next_game": mixed_table_next_game,
    "all_in_odds_stud": all_in_odds_stud,
    "all_in_odds_hi_lo_russian": all_in_odds_hi_lo_russian,
    "replay_frame_fourth_street": replay_frame_fourth_street,
    "replay_frame_showdown_russian": replay_frame_showdown_russian,
    "replay_frame_run_out": replay_frame_run_out,
    "private_hi_lo": private_hi_lo,
    "time_bank_running_russian": time_bank_running_russian,
    "ledger_english": ledger_english,
    "ledger_russian_closed": ledger_russian_closed,
    "live_picture_russian_four_colour": live_picture_russian_four_colour,
    "names_in_every_script": names_in_every_script,
}

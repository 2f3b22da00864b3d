"""A finished hand as a PokerStars hand history ("7 Card Stud Limit", "Razz Limit" or "7 Card
Stud Hi/Lo Limit"), for one viewer.

Trackers, replayers and converters read PokerStars' text format, so this writes it line by line as
PokerStars does (checked against real histories): play-money amounts as plain integers, a
completion after the bring-in as "raises X to Y", a completion by the bring-in player himself as
"bets Y", "Pair on board - a double bet is allowed" on 4th street, and the summary's main and side
pots. Razz hands show as "(Lo: 8,6,4,3,2)"; Stud Hi-Lo hands as "(HI: a pair of Sevens; LO:
8,7,5,4,2)", each half of a pot collected on its own line (high first), and "No low hand
qualified" after a pot that had no low half.

The viewer's copy holds only what he could see at the table: his own down cards in his "Dealt to"
lines, everyone's up cards, and the cards shown at showdown. An observer's copy (``viewer_seat``
is ``None``) holds no down card before the showdown. A hand mucked at the showdown (RULES 5.6) is
"mucks hand" there and "mucked" in the summary, where only its player's own copy lists its cards,
as PokerStars does.

PokerStars deals no community card in stud (its tables seat eight at most), so its format has no
line for RULES 2.2. This module writes it the way PokerStars writes a shared card in its flop
games: on the street marker, ``*** RIVER *** [Kd]``, and as ``Board [Kd]`` in the summary; shown
hands then list only the player's own six cards.

Several hands go in one file as PokerStars writes them: each hand's text, then three blank lines
before the next (:func:`join_histories`). Nothing else goes in the file: trackers read any other
block of lines as a broken hand.

Events use 0-based seat indexes; the history numbers seats from 1, as PokerStars does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from engine.cards import Card, format_cards
from engine.events import (
    AntePosted,
    Bet,
    BettingCapped,
    BringIn,
    Call,
    CardDealt,
    Check,
    CommunityCardDealt,
    Complete,
    Event,
    Fold,
    HandEnded,
    HandMucked,
    HandShown,
    HandStarted,
    OpenPair,
    PotAwarded,
    Raise,
    ShowdownStarted,
    StreetStarted,
    TimedOut,
    UncalledBetReturned,
)
from engine.variants import VARIANTS

STREET_MARKERS = {
    3: "*** 3rd STREET ***",
    4: "*** 4th STREET ***",
    5: "*** 5th STREET ***",
    6: "*** 6th STREET ***",
    7: "*** RIVER ***",
}
# How the summary names the street a player folded on.
STREET_NAMES = {3: "3rd Street", 4: "4th Street", 5: "5th Street", 6: "6th Street", 7: "River"}
# Trackers split "Name: action" at the first colon and read cards between brackets, and the
# table name sits between single quotes: names must not contain these.
_UNSAFE_NAME_CHARS = str.maketrans({":": "_", "[": "(", "]": ")", "'": "`"})
# What a PokerStars file puts between two hands: three blank lines.
HAND_SEPARATOR = "\n" * 3


def write_history(
    events: Sequence[Event],
    *,
    viewer_seat: int | None,
    hand_id: int | str,
    table_name: str,
    names: Mapping[int, str],
    started_at: datetime,
) -> str:
    """The hand in ``events`` as PokerStars writes it for ``viewer_seat`` (0-based).

    ``names`` maps every seat dealt in to a display name; ``started_at`` must be timezone-aware
    (the header shows US Eastern time, as PokerStars does).
    """
    if not events or not isinstance(events[0], HandStarted):
        raise ValueError("a hand history starts with the HandStarted event")
    if not isinstance(events[-1], HandEnded):
        raise ValueError("only a finished hand has a history: the last event must be HandEnded")
    start = events[0]
    missing = [seat for seat in start.seats if seat not in names]
    if missing:
        raise ValueError(f"no name for seat(s) {', '.join(str(s + 1) for s in missing)}")
    writer = _Writer(start, viewer_seat, _unique_names(start.seats, names), _pot_count(events))
    writer.header(hand_id, _one_line(table_name).translate(_UNSAFE_NAME_CHARS), started_at)
    for event in events[1:]:
        writer.handle(event)
    return "\n".join(writer.lines) + "\n"


def join_histories(histories: Iterable[str]) -> str:
    """Hands written by :func:`write_history` as one file, in the order given."""
    return HAND_SEPARATOR.join(histories)


def eastern_time(moment: datetime) -> datetime:
    """``moment`` in US Eastern time (EST, or EDT from the second Sunday of March at 2:00 to the
    first Sunday of November at 2:00), as a naive datetime.

    Computed from the rule rather than a time-zone database so the engine stays pure.
    """
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("started_at must be timezone-aware (e.g. datetime.now(UTC))")
    utc = moment.astimezone(UTC).replace(tzinfo=None)
    # 2:00 local is 7:00 UTC in winter (EST, -5) and 6:00 UTC in summer (EDT, -4).
    summer_starts = _nth_sunday(utc.year, 3, 2) + timedelta(hours=7)
    summer_ends = _nth_sunday(utc.year, 11, 1) + timedelta(hours=6)
    offset = 4 if summer_starts <= utc < summer_ends else 5
    return utc - timedelta(hours=offset)


def _nth_sunday(year: int, month: int, nth: int) -> datetime:
    first = datetime(year, month, 1)
    days_to_sunday = (6 - first.weekday()) % 7
    return first + timedelta(days=days_to_sunday + 7 * (nth - 1))


def _one_line(text: str) -> str:
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())


def _unique_names(seats: Sequence[int], names: Mapping[int, str]) -> dict[int, str]:
    """Names safe for the format and distinct, so every line maps back to one seat."""
    result: dict[int, str] = {}
    taken: set[str] = set()
    for seat in sorted(seats):
        base = _one_line(names[seat]).translate(_UNSAFE_NAME_CHARS) or f"Seat {seat + 1}"
        name, suffix = base, 2
        while name.casefold() in taken:
            name, suffix = f"{base}_{suffix}", suffix + 1
        taken.add(name.casefold())
        result[seat] = name
    return result


def _pot_count(events: Sequence[Event]) -> int:
    return max((e.index + 1 for e in events if isinstance(e, PotAwarded)), default=0)


@dataclass(slots=True)
class _Writer:
    start: HandStarted
    viewer: int | None
    names: dict[int, str]
    pot_count: int
    lines: list[str] = field(default_factory=list)
    street: int = 0
    # Cards dealt on the current street, shown once the street's dealing is over.
    pending: list[CardDealt] = field(default_factory=list)
    pending_marker: bool = False
    cards: dict[int, list[tuple[Card, bool]]] = field(default_factory=dict)
    community: Card | None = None
    street_bet: int = 0
    pair_announced: bool = False
    put_in: dict[int, int] = field(default_factory=dict)  # chips beyond the ante
    folded_on: dict[int, int] = field(default_factory=dict)
    shown: dict[int, HandShown] = field(default_factory=dict)
    mucked: set[int] = field(default_factory=set)
    collected: dict[int, int] = field(default_factory=dict)
    pots: dict[int, int] = field(default_factory=dict)
    # PokerStars lists the antes by seat and the pots side pots first, whatever the order they
    # happened in: these wait for the first event of another kind.
    antes: list[AntePosted] = field(default_factory=list)
    awards: list[PotAwarded] = field(default_factory=list)

    def header(self, hand_id: int | str, table_name: str, started_at: datetime) -> None:
        stakes = self.start.stakes
        local = eastern_time(started_at)
        # PokerStars writes the hour without a leading zero: "2012/08/07 4:39:16 ET".
        when = f"{local:%Y/%m/%d} {local.hour}:{local:%M:%S} ET"
        self.lines.append(
            f"PokerStars Hand #{hand_id}:  {self.start.game} Limit "
            f"({stakes.small_bet}/{stakes.big_bet}) - {when}"
        )
        self.lines.append(f"Table '{table_name}' {len(self.start.stacks)}-max (Play Money)")
        for seat in sorted(self.start.seats):
            self.lines.append(
                f"Seat {seat + 1}: {self.names[seat]} ({self.start.stacks[seat]} in chips)"
            )
        self.cards = {seat: [] for seat in self.start.seats}
        self.put_in = dict.fromkeys(self.start.seats, 0)

    def handle(self, event: Event) -> None:
        if isinstance(event, CardDealt):
            self.cards[event.seat].append((event.card, event.face_up))
            self.pending.append(event)
            return
        if isinstance(event, CommunityCardDealt):
            self.community = event.card
            return
        if isinstance(event, AntePosted):
            self.antes.append(event)
            return
        if isinstance(event, PotAwarded):
            self.awards.append(event)
            return
        self.flush_antes()
        self.flush_awards()
        self.flush_street()
        if isinstance(event, StreetStarted):
            self.street = event.street
            self.pending_marker = True
            self.street_bet = 0
        elif isinstance(event, OpenPair):
            if not self.pair_announced:
                self.lines.append("Pair on board - a double bet is allowed")
                self.pair_announced = True
        elif isinstance(event, BringIn | Complete | Bet | Raise | Call | Check | Fold):
            self.action(event)
        elif isinstance(event, TimedOut):
            self.lines.append(f"{self.names[event.seat]} has timed out")
        elif isinstance(event, BettingCapped):
            self.lines.append("Betting is capped")
        elif isinstance(event, UncalledBetReturned):
            self.lines.append(f"Uncalled bet ({event.amount}) returned to {self.names[event.seat]}")
        elif isinstance(event, ShowdownStarted):
            self.lines.append("*** SHOW DOWN ***")
        elif isinstance(event, HandShown):
            self.shown[event.seat] = event
            own = self.own_cards(event.seat, event.cards)
            self.say(event.seat, f"shows [{format_cards(own)}] ({event.description})")
        elif isinstance(event, HandMucked):
            # RULES 5.6, as PokerStars writes it; the summary line gives his own copy his cards.
            self.mucked.add(event.seat)
            self.say(event.seat, "mucks hand")
        elif isinstance(event, HandEnded):
            self.summary()
        # BringInDue and FirstToAct have no line: PokerStars shows who acts by the action itself.

    def flush_antes(self) -> None:
        for ante in sorted(self.antes, key=lambda event: event.seat):
            self.say(ante.seat, f"posts the ante {ante.amount}", ante.all_in)
        self.antes = []

    def flush_awards(self) -> None:
        for award in sorted(self.awards, key=lambda event: event.index, reverse=True):
            self.award(award)
        self.awards = []

    def say(self, seat: int, text: str, all_in: bool = False) -> None:
        self.lines.append(f"{self.names[seat]}: {text}" + (" and is all-in" if all_in else ""))

    def action(self, event: BringIn | Complete | Bet | Raise | Call | Check | Fold) -> None:
        seat = event.seat
        if isinstance(event, BringIn):
            self.say(seat, f"brings in for {event.amount}", event.all_in)
            self.street_bet = event.amount
        elif isinstance(event, Complete):
            # PokerStars writes a completion as a raise over the bring-in, or as a bet when the
            # bring-in player completes instead of bringing in.
            if self.street_bet:
                text = f"raises {event.total - self.street_bet} to {event.total}"
            else:
                text = f"bets {event.total}"
            self.say(seat, text, event.all_in)
            self.street_bet = event.total
        elif isinstance(event, Bet):
            self.say(seat, f"bets {event.amount}", event.all_in)
            self.street_bet = event.total
        elif isinstance(event, Raise):
            self.say(seat, f"raises {event.raised_by} to {event.total}", event.all_in)
            self.street_bet = event.total
        elif isinstance(event, Call):
            self.say(seat, f"calls {event.amount}", event.all_in)
        elif isinstance(event, Check):
            self.say(seat, "checks")
        else:
            self.say(seat, "folds")
            self.folded_on[seat] = self.street
        if not isinstance(event, Check | Fold):
            self.put_in[seat] += event.amount

    def flush_street(self) -> None:
        """Write the street marker and one "Dealt to" line per player who got a card."""
        if not self.pending_marker:
            return
        self.pending_marker = False
        board = f" [{self.community}]" if self.street == 7 and self.community is not None else ""
        self.lines.append(STREET_MARKERS[self.street] + board)
        for dealt_seat in sorted({card.seat for card in self.pending}):
            line = self.dealt_line(dealt_seat)
            if line:
                self.lines.append(line)
        self.pending = []

    def dealt_line(self, seat: int) -> str | None:
        new = [card for card in self.pending if card.seat == seat]
        held = self.cards[seat][: len(self.cards[seat]) - len(new)]
        if seat == self.viewer:
            before = [card for card, _ in held]
            now = [card.card for card in new]
        else:
            before = [card for card, face_up in held if face_up]
            now = [card.card for card in new if card.face_up]
            if not now:
                return None  # another player's river card is dealt face down
        name = self.names[seat]
        if self.street == 3:
            return f"Dealt to {name} [{format_cards(before + now)}]"
        return f"Dealt to {name} [{format_cards(before)}] [{format_cards(now)}]"

    def own_cards(self, seat: int, cards: Sequence[Card]) -> list[Card]:
        # The community card is on the board line; a shown hand lists the player's own cards.
        own = list(cards)
        if self.community is not None and self.community in own:
            own.remove(self.community)
        return own

    def pot_name(self, index: int) -> str:
        if self.pot_count == 1:
            return "pot"
        if index == 0:
            return "main pot"
        return "side pot" if self.pot_count == 2 else f"side pot-{index}"

    def award(self, event: PotAwarded) -> None:
        self.pots[event.index] = event.amount
        pot = self.pot_name(event.index)
        variant = VARIANTS[self.start.game]
        split_game = variant.high and variant.low is not None
        if split_game and event.description is not None:
            # A showdown in Stud Hi-Lo: each half on its own line, the high half first.
            halves = [
                *zip(event.high_winners, event.high_shares, strict=True),
                *zip(event.low_winners, event.low_shares, strict=True),
            ]
        else:
            halves = list(zip(event.winners, event.shares, strict=True))
        for seat, share in halves:
            self.collected[seat] = self.collected.get(seat, 0) + share
            self.lines.append(f"{self.names[seat]} collected {share} from {pot}")
        if split_game and event.description is not None and not event.low_winners:
            self.lines.append("No low hand qualified")

    def summary(self) -> None:
        self.lines.append("*** SUMMARY ***")
        total = sum(self.pots.values())
        breakdown = ""
        if self.pot_count > 1:
            parts = [f"Main pot {self.pots.get(0, 0)}."]
            for index in range(1, self.pot_count):
                label = "Side pot" if self.pot_count == 2 else f"Side pot-{index}"
                parts.append(f"{label} {self.pots.get(index, 0)}.")
            breakdown = " " + " ".join(parts)
        self.lines.append(f"Total pot {total}{breakdown} | Rake 0")
        if self.community is not None:
            self.lines.append(f"Board [{self.community}]")
        for seat in sorted(self.start.seats):
            self.lines.append(f"Seat {seat + 1}: {self.names[seat]} {self.outcome(seat)}")

    def outcome(self, seat: int) -> str:
        won = self.collected.get(seat, 0)
        if seat in self.folded_on:
            quiet = " (didn't bet)" if self.put_in[seat] == 0 else ""
            return f"folded on the {STREET_NAMES[self.folded_on[seat]]}{quiet}"
        shown = self.shown.get(seat)
        if shown is not None:
            cards = format_cards(self.own_cards(seat, shown.cards))
            result = f"won ({won})" if won else "lost"
            return f"showed [{cards}] and {result} with {shown.description}"
        if seat in self.mucked:
            if seat != self.viewer:
                return "mucked"
            return f"mucked [{format_cards([card for card, _ in self.cards[seat]])}]"
        return f"collected ({won})"

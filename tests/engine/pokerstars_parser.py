"""A strict reader of PokerStars stud hand histories ("7 Card Stud Limit", "Razz Limit",
"7 Card Stud Hi/Lo Limit"), for round-trip tests.

It is written from the format (real PokerStars stud histories), not from ``engine.history``: it
reads a history back into seats, antes, actions, cards seen, pots and collections, recomputing
each action's chips from the text as a tracker would. Any line it doesn't know is an error, so a
writer that drifts from the format fails loudly.

Seat numbers in the text are 1-based; everything here is 0-based like the engine's events.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.cards import Card, parse_cards

HEADER = re.compile(
    r"^PokerStars Hand #(?P<id>\d+):  (?P<game>7 Card Stud|Razz|7 Card Stud Hi/Lo) Limit"
    r" \((?P<small>\d+)/(?P<big>\d+)\)"
    r" - (?P<when>\d{4}/\d{2}/\d{2} \d{1,2}:\d{2}:\d{2}) ET$"
)
TABLE = re.compile(r"^Table '(?P<name>[^']+)' (?P<max>\d+)-max \(Play Money\)$")
SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<chips>\d+) in chips\)$")
STREETS = {
    "*** 3rd STREET ***": 3,
    "*** 4th STREET ***": 4,
    "*** 5th STREET ***": 5,
    "*** 6th STREET ***": 6,
    "*** RIVER ***": 7,
}
RIVER_WITH_BOARD = re.compile(r"^\*\*\* RIVER \*\*\* \[(?P<card>\S\S)\]$")
DEALT = re.compile(r"^Dealt to (?P<rest>.+?) \[(?P<first>[^\]]+)\](?: \[(?P<new>[^\]]+)\])?$")
ALL_IN = " and is all-in"
ANTE = re.compile(r"^posts the ante (\d+)$")
BRING_IN = re.compile(r"^brings in for (\d+)$")
BETS = re.compile(r"^bets (\d+)$")
RAISES = re.compile(r"^raises (\d+) to (\d+)$")
CALLS = re.compile(r"^calls (\d+)$")
SHOWS = re.compile(r"^shows \[(?P<cards>[^\]]+)\] \((?P<description>[^)]+)\)$")
COLLECTED = re.compile(
    r"^(?P<name>.+) collected (?P<amount>\d+) from (?P<pot>pot|main pot|side pot(?:-\d+)?)$"
)
UNCALLED = re.compile(r"^Uncalled bet \((?P<amount>\d+)\) returned to (?P<name>.+)$")
TOTAL = re.compile(
    r"^Total pot (?P<total>\d+)(?P<parts>(?: (?:Main pot|Side pot(?:-\d+)?) \d+\.)*) \| Rake 0$"
)
POT_PART = re.compile(r"(Main pot|Side pot(?:-\d+)?) (\d+)\.")
SUMMARY_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<rest>.+)$")
FOLDED = re.compile(
    r"^folded on the (?P<street>3rd Street|4th Street|5th Street|6th Street|River)"
    r"(?P<quiet> \(didn't bet\))?$"
)
SHOWED = re.compile(
    r"^showed \[(?P<cards>[^\]]+)\] and (?:won \((?P<won>\d+)\)|lost) with (?P<description>.+)$"
)
# A hand mucked at the showdown: its cards only in its own player's copy.
MUCKED = re.compile(r"^mucked(?: \[(?P<cards>[^\]]+)\])?$")
COLLECTED_SUMMARY = re.compile(r"^collected \((?P<won>\d+)\)$")
# How each game names a shown hand: Razz a low only; Stud Hi-Lo the high, then a qualifying low.
LOW = r"[A2-9TJQK](?:,[A2-9TJQK]){4}"
DESCRIPTIONS = {
    "7 Card Stud": re.compile(r"^(?!HI: |Lo: )[^;]+$"),
    "Razz": re.compile(rf"^Lo: {LOW}$"),
    "7 Card Stud Hi/Lo": re.compile(rf"^HI: [^;]+(?:; LO: {LOW})?$"),
}
NO_LOW = "No low hand qualified"
STREET_BY_NAME = {"3rd Street": 3, "4th Street": 4, "5th Street": 5, "6th Street": 6, "River": 7}


class ParseError(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class ParsedAction:
    """``amount`` is the chips this action put in; ``total`` the seat's street total after it."""

    street: int
    seat: int
    kind: str  # bring_in, complete, bet, raise, call, check, fold
    amount: int
    total: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class SummarySeat:
    folded_on: int | None = None
    didnt_bet: bool = False
    shown: tuple[Card, ...] | None = None
    won: int = 0
    description: str | None = None
    mucked: bool = False


@dataclass(slots=True)
class ParsedHand:
    game: str
    hand_id: str
    small_bet: int
    big_bet: int
    when: str
    table: str
    max_seats: int
    names: dict[int, str] = field(default_factory=dict)
    stacks: dict[int, int] = field(default_factory=dict)
    antes: list[tuple[int, int, bool]] = field(default_factory=list)
    actions: list[ParsedAction] = field(default_factory=list)
    # Every card this copy shows for a seat before the showdown, in the order dealt.
    seen: dict[int, list[Card]] = field(default_factory=dict)
    community: Card | None = None
    timed_out: list[int] = field(default_factory=list)
    capped: list[int] = field(default_factory=list)
    pair_on_board: bool = False
    uncalled: list[tuple[int, int]] = field(default_factory=list)
    showdown: bool = False
    shown: dict[int, tuple[tuple[Card, ...], str]] = field(default_factory=dict)
    mucked: list[int] = field(default_factory=list)  # in the order they mucked
    # (pot index, seat, chips), 0 being the main pot (or the only pot).
    collected: list[tuple[int, int, int]] = field(default_factory=list)
    total_pot: int = 0
    pot_amounts: list[int] = field(default_factory=list)
    # Pots after which a Stud Hi-Lo history says no low qualified (indexes as in ``collected``).
    no_low: list[int] = field(default_factory=list)
    board: Card | None = None
    summary: dict[int, SummarySeat] = field(default_factory=dict)

    def final_stacks(self) -> dict[int, int]:
        """Each seat's chips after the hand, worked out from the text alone."""
        stacks = dict(self.stacks)
        for seat, amount, _ in self.antes:
            stacks[seat] -= amount
        for action in self.actions:
            stacks[action.seat] -= action.amount
        for seat, amount in self.uncalled:
            stacks[seat] += amount
        for _, seat, amount in self.collected:
            stacks[seat] += amount
        return stacks


def parse_history(text: str) -> ParsedHand:
    """One hand; nothing may follow its summary."""
    lines = text.split("\n")
    if lines[-1] != "":
        raise ParseError("a history ends with a newline")
    return _Reader(lines[:-1]).read()


# A hand's last line, then three blank lines before the next hand's header, as PokerStars files
# have them.
BETWEEN_HANDS = "\n" * 4


def parse_histories(text: str) -> list[ParsedHand]:
    """A file of hands, each after the last past exactly three blank lines."""
    if not text.endswith("\n"):
        raise ParseError("a history file ends with a newline")
    parts = text[:-1].split(BETWEEN_HANDS)
    return [parse_history(part + "\n") for part in parts]


class _Reader:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.at = 0
        self.street = 0
        self.street_totals: dict[int, int] = {}
        self.level = 0
        self.bets_made = 0  # completion/bets and raises this street, for "raises" on 3rd

    def next(self) -> str:
        if self.at >= len(self.lines):
            raise ParseError("the history ends early")
        line = self.lines[self.at]
        self.at += 1
        return line

    def fail(self, line: str, why: str = "unknown line") -> ParseError:
        return ParseError(f"line {self.at}: {why}: {line!r}")

    def read(self) -> ParsedHand:
        line = self.next()
        header = HEADER.match(line)
        if not header:
            raise self.fail(line, "not a stud Limit header")
        line = self.next()
        table = TABLE.match(line)
        if not table:
            raise self.fail(line, "not a play-money table line")
        hand = ParsedHand(
            game=header["game"],
            hand_id=header["id"],
            small_bet=int(header["small"]),
            big_bet=int(header["big"]),
            when=header["when"],
            table=table["name"],
            max_seats=int(table["max"]),
        )
        self.hand = hand
        while (seat := SEAT.match(self.lines[self.at])) is not None:
            self.at += 1
            index = int(seat["seat"]) - 1
            hand.names[index] = seat["name"]
            hand.stacks[index] = int(seat["chips"])
            hand.seen[index] = []
        # Longest names first, so "Bob" never matches a line that belongs to "Bob Jr".
        self.by_name = sorted(hand.names.items(), key=lambda item: -len(item[1]))
        while True:
            line = self.next()
            if line == "*** SUMMARY ***":
                break
            self.body_line(line)
        self.summary()
        return hand

    def seat_of(self, name: str) -> int:
        for seat, known in self.by_name:
            if known == name:
                return seat
        raise ParseError(f"no seat for name {name!r}")

    def split_name(self, line: str) -> tuple[int, str] | None:
        for seat, name in self.by_name:
            if line.startswith(name + ": "):
                return seat, line[len(name) + 2 :]
        return None

    def body_line(self, line: str) -> None:
        hand = self.hand
        if line in STREETS or RIVER_WITH_BOARD.match(line):
            self.start_street(STREETS.get(line, 7))
            board = RIVER_WITH_BOARD.match(line)
            if board:
                hand.community = Card.parse(board["card"])
            return
        if line.startswith("Dealt to "):
            self.dealt(line)
            return
        if line == "Pair on board - a double bet is allowed":
            if self.street != 4:
                raise self.fail(line, "a pair on board is announced on 4th street only")
            hand.pair_on_board = True
            return
        if line == "Betting is capped":
            hand.capped.append(self.street)
            return
        if line == "*** SHOW DOWN ***":
            hand.showdown = True
            return
        if line == NO_LOW:
            if hand.game != "7 Card Stud Hi/Lo" or not hand.collected:
                raise self.fail(line, "only a Stud Hi/Lo pot can have no low")
            hand.no_low.append(hand.collected[-1][0])
            return
        if line.endswith(" has timed out"):
            hand.timed_out.append(self.seat_of(line[: -len(" has timed out")]))
            return
        uncalled = UNCALLED.match(line)
        if uncalled:
            seat = self.seat_of(uncalled["name"])
            amount = int(uncalled["amount"])
            self.street_totals[seat] -= amount
            hand.uncalled.append((seat, amount))
            return
        collected = COLLECTED.match(line)
        if collected:
            pot = collected["pot"]
            index = 0 if pot in ("pot", "main pot") else int(pot.partition("-")[2] or 1)
            hand.collected.append(
                (index, self.seat_of(collected["name"]), int(collected["amount"]))
            )
            return
        said = self.split_name(line)
        if said is None:
            raise self.fail(line)
        seat, text = said
        self.player_line(line, seat, text)

    def start_street(self, street: int) -> None:
        if street != (self.street + 1 if self.street else 3):
            raise ParseError(f"street {street} follows street {self.street}")
        self.street = street
        self.street_totals = dict.fromkeys(self.hand.names, 0)
        self.level = 0
        self.bets_made = 0

    def dealt(self, line: str) -> None:
        match = DEALT.match(line)
        if not match:
            raise self.fail(line)
        seat = self.seat_of(match["rest"])
        if match["new"] is None:
            if self.street != 3:
                raise self.fail(line, "only 3rd street deals without the earlier cards")
            before, new = [], parse_cards(match["first"])
        else:
            before, new = parse_cards(match["first"]), parse_cards(match["new"])
        if before != self.hand.seen[seat]:
            raise self.fail(line, f"earlier cards differ from {self.hand.seen[seat]}")
        self.hand.seen[seat].extend(new)

    def player_line(self, line: str, seat: int, text: str) -> None:
        hand = self.hand
        shows = SHOWS.match(text)
        if shows:
            if not DESCRIPTIONS[hand.game].match(shows["description"]):
                raise self.fail(line, f"not how {hand.game} names a hand")
            hand.shown[seat] = (tuple(parse_cards(shows["cards"])), shows["description"])
            return
        if text == "mucks hand":
            if not hand.showdown or seat in hand.shown or seat in hand.mucked:
                raise self.fail(line, "a hand is mucked once, at the showdown, unshown")
            hand.mucked.append(seat)
            return
        all_in = text.endswith(ALL_IN)
        if all_in:
            text = text[: -len(ALL_IN)]
        if ante := ANTE.match(text):
            if self.street:
                raise self.fail(line, "an ante after the deal")
            hand.antes.append((seat, int(ante[1]), all_in))
            return
        before = self.street_totals.get(seat, 0)
        if bring_in := BRING_IN.match(text):
            amount = int(bring_in[1])
            kind, total = "bring_in", amount
            self.level = amount
            if amount >= hand.small_bet:
                self.bets_made = 1  # a bring-in of a full small bet is the round's bet
        elif bet := BETS.match(text):
            total = int(bet[1])
            if self.level:
                raise self.fail(line, "a bet when there is already one")
            kind = "complete" if self.street == 3 else "bet"
            amount = total - before
            self.level = total
            self.bets_made += 1
        elif raised := RAISES.match(text):
            by, total = int(raised[1]), int(raised[2])
            if total - self.level != by:
                raise self.fail(line, f"a raise of {by} over {self.level} is not to {total}")
            kind = "complete" if self.street == 3 and self.bets_made == 0 else "raise"
            amount = total - before
            self.level = total
            self.bets_made += 1
        elif call := CALLS.match(text):
            amount = int(call[1])
            kind, total = "call", before + amount
            if total > self.level or (total < self.level and not all_in):
                raise self.fail(line, f"a call to {total} against {self.level}")
        elif text == "checks":
            kind, amount, total = "check", 0, before
            if before != self.level:
                raise self.fail(line, f"a check facing {self.level}")
        elif text == "folds":
            kind, amount, total = "fold", 0, before
        else:
            raise self.fail(line)
        if amount < 0:
            raise self.fail(line, "puts in negative chips")
        self.street_totals[seat] = total
        hand.actions.append(ParsedAction(self.street, seat, kind, amount, total, all_in))

    def summary(self) -> None:
        hand = self.hand
        line = self.next()
        total = TOTAL.match(line)
        if not total:
            raise self.fail(line, "not a total pot line")
        hand.total_pot = int(total["total"])
        parts = POT_PART.findall(total["parts"])
        hand.pot_amounts = [int(amount) for _, amount in parts] or [hand.total_pot]
        if sum(hand.pot_amounts) != hand.total_pot:
            raise self.fail(line, "the pots don't add up to the total")
        while self.at < len(self.lines) and self.lines[self.at]:
            line = self.next()
            if line.startswith("Board ["):
                hand.board = parse_cards(line[len("Board [") : -1])[0]
                continue
            seat_line = SUMMARY_SEAT.match(line)
            if not seat_line:
                raise self.fail(line)
            seat = int(seat_line["seat"]) - 1
            name = hand.names.get(seat)
            rest = seat_line["rest"]
            if name is None or not rest.startswith(name + " "):
                raise self.fail(line, "seat and name don't match the seat lines")
            hand.summary[seat] = self.summary_seat(line, rest[len(name) + 1 :])
        if set(hand.summary) != set(hand.names):
            raise ParseError("the summary must have one line per seat")
        if {seat for seat, line in hand.summary.items() if line.mucked} != set(hand.mucked):
            raise ParseError("the summary's mucked hands are not those mucked at the showdown")
        if self.at < len(self.lines):
            # A tracker would read whatever follows as another, broken, hand.
            raise ParseError(f"line {self.at + 1}: text after the summary")

    def summary_seat(self, line: str, rest: str) -> SummarySeat:
        if folded := FOLDED.match(rest):
            return SummarySeat(
                folded_on=STREET_BY_NAME[folded["street"]], didnt_bet=bool(folded["quiet"])
            )
        if showed := SHOWED.match(rest):
            return SummarySeat(
                shown=tuple(parse_cards(showed["cards"])),
                won=int(showed["won"] or 0),
                description=showed["description"],
            )
        if mucked := MUCKED.match(rest):
            cards = mucked["cards"]
            return SummarySeat(
                shown=None if cards is None else tuple(parse_cards(cards)), mucked=True
            )
        if collected := COLLECTED_SUMMARY.match(rest):
            return SummarySeat(won=int(collected["won"]))
        raise self.fail(line)

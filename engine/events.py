"""What happened in a hand, as frozen, typed events.

``StudHand.events`` lists them in order. They hold everything needed to announce each action in
the channel and to write a hand history, including down cards (``CardDealt.face_up is False``):
whoever shows events to a person must filter them for that person (see ``engine.history`` and
``engine.public``).

Each event turns into a JSON-safe dict (``to_dict``) and back (``event_from_dict``), so a hand's
events can be stored and restored with its state.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from engine.cards import Card
from engine.stakes import Stakes


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for field in fields(self):
            data[field.name] = _encode(getattr(self, field.name))
        return data


def _encode(value: object) -> object:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Stakes):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_encode(item) for item in value]
    return value


# Fields that hold cards, by name, so decoding needs no type introspection.
_CARD_FIELDS = frozenset({"card"})
_CARD_TUPLE_FIELDS = frozenset({"cards", "best_five", "up_cards", "low_five"})


def event_from_dict(data: dict[str, Any]) -> Event:
    """The event ``Event.to_dict`` wrote; fields added since it was stored take their defaults
    (so a Stud High hand stored before Razz and Stud Hi-Lo existed still loads)."""
    cls = EVENT_TYPES[data["kind"]]
    values: dict[str, Any] = {}
    for field in fields(cls):
        if field.name not in data and field.default is not MISSING:
            continue
        raw = data[field.name]
        if field.name in _CARD_FIELDS:
            values[field.name] = None if raw is None else Card.parse(raw)
        elif field.name in _CARD_TUPLE_FIELDS:
            values[field.name] = tuple(Card.parse(text) for text in raw)
        elif field.name == "stakes":
            values[field.name] = Stakes.from_dict(raw)
        elif isinstance(raw, list):
            values[field.name] = tuple(raw)
        else:
            values[field.name] = raw
    return cls(**values)


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """``seats`` are the seats dealt in, in dealing order; ``stacks`` are every seat's chips;
    ``game`` is the variant's name (``engine.variants.VARIANTS``)."""

    kind: ClassVar[str] = "hand_started"
    dealer: int
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    stakes: Stakes
    game: str = "7 Card Stud"


@dataclass(frozen=True, slots=True)
class AntePosted(Event):
    kind: ClassVar[str] = "ante"
    seat: int
    amount: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class StreetStarted(Event):
    kind: ClassVar[str] = "street"
    street: int


@dataclass(frozen=True, slots=True)
class CardDealt(Event):
    """A card to one player. A down card (``face_up=False``) is private to ``seat``."""

    kind: ClassVar[str] = "dealt"
    seat: int
    street: int
    card: Card
    face_up: bool


@dataclass(frozen=True, slots=True)
class CommunityCardDealt(Event):
    """The shared 7th-street card when the deck runs short (RULES 2.2)."""

    kind: ClassVar[str] = "community"
    card: Card


@dataclass(frozen=True, slots=True)
class BringInDue(Event):
    """Who must bring in and his door card (RULES 3.1, 9.2); ``passed_on`` when the door card
    that should have brought in was all-in on the ante and the bring-in passed to him (RULES
    3.3); ``highest``: the game brings in with the highest card (Razz), not the lowest."""

    kind: ClassVar[str] = "bring_in_due"
    seat: int
    card: Card
    passed_on: bool
    highest: bool = False


@dataclass(frozen=True, slots=True)
class FirstToAct(Event):
    """Who acts first from 4th street on and why (RULES 4.1, 9.3): ``holding`` is the English
    wording ("a pair of Kings"); ``category`` (a ``HandCategory``) and ``ranks`` (high first,
    pairs before kickers) are the same holding as data, and ``low`` says the lowest board acts
    first (Razz: ranks then count the ace as 1)."""

    kind: ClassVar[str] = "first_to_act"
    street: int
    seat: int
    holding: str
    up_cards: tuple[Card, ...]
    category: int = 0
    ranks: tuple[int, ...] = ()
    low: bool = False


@dataclass(frozen=True, slots=True)
class OpenPair(Event):
    """A live player shows a pair on 4th street: bets may be small or big (RULES 4.3)."""

    kind: ClassVar[str] = "open_pair"
    seat: int
    rank: int


@dataclass(frozen=True, slots=True)
class Action(Event):
    """Base of the player decisions; ``seat`` is who acted."""

    seat: int


@dataclass(frozen=True, slots=True)
class BringIn(Action):
    kind: ClassVar[str] = "bring_in"
    amount: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class Complete(Action):
    """Completing the bring-in to the small bet: the round's bet, not a raise (RULES 3.4).

    ``full`` (here and on ``Bet`` and ``Raise``): a full bet or raise, or a short all-in of at
    least half a unit, which reopens the betting and counts towards the cap; ``False`` for a
    short all-in of less, which does neither (RULES 4.6).
    """

    kind: ClassVar[str] = "complete"
    amount: int  # chips put in by this action
    total: int  # his bet on this street after it
    all_in: bool
    full: bool = True


@dataclass(frozen=True, slots=True)
class Bet(Action):
    kind: ClassVar[str] = "bet"
    amount: int
    total: int
    all_in: bool
    full: bool = True


@dataclass(frozen=True, slots=True)
class Raise(Action):
    """``raised_by`` is how far above the previous bet: PokerStars' "raises 10 to 20"."""

    kind: ClassVar[str] = "raise"
    amount: int
    raised_by: int
    total: int
    all_in: bool
    full: bool = True


@dataclass(frozen=True, slots=True)
class Call(Action):
    kind: ClassVar[str] = "call"
    amount: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class Check(Action):
    kind: ClassVar[str] = "check"


@dataclass(frozen=True, slots=True)
class Fold(Action):
    kind: ClassVar[str] = "fold"


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """The player's clock ran out; the action that follows was taken for him (RULES 6.1)."""

    kind: ClassVar[str] = "timed_out"
    seat: int


@dataclass(frozen=True, slots=True)
class BettingCapped(Event):
    """One bet and three raises have been made this round (RULES 3.5)."""

    kind: ClassVar[str] = "capped"
    street: int


@dataclass(frozen=True, slots=True)
class UncalledBetReturned(Event):
    kind: ClassVar[str] = "uncalled"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class ShowdownStarted(Event):
    """Seats in the order they show (RULES 5.2)."""

    kind: ClassVar[str] = "showdown"
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandShown(Event):
    """All of a player's cards at showdown (with the community card when there is one).

    ``best_five`` and ``description`` (PokerStars' English) are the hand that plays for the main
    result: the high hand, or the low in Razz. The rest is the same as data, for wording in any
    language: ``high_category`` (a ``HandCategory``) and ``high_ranks`` (``HandValue.ranks``),
    ``None`` and empty without a high half; ``low_category`` and ``low_ranks`` (ace as 1, as
    ``LowValue.ranks``) and ``low_five``, ``None`` and empty when the game has no low or no
    eight-or-better low qualifies.
    """

    kind: ClassVar[str] = "shown"
    seat: int
    cards: tuple[Card, ...]
    best_five: tuple[Card, ...]
    description: str
    high_category: int | None = None
    high_ranks: tuple[int, ...] = ()
    low_category: int | None = None
    low_ranks: tuple[int, ...] = ()
    low_five: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class HandMucked(Event):
    """A hand that could no longer win any part of a pot it was in, thrown away unseen at the
    showdown (RULES 5.6): no one but its player learns its down cards."""

    kind: ClassVar[str] = "mucked"
    seat: int


@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    """Pot ``index`` (0 is the main pot) paid ``shares[i]`` to ``winners[i]`` (both halves
    together in a split game).

    ``description`` is the first winner's hand, or ``None`` when everyone else folded. At a
    showdown the halves are apart: ``high_winners``/``high_shares`` (Stud High, Stud Hi-Lo) and
    ``low_winners``/``low_shares`` (Razz, and Stud Hi-Lo when a low qualifies for this pot);
    ``scoop`` is one player winning both halves (RULES 10.4). All empty when nobody showed.
    """

    kind: ClassVar[str] = "pot"
    index: int
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    description: str | None
    high_winners: tuple[int, ...] = ()
    high_shares: tuple[int, ...] = ()
    low_winners: tuple[int, ...] = ()
    low_shares: tuple[int, ...] = ()
    scoop: bool = False


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """``stacks`` after the hand; ``payouts`` what each seat collected from the pots."""

    kind: ClassVar[str] = "hand_ended"
    stacks: tuple[int, ...]
    payouts: tuple[int, ...]


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        HandStarted,
        AntePosted,
        StreetStarted,
        CardDealt,
        CommunityCardDealt,
        BringInDue,
        FirstToAct,
        OpenPair,
        BringIn,
        Complete,
        Bet,
        Raise,
        Call,
        Check,
        Fold,
        TimedOut,
        BettingCapped,
        UncalledBetReturned,
        ShowdownStarted,
        HandShown,
        HandMucked,
        PotAwarded,
        HandEnded,
    )
}

"""What the edge is given to show: frozen views of a table, a finished hand and a player's cards.

The core builds them (``bot.core.showing``) when the edge takes an effect from a table's outbox,
so the latest state still wins; the edge words them, draws them and sends them, and never reads
the table they came from. Privacy is structural: a public view (:class:`TableView`,
:class:`ResultsView`) holds the hand as ``engine.public.PublicTable``, which has no field for a
down card until the engine has shown it, and names, stacks and lines; a player's down cards are
only ever in :class:`PrivateView`, which goes to him alone (a DM, an ephemeral reply).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.core.config import TableConfig
from bot.core.games import game_name
from engine.odds import AllInOdds
from engine.public import PrivateHand, PublicTable
from engine.stakes import Stakes
from render import TableLabels
from words import Texts


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    action: str  # fold, check, call, bring_in, complete, bet or raise
    amount: int | None


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seated player: his place (from 0), name, chips (in the hand, if he is in it), and who
    he is (a face other than Discord's finds its own player's seat by it)."""

    position: int
    name: str
    stack: int
    sitting_out: bool
    leaving: bool
    user_id: int


@dataclass(frozen=True, slots=True)
class Picture:
    """What a hand's live picture shows: its cards, names and street, and none of the figures a
    click changes (stacks, bets, the pot, whose turn, who folded): those are in the message's
    text. Equal pictures look the same, so the edge uploads one only when this changes (cards
    dealt or shown, a seat changed)."""

    public: PublicTable
    labels: TableLabels


@dataclass(frozen=True, slots=True)
class HandView:
    """A hand in play as its channel sees it.

    ``deadline`` is when the actor's time runs out (his time bank's, with ``on_time_bank``);
    until his buttons are shown his clock has not started, and it is a full turn from when the
    view was built. ``labels`` label the whole table (names, the actor's seconds, the last
    action); ``picture`` is the live message's picture, without the figures.
    """

    hand_id: int
    seq: int  # the betting state the buttons act on
    game: str  # the hand's game ("razz")
    street: int
    public: PublicTable
    names: tuple[str, ...]  # by engine seat
    users: tuple[int, ...]  # who sits in each engine seat
    log: tuple[str, ...]  # the hand's latest lines, oldest first
    actor: str | None  # the name of the player to act
    deadline: float
    on_time_bank: bool
    buttons: tuple[ButtonSpec, ...]
    labels: TableLabels
    picture: Picture
    commitment: str  # the deck's digest, published with the hand's first cards (fairness)


@dataclass(frozen=True, slots=True)
class LevelClock:
    """A tournament table's level (RULES 11.2): the one its stakes are of, and ``to_next``
    seconds or hands (``unit``) until the next, 0 once the next hand is dealt at it; ``next_at``
    is when, on the clock (seconds only)."""

    number: int
    unit: str  # seconds or hands
    to_next: int
    next_at: float | None


@dataclass(frozen=True, slots=True)
class TableView:
    """The table's message: the hand in play, or (``hand`` None) the players waiting for one."""

    channel_id: int
    lang: str
    stakes: Stakes
    game: str  # the game the table deals next
    next_game: str | None  # a mixed table's next game, worded ("Razz after 3 more hands")
    seats: tuple[SeatInfo, ...]  # the players waiting for a hand (an idle table's only)
    next_hand_at: float | None  # when the next hand is dealt, counting down
    hand: HandView | None
    level: LevelClock | None = None  # a tournament's table only


@dataclass(frozen=True, slots=True)
class ResultsView:
    """A finished hand, worked out once in the core: what was shown, who won each pot and how
    much each player won or lost."""

    hand_id: int
    lang: str
    game: str
    stakes: Stakes
    street: int  # where it ended
    public: PublicTable
    labels: TableLabels
    lines: tuple[str, ...]  # shown hands, pots awarded, bets returned, in the table's language
    nets: tuple[tuple[str, int], ...]  # each player's name and his result, in seat order
    next_hand_at: float | None
    next_game: str | None
    commitment: str  # the deck's digest, which the reveal checks against
    # Each live hand's chances when the betting stopped with two or more all in (RULES 2.4);
    # the picture draws them too (``labels.odds``).
    odds: AllInOdds | None = None


@dataclass(frozen=True, slots=True)
class PrivateView:
    """A player's own cards, for his eyes only; read when they were dealt (or asked for)."""

    user_id: int
    hand_id: int
    game: str  # a mixed table's player is told which game he plays
    cards: PrivateHand
    name: str
    lang: str  # his client's language
    four_colour: bool  # his own pictures' deck


@dataclass(frozen=True, slots=True)
class Registration:
    """A player entered a tournament: its buy-in, and whether the start his entry called for
    is delayed (it failed, a thread Discord refused: it is tried again shortly)."""

    tournament_id: int
    buy_in: int
    start_delayed: bool = False


@dataclass(frozen=True, slots=True)
class SeatTaken:
    """A player sat down: his place (from 0), his chips, and the table's largest buy-in."""

    position: int
    stack: int
    max_buy_in: int


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table's settings and players, for ``/table info``."""

    config: TableConfig
    next_game: str | None  # a mixed table's next game, in the asker's language
    players: tuple[SeatInfo, ...]


def opened_params(texts: Texts, config: TableConfig, lang: str) -> dict[str, Any]:
    """What the "table_opened" and "table_info" messages say about a table, in ``lang``."""
    return {
        "game": game_name(texts, config.game, lang),
        "stakes": config.stakes,
        "seats": config.seats,
        "min": config.min_buy_in,
        "max": config.max_buy_in,
        "turn": config.turn_seconds,
    }


@dataclass(frozen=True, slots=True)
class LobbyView:
    """A tournament's lobby message (RULES 11.1, 11.7): its entrants, prize pool and payouts
    as they stand. ``message_id`` is the lobby message already posted, if any."""

    tournament_id: int
    channel_id: int
    message_id: int | None
    lang: str
    game: str
    state: str  # registering, running, finished, cancelled
    buy_in: int
    starting_stack: int
    seats: int
    start_entrants: int | None
    entrants: tuple[int, ...]  # user ids, in registration order
    prize_pool: int
    payouts: tuple[int, ...]  # best place first; none while nobody is in
    tables: tuple[tuple[int, int], ...] = ()  # (number, channel id) once it runs
    places: tuple[tuple[int, int, int], ...] = ()  # (place, user id, prize), best first
    # The computer players among them (user id, name): they have no Discord mention.
    bots: tuple[tuple[int, str], ...] = ()
    start_at: int | None = None  # a set start, in seconds since the epoch
    added: int = 0  # chips in the pool beyond the buy-ins, added by organisers (11.1)
    # While it runs with late registration open (11.9): the level it closes after, and
    # whether a player out may re-enter.
    late_until: int | None = None
    reentry: bool = False
    # While it runs (11.2): each player's (table number, user id, chips) in seat order, the
    # level the next hands are dealt at, its stakes, and seconds or hands (``level_unit``)
    # until the next.
    stacks: tuple[tuple[int, int, int], ...] = ()
    level: int | None = None
    stakes: Stakes | None = None
    level_unit: str = "seconds"
    to_next_level: int = 0


@dataclass(frozen=True, slots=True)
class Outcome:
    """A decision applied: the action taken and its amount, and, when asked for, the update
    that answers it: the table as the decision left it (the hand's results if it ended it; None
    if the table closed), with the version of the table's outbox it shows."""

    action: str
    amount: int | None
    update: TableView | ResultsView | None = None
    version: int = 0

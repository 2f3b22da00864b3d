"""Plain, immutable records the store returns (no live database handles inside)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Final, Literal

Period = Literal["day", "week", "month", "all"]
PERIODS: Final[tuple[Period, ...]] = ("day", "week", "month", "all")
# The game key under which the stats add up every game together.
ALL_GAMES: Final = "all"


@dataclass(frozen=True, slots=True)
class Wallet:
    """A player's chips in one guild: ``balance`` in the wallet, ``seated`` at tables.

    ``seated`` counts seat stacks plus the chips he brought into hands in progress.
    """

    guild_id: int
    user_id: int
    balance: int
    seated: int
    next_daily_at: datetime | None  # None: the daily grant can be claimed now

    @property
    def total(self) -> int:
        return self.balance + self.seated


@dataclass(frozen=True, slots=True)
class TableRecord:
    channel_id: int
    guild_id: int
    opener_id: int
    max_seats: int
    min_buy_in: int
    max_buy_in: int
    settings: dict[str, Any]  # opaque to the store: stakes, turn time, ... (JSON-safe)
    opened_at: datetime
    message_id: int | None = None  # the Discord message that last showed the table


@dataclass(frozen=True, slots=True)
class Seat:
    """A player at a table. ``stack`` is 0 while his chips are in the hand in progress."""

    channel_id: int
    user_id: int
    position: int  # 0 .. max_seats - 1, the lowest free one when he sat down
    stack: int
    sitting_out: bool
    leaving: bool  # cash out automatically when the current hand ends
    time_bank: float | None = None  # seconds left in his time bank; None: a full one


@dataclass(frozen=True, slots=True)
class HandPlayer:
    """One dealt-in player: ``seat_index`` is his index in the engine's ``stacks``."""

    seat_index: int
    user_id: int
    starting_stack: int
    final_stack: int | None  # None until the hand is settled or voided
    position: int | None = None  # his seat at the table (None: a hand dealt before migration 16)


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A hand as stored. ``state`` holds the deck: reveal it (and ``salt``) only once it ended.

    ``engine.codec.decode(state)`` replays it, whichever form it was saved in."""

    hand_id: int
    channel_id: int
    guild_id: int
    state: bytes  # the last committed engine.codec.encode(hand) (older hands: their JSON)
    version: int  # how many actions were saved since the hand started
    commitment: str
    salt: str
    players: tuple[HandPlayer, ...]
    started_at: datetime
    updated_at: datetime
    ended_at: datetime | None
    outcome: str | None  # None while live, then "settled" or "voided"

    @property
    def is_live(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True, slots=True)
class HandEnd:
    """What ending a hand did: each player's final stack and who was cashed out on leaving."""

    hand_id: int
    final_stacks: dict[int, int]  # user id -> chips back on his seat
    net: dict[int, int]  # user id -> won (+) or lost (-) in this hand
    cashed_out: dict[int, int]  # user id -> chips moved to the wallet (seats marked leaving)


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One player's chips at one table since it opened, summed from the ledger."""

    user_id: int
    bought_in: int  # every buy-in at this table
    cashed_out: int  # every cash-out from it to the wallet
    on_table: int  # his seat's chips now, with what he brought into a hand in progress
    hands: int  # settled hands he was dealt into
    seated: bool

    @property
    def net(self) -> int:
        """Won (+) or lost (-) in the hands that ended; a hand in progress counts as not begun."""
        return self.cashed_out + self.on_table - self.bought_in


@dataclass(frozen=True, slots=True)
class TableLedger:
    """Everyone who sat at one table since it opened, in the order they first sat."""

    channel_id: int
    guild_id: int
    opened_at: datetime
    closed_at: datetime | None  # None while the table is open
    hands: int  # settled hands
    entries: tuple[LedgerEntry, ...]


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int  # 1-based; equal totals share a rank (1, 2, 2, 4)
    user_id: int
    chips: int  # wallet + seated; or, ranking winnings or tournaments, the net over the period
    hands: int | None = None  # ranking winnings: his hands in the period; tournaments: played
    wins: int | None = None  # ranking tournaments: the ones he won in the period


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """The top players and the caller's own row, in the guild's current ``season``; ranking
    winnings, also over which ``period`` (its first day ``since``, UTC) and ``game`` (None:
    every game)."""

    top: tuple[LeaderboardRow, ...]
    caller: LeaderboardRow | None  # None when the caller has no wallet (or no hand) here
    season: int = 1
    season_started: datetime | None = None  # None: the guild's first season
    period: Period | None = None  # None: the wallets' ranking, which is of now
    since: date | None = None
    game: str | None = None
    tournaments: bool = False  # ranking tournaments' prizes minus buy-ins, not cash winnings


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """What one seat of a settled hand did, as the stats count it (``bot.core.stats`` reads
    them off the engine's hand)."""

    dealt: bool  # a seat without chips is not dealt in, and counts nowhere
    vpip: bool  # put chips in by choice on the first street: a call, completion or raise
    showdown: bool  # still in at the showdown
    collected: int  # chips he took from the pots (0: he won nothing)


@dataclass(frozen=True, slots=True)
class HandFacts:
    """A settled hand for the stats: its game's key ("stud", "razz", "hilo") and its seats, in
    engine seat order (the order of the final stacks)."""

    game: str
    seats: tuple[SeatFacts, ...]


@dataclass(frozen=True, slots=True)
class GameStats:
    """A player's figures over one period, in one game (or, with ``game`` "all", in all)."""

    game: str
    hands: int = 0
    won: int = 0  # hands in which he collected chips from a pot
    showdowns: int = 0  # hands he took to the showdown
    won_showdown: int = 0  # those of them he won chips in
    vpip: int = 0  # hands he put chips in voluntarily on the first street
    net: int = 0  # chips won (+) or lost (-)
    biggest_pot: int = 0  # the most he collected in one hand


@dataclass(frozen=True, slots=True)
class TournamentStats:
    """A player's finished tournaments over one period (RULES 11): how many he played (a
    re-entry is the same tournament), cashed in (a prize above 0) and won, and his prizes
    minus every buy-in he paid into them."""

    played: int = 0
    cashes: int = 0
    wins: int = 0
    net: int = 0


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's stats on a guild, over a period of its current season."""

    guild_id: int
    user_id: int
    season: int
    season_started: datetime | None  # None: the guild's first season
    period: Period
    since: date | None  # the period's first day (UTC); None for the whole season
    game: str | None  # the game ``total`` and ``recent`` are of; None: every game
    total: GameStats
    games: tuple[GameStats, ...]  # every game he played in the period, most hands first
    recent: tuple[int, ...]  # his net in each of his latest hands of the period, oldest first
    tournaments: TournamentStats = TournamentStats()  # those that ended in the period


@dataclass(frozen=True, slots=True)
class Season:
    number: int
    started_at: datetime | None  # None: the first season, since the bot came


@dataclass(frozen=True, slots=True)
class SeasonReset:
    """What ``/chips reset`` did: the new season, and the chips it minted and burned to put
    every wallet of the guild back to the starting chips."""

    season: int
    wallets: int  # wallets reset
    granted: int  # chips added to wallets that had fewer
    burned: int  # chips taken from wallets that had more


@dataclass(frozen=True, slots=True)
class ChipsTaken:
    taken: int  # what left the wallet: what was asked, or all it had if that was less
    balance: int  # the wallet after


@dataclass(frozen=True, slots=True)
class DailyClaim:
    balance: int  # the wallet after the grant
    streak: int  # days in a row he took his daily chips, this one included
    next_at: datetime  # when he can take the next ones
    streak_until: datetime  # the last moment to take them without losing the streak


@dataclass(frozen=True, slots=True)
class AuditTotals:
    """The figures ``audit()`` checked: ``granted == wallets + seats + live_hands +
    prize_pools``. Seats and hands are those of cash tables: a tournament's chips are its own
    (RULES 11.1) and add up in its own audit; its buy-ins wait in its prize pool."""

    granted: int  # every chip the ledger minted, less those admins took or a new season burned
    wallets: int
    seats: int
    live_hands: int
    prize_pools: int = 0  # buy-ins of tournaments not paid out or given back yet


@dataclass(frozen=True, slots=True)
class HouseReport:
    """A server's house: ``balance`` in its wallet, ``at_tables`` with its computer
    players (their seats and live hands), ``funded`` what admins put in less what they took out.
    ``result`` is what the bots won (positive) or lost for it."""

    balance: int
    at_tables: int
    funded: int

    @property
    def result(self) -> int:
        return self.balance + self.at_tables - self.funded


TournamentState = Literal["registering", "running", "finished", "cancelled"]


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament as stored (RULES 11). ``level_unit`` says what ``level_length`` and
    ``elapsed`` count: seconds of play, or hands dealt at each table. ``start_entrants`` (a
    sit-and-go) or ``start_at`` says when it starts; ``late_level`` is the last level at which
    late registration (and re-entry, if ``reentry``) is open. ``seed`` seeds every random choice
    of its director, so each can be checked (11.5)."""

    tournament_id: int
    guild_id: int
    channel_id: int  # the lobby
    organiser_id: int
    game: str
    structure: str
    curve: str
    level_unit: Literal["seconds", "hands"]
    level_length: int
    starting_stack: int
    buy_in: int
    seats: int
    start_entrants: int | None
    start_at: datetime | None
    late_level: int | None
    reentry: bool
    state: TournamentState
    seed: int
    prize_pool: int
    elapsed: int  # seconds of play saved for the level clock (11.8)
    message_id: int | None
    settings: dict[str, Any]  # its tables' settings (turn time, language...), opaque to the store
    created_at: datetime
    started_at: datetime | None
    ended_at: datetime | None
    event_id: int | None = None  # its Discord scheduled event, if one was made
    reminded: bool = False  # the lobby was reminded of a set start


@dataclass(frozen=True, slots=True)
class TournamentEntry:
    """A player in a tournament: how many times he bought in, and where he finished."""

    user_id: int
    entries: int
    place: int | None  # None while he is still in (or before the start)
    prize: int | None  # what he was paid, once the tournament is over


@dataclass(frozen=True, slots=True)
class TournamentTable:
    """One of a running tournament's tables: its number (from 1) and its channel (a thread)."""

    number: int
    channel_id: int

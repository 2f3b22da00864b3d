"""Plain, immutable records the store returns (no live database handles inside)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


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
class Table:
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
    chips: int  # wallet + seated


@dataclass(frozen=True, slots=True)
class Leaderboard:
    top: tuple[LeaderboardRow, ...]
    caller: LeaderboardRow | None  # None when the caller has no wallet in this guild


@dataclass(frozen=True, slots=True)
class AuditTotals:
    """The figures ``audit()`` checked: ``granted == wallets + seats + live_hands``."""

    granted: int
    wallets: int
    seats: int
    live_hands: int

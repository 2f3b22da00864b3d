"""A table's state: its settings, its seats, the hand in play. Only the core reads it.

The edge never sees a :class:`Table`, a :class:`LiveHand` or the engine's hand: it gets frozen
views (``bot.core.views``) from the table's outbox. The parts that change a table (seating,
the dealer, the turn clock, recovery) do so under its ``lock``: every change to a table (an
action, a timeout, a seat change, starting or ending a hand) happens under it, so two clicks at
the same moment apply once. Tables never share a lock.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
from typing import Protocol

from bot.core.config import TableConfig
from bot.core.games import STUD, Rotation
from bot.core.outbox import Outbox
from bot.core.storage import HandEnd, Seat
from bot.core.storage.house import is_bot
from bot.core.views import ButtonSpec, LevelClock
from engine.hand import LegalActions, StudHand
from strategy.sight import Habits

LOG_LINES = 12


@dataclass(slots=True)
class LiveHand:
    hand_id: int
    hand: StudHand
    users: tuple[int, ...]  # engine seat -> user id
    commitment: str  # the digest published before the first card
    salt: str  # the secret the per-card salts derive from: never shown to anyone
    announced: int = 0  # how many of hand.events are already in the table log
    deadline: float | None = None  # when the actor's turn runs out, once his buttons are shown
    banking_since: float | None = None  # the actor's turn ran out; his time bank runs from then
    end: HandEnd | None = None  # the store's settlement, once the hand has ended

    @property
    def seq(self) -> int:
        """Grows with every decision: a button drawn at another ``seq`` is out of date."""
        return len(self.hand.events)

    def seat_of(self, user_id: int) -> int | None:
        return self.users.index(user_id) if user_id in self.users else None


class Director(Protocol):
    """What a tournament's director does at each of its tables (``bot.core.tournament``)."""

    def may_deal(self, table: Table) -> bool:
        """Whether the table deals its next hand now (hand-for-hand may hold it, RULES 11.6);
        if so, its stakes are set to the level's (11.2)."""
        ...

    def hand_ended(self, table: Table, live: LiveHand, end: HandEnd) -> None:
        """A hand ended: the director takes the players out, moves them and deals the next."""
        ...

    def level_clock(self, table: Table) -> LevelClock | None:
        """The level the table plays at and what is left of it, for its message (11.2)."""
        ...

    def unattended(self) -> bool:
        """No person is left in the tournament: its computer players play it out without
        pauses, nobody is waiting."""
        ...


@dataclass(slots=True)
class Table:
    channel_id: int
    guild_id: int
    opener_id: int
    config: TableConfig
    outbox: Outbox
    seats: dict[int, Seat] = field(default_factory=dict)  # user id -> seat
    names: dict[int, str] = field(default_factory=dict)  # user id -> his name on the server
    langs: dict[int, str] = field(default_factory=dict)  # user id -> his client's language
    live: LiveHand | None = None
    last_dealer: int | None = None  # table position of the last hand's dealer
    log: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    closed: bool = False
    timer: asyncio.Task[None] | None = None
    countdown: asyncio.Task[None] | None = None
    next_hand_at: float | None = None
    message_id: int | None = None  # the message that shows the table (saved for restarts)
    rotation: Rotation = field(default_factory=lambda: Rotation.for_game(STUD))
    banks: dict[int, float] = field(default_factory=dict)  # user id -> time bank seconds left
    dms_told: set[int] = field(default_factory=set)  # players told once their DMs are closed
    tournament: Director | None = None  # a tournament's table: nobody sits out or leaves (11.3)
    # User id -> how he has played this table's hands, which its computer players read him by.
    # Only in memory: after a restart they start over, as people back from a break would.
    habits: dict[int, Habits] = field(default_factory=dict)

    def bank(self, user_id: int) -> float:
        """The seconds left in the player's time bank (a new player's is full)."""
        return self.banks.get(user_id, float(self.config.time_bank))

    def name(self, user_id: int) -> str:
        name = self.names.get(user_id)
        return fallback_name(user_id) if name is None else name

    def seat_name(self, seat: int) -> str:
        assert self.live is not None
        return self.name(self.live.users[seat])

    def lang_of(self, user_id: int) -> str:
        return self.langs.get(user_id, self.config.lang)

    def eligible(self) -> list[Seat]:
        """Seats dealt into the next hand, by table position."""
        return sorted(
            (s for s in self.seats.values() if not s.sitting_out and s.stack > 0),
            key=lambda s: s.position,
        )

    def buttons(self) -> list[ButtonSpec]:
        """The actor's legal actions as buttons, with amounts (4th street open pair: both)."""
        if self.live is None or self.live.hand.actor is None:
            return []
        if is_bot(self.live.users[self.live.hand.actor]):
            return []  # a computer player acts by itself (bot.core.computer_players)
        return buttons_for(self.live.hand.legal())

    def actor_id(self) -> int | None:
        if self.live is None or self.live.hand.actor is None:
            return None
        return self.live.users[self.live.hand.actor]


def fallback_name(user_id: int) -> str:
    """A name for a player whose Discord name the bot doesn't know (left the server, say)."""
    return f"Player {user_id % 10000:04d}"


def buttons_for(legal: LegalActions) -> list[ButtonSpec]:
    specs: list[ButtonSpec] = []
    if legal.fold:
        specs.append(ButtonSpec("fold", None))
    if legal.check:
        specs.append(ButtonSpec("check", None))
    if legal.call is not None:
        specs.append(ButtonSpec("call", legal.call))
    if legal.bring_in is not None:
        specs.append(ButtonSpec("bring_in", legal.bring_in))
    specs.extend(ButtonSpec(legal.raise_kind or "raise", total) for total in legal.raise_to)
    return specs

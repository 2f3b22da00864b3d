"""The store: wallets, tables, seats, hands and the ledger in one SQLite file (aiosqlite, WAL).

Every chip lives in exactly one place: a wallet, a seat stack, or a hand in progress (the stacks
its players brought in). Every move between places is one transaction that also appends a ledger
row, so ``audit()`` can prove that the places add up to the chips ever granted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from bot.storage.models import (
    AuditTotals,
    HandEnd,
    HandRecord,
    Leaderboard,
    Seat,
    Table,
    Wallet,
)

MAX_AMOUNT = 1_000_000_000  # per grant or buy-in; keeps every sum far from 64-bit overflow


class Store:
    """Open with ``await Store.open(path)``; close with ``await store.close()``.

    Methods raise a ``StoreError`` subclass (readable ``str()``) for anything a player can get
    wrong, and then nothing has changed. Times are timezone-aware UTC datetimes.
    """

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        starting_balance: int = 1000,
        daily_amount: int = 200,
        daily_cooldown: timedelta = timedelta(hours=20),
    ) -> Store:
        """Open (or create) the file, switch on WAL and foreign keys, apply pending migrations."""
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    # Wallets

    async def wallet(self, guild_id: int, user_id: int) -> Wallet:
        """The player's wallet, created on first use with the starting balance (a ledger grant)."""
        raise NotImplementedError

    async def balance(self, guild_id: int, user_id: int) -> int:
        """Chips in the wallet (not counting seats); creates the wallet like ``wallet()``."""
        raise NotImplementedError

    async def claim_daily(self, guild_id: int, user_id: int, now: datetime | None = None) -> int:
        """Add the daily grant and return the new balance; ``DailyNotReady`` inside the cooldown."""
        raise NotImplementedError

    async def grant(self, guild_id: int, user_id: int, amount: int, *, reason: str, by: int) -> int:
        """An admin's grant of ``amount`` (1..MAX_AMOUNT) chips; returns the new balance."""
        raise NotImplementedError

    # Tables

    async def open_table(
        self,
        channel_id: int,
        guild_id: int,
        opener_id: int,
        *,
        max_seats: int,
        min_buy_in: int,
        max_buy_in: int,
        settings: Mapping[str, Any] | None = None,
    ) -> Table:
        """Open the channel's table. ``settings`` (stakes, turn time, ...) is stored as JSON.

        ``TableExists`` if the channel has one; ``InvalidTableConfig`` for seats outside 2..8 or
        buy-in limits that aren't ``1 <= min_buy_in <= max_buy_in <= MAX_AMOUNT``.
        """
        raise NotImplementedError

    async def close_table(self, channel_id: int) -> dict[int, int]:
        """Close the table between hands, cashing every seat out; returns user id -> chips.

        ``NoTable``; ``HandInProgress`` while a hand is live.
        """
        raise NotImplementedError

    async def get_table(self, channel_id: int) -> Table | None:
        raise NotImplementedError

    async def tables(self) -> list[Table]:
        """Every open table (for startup)."""
        raise NotImplementedError

    # Seats

    async def sit(self, channel_id: int, user_id: int, buy_in: int) -> Seat:
        """Move ``buy_in`` chips from the wallet to a new seat (the lowest free position).

        ``NoTable``, ``InvalidAmount``, ``BuyInOutOfRange``, ``AlreadySeated``, ``TableFull``,
        ``NotEnoughChips``.
        """
        raise NotImplementedError

    async def leave(self, channel_id: int, user_id: int) -> int:
        """Cash the seat out to the wallet and free it; returns the chips moved.

        ``NoTable``, ``NotSeated``; ``PlayerInHand`` while his chips are in the live hand (mark
        him with ``set_leaving`` instead: the hand's end cashes him out).
        """
        raise NotImplementedError

    async def seats(self, channel_id: int) -> list[Seat]:
        """The table's seats by position (empty list when there is no table)."""
        raise NotImplementedError

    async def set_sitting_out(self, channel_id: int, user_id: int, sitting_out: bool) -> Seat:
        """``NoTable``, ``NotSeated``."""
        raise NotImplementedError

    async def set_leaving(self, channel_id: int, user_id: int, leaving: bool) -> Seat:
        """Ask to be cashed out when the current hand ends. ``NoTable``, ``NotSeated``."""
        raise NotImplementedError

    # Hands

    async def start_hand(
        self,
        channel_id: int,
        players: Sequence[tuple[int, int]],
        state: Mapping[str, Any],
        *,
        commitment: str,
        salt: str,
        now: datetime | None = None,
    ) -> int:
        """Record a new hand and move the players' stacks into it, in one transaction.

        ``players[i] = (user_id, stack)`` for engine seat ``i``: the stacks the StudHand was
        built with, which must equal those seats' current stacks (else ``SeatsChanged``).
        ``state`` is ``StudHand.to_dict()`` before any action. Returns the hand id.
        ``NoTable``, ``HandInProgress``, ``SeatsChanged``.
        """
        raise NotImplementedError

    async def save_action(self, hand_id: int, state: Mapping[str, Any]) -> int:
        """Replace the hand's state after one action (one transaction); returns the new version.

        ``HandNotFound``, ``HandNotLive``.
        """
        raise NotImplementedError

    async def settle_hand(
        self, hand_id: int, state: Mapping[str, Any], final_stacks: Sequence[int]
    ) -> HandEnd:
        """End the hand: ``final_stacks[i]`` (engine seat order) go back on the seats, seats
        marked leaving are cashed out, and the hand is closed, all in one transaction.

        Exactly once: a hand that already ended raises ``HandNotLive`` and pays nothing.
        ``ChipsNotConserved`` if the final stacks don't add up to the chips that entered.
        """
        raise NotImplementedError

    async def void_hand(self, hand_id: int, *, reason: str) -> HandEnd:
        """End the hand giving every player back his starting stack (e.g. a state that can't
        be restored). ``HandNotFound``, ``HandNotLive``.
        """
        raise NotImplementedError

    async def live_hands(self) -> list[HandRecord]:
        """Every hand in progress with its last committed state (restart recovery)."""
        raise NotImplementedError

    async def get_hand(self, hand_id: int) -> HandRecord:
        """``HandNotFound``."""
        raise NotImplementedError

    async def last_hand_for(
        self, user_id: int, *, guild_id: int | None = None
    ) -> HandRecord | None:
        """The latest hand the player was dealt into (in that guild, if given)."""
        raise NotImplementedError

    # Reports

    async def leaderboard(
        self, guild_id: int, *, limit: int = 10, user_id: int | None = None
    ) -> Leaderboard:
        """Top ``limit`` players by wallet + seated chips, and ``user_id``'s own rank."""
        raise NotImplementedError

    async def audit(self) -> AuditTotals:
        """Check conservation and that every balance equals its ledger history.

        Raises ``AuditFailed`` naming the first mismatch.
        """
        raise NotImplementedError

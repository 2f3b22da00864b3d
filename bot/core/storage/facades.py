"""The store's facades, one per domain (``store.wallets``, ``store.seating``, ``store.hands``,
``store.players``, ``store.reports``): each method is one transaction of the kind its work
needs (``backend.py``), calling the domain modules' functions on that transaction's connection.

Methods raise a ``StoreError`` subclass (readable ``str()``) for anything a player can get
wrong, and then nothing has changed. Times are timezone-aware UTC datetimes. Arguments that
can be checked without the database are checked before the transaction starts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from bot.core.storage import hands, house, players, reports, seating, wallets
from bot.core.storage.backend import Backend
from bot.core.storage.common import aware, check_amount, is_int, utcnow
from bot.core.storage.errors import HandInProgress, PlayerInHand
from bot.core.storage.guilds import Guilds
from bot.core.storage.models import (
    ChipsTaken,
    DailyClaim,
    HandEnd,
    HandFacts,
    HandRecord,
    HouseReport,
    Leaderboard,
    PlayerStats,
    Season,
    SeasonReset,
    Seat,
    TableLedger,
    TableRecord,
    Wallet,
)


class Economy(Protocol):
    """The store's economy, read when each call runs (``Store`` has them)."""

    starting_balance: int
    daily_amount: int
    daily_cooldown: timedelta


class Wallets:
    """``store.wallets``: a player's chips in a guild, the daily grant, admins' grants and
    takes, and the guild's seasons."""

    def __init__(self, backend: Backend, settings: Economy) -> None:
        self._backend = backend
        self._settings = settings

    async def get(self, guild_id: int, user_id: int) -> Wallet:
        """The player's wallet, created on first use with the starting balance (a ledger grant)."""
        now = utcnow()
        async with self._backend.write(guild_id) as db:
            await wallets.ensure(db, guild_id, user_id, now, self._settings.starting_balance)
            row = await wallets.row(db, guild_id, user_id)
        return wallets.to_wallet(row, now, self._settings.daily_cooldown)

    async def balance(self, guild_id: int, user_id: int) -> int:
        """Chips in the wallet (not counting seats); creates the wallet like ``get()``."""
        return (await self.get(guild_id, user_id)).balance

    async def claim_daily(
        self, guild_id: int, user_id: int, now: datetime | None = None
    ) -> DailyClaim:
        """Add the daily grant; ``DailyNotReady`` inside the cooldown.

        A claim made within :data:`wallets.STREAK_GRACE` of the moment it became possible
        continues the streak of days in a row; a later one starts it again at 1."""
        now = aware(now)
        async with self._backend.write(guild_id) as db:
            await wallets.ensure(db, guild_id, user_id, now, self._settings.starting_balance)
            return await wallets.claim_daily(
                db,
                guild_id,
                user_id,
                now,
                amount=self._settings.daily_amount,
                cooldown=self._settings.daily_cooldown,
            )

    async def grant(self, guild_id: int, user_id: int, amount: int, *, reason: str, by: int) -> int:
        """An admin's grant of ``amount`` (1..MAX_AMOUNT) chips; returns the new balance."""
        check_amount(amount)
        now = utcnow()
        async with self._backend.write(guild_id) as db:
            await wallets.ensure(db, guild_id, user_id, now, self._settings.starting_balance)
            return await wallets.grant(db, guild_id, user_id, amount, reason=reason, by=by, now=now)

    async def take(
        self, guild_id: int, user_id: int, amount: int, *, reason: str, by: int
    ) -> ChipsTaken:
        """An admin takes up to ``amount`` (1..MAX_AMOUNT) chips out of the wallet, all it has
        if that is less, burning them (a logged ``admin_take``); what the player has at tables
        is never touched. ``NothingToTake`` for an empty wallet."""
        check_amount(amount)
        now = utcnow()
        async with self._backend.write(guild_id) as db:
            await wallets.ensure(db, guild_id, user_id, now, self._settings.starting_balance)
            return await wallets.take(db, guild_id, user_id, amount, reason=reason, by=by, now=now)

    async def season(self, guild_id: int) -> Season:
        """The guild's current season (the first until ``reset_season``)."""
        async with self._backend.read() as db:
            return await wallets.season(db, guild_id)

    async def reset_season(
        self, guild_id: int, *, by: int, now: datetime | None = None
    ) -> SeasonReset:
        """Start the guild's next season: every wallet of the guild back to the starting chips
        (the difference logged as a ``season_reset``, minted or burned), chips at tables
        untouched. Stats and leaderboards count from zero in the new season; the old one's stay
        under its number."""
        now = aware(now)
        async with self._backend.write(guild_id) as db:
            return await wallets.reset_season(
                db, guild_id, by=by, now=now, starting_balance=self._settings.starting_balance
            )


class SeatRecords:
    """``store.seating``: a channel's table, and the players' seats at it."""

    def __init__(self, backend: Backend, settings: Economy, guilds: Guilds) -> None:
        self._backend = backend
        self._settings = settings
        self._guilds = guilds  # the server of each channel: its writes lock that server only

    async def open(
        self,
        channel_id: int,
        guild_id: int,
        opener_id: int,
        *,
        max_seats: int,
        min_buy_in: int,
        max_buy_in: int,
        settings: Mapping[str, Any] | None = None,
    ) -> TableRecord:
        """Open the channel's table. ``settings`` (stakes, turn time, ...) is stored as JSON.

        ``TableExists`` if the channel has one; ``InvalidTableConfig`` for seats outside 2..8 or
        buy-in limits that aren't ``1 <= min_buy_in <= max_buy_in <= MAX_AMOUNT``."""
        seating.check_config(max_seats, min_buy_in, max_buy_in)
        settings_json = seating.encode_settings(settings)
        now = utcnow()
        async with self._backend.write(guild_id) as db:
            return await seating.open_table(
                db,
                channel_id,
                guild_id,
                opener_id,
                max_seats=max_seats,
                min_buy_in=min_buy_in,
                max_buy_in=max_buy_in,
                settings_json=settings_json,
                now=now,
            )

    async def close(self, channel_id: int) -> dict[int, int]:
        """Close the table between hands, cashing every seat out; returns user id -> chips.
        ``NoTable``; ``HandInProgress`` while a hand is live."""
        now = utcnow()
        async with self._backend.write(await self._guilds.of_channel(channel_id)) as db:
            table = await seating.require_table(db, channel_id)
            if await hands.live_id(db, table["id"]) is not None:
                raise HandInProgress(channel_id)
            return await seating.close_table(db, table, now)

    async def table(self, channel_id: int) -> TableRecord | None:
        """The channel's open table."""
        async with self._backend.read() as db:
            row = await seating.table_row(db, channel_id)
        return None if row is None else seating.to_table(row)

    async def tables(self) -> list[TableRecord]:
        """Every open table (for startup)."""
        async with self._backend.read() as db:
            return await seating.open_tables(db)

    async def set_messages(self, messages: Mapping[int, int]) -> None:
        """Remember the message that shows each open table: ``messages`` maps a channel id to
        its message id. The channels may be several servers': each update is a statement of its
        own, waiting for no server's writers (no write reads a message id to decide)."""
        async with self._backend.single() as db:
            await seating.set_messages(db, messages)

    async def sit(self, channel_id: int, user_id: int, buy_in: int) -> Seat:
        """Move ``buy_in`` chips from the wallet to a new seat (the lowest free position).

        ``NoTable``, ``InvalidAmount``, ``BuyInOutOfRange``, ``AlreadySeated``, ``TableFull``,
        ``NotEnoughChips``.
        """
        check_amount(buy_in)
        now = utcnow()
        async with self._backend.write(await self._guilds.of_channel(channel_id)) as db:
            table = await seating.require_table(db, channel_id)
            position = await seating.free_position(db, table, user_id, buy_in)
            guild_id = table["guild_id"]
            await wallets.ensure(db, guild_id, user_id, now, self._settings.starting_balance)
            await wallets.to_seat(db, guild_id, user_id, buy_in)
            await seating.add_seat(db, table, user_id, position, buy_in, now)
        return Seat(channel_id, user_id, position, buy_in, sitting_out=False, leaving=False)

    async def leave(self, channel_id: int, user_id: int) -> int:
        """Cash the seat out to the wallet and free it; returns the chips moved.

        ``NoTable``, ``NotSeated``; ``PlayerInHand`` while his chips are in the live hand (mark
        him with ``set_leaving`` instead: the hand's end cashes him out)."""
        now = utcnow()
        async with self._backend.write(await self._guilds.of_channel(channel_id)) as db:
            table = await seating.require_table(db, channel_id)
            await seating.require_seat(db, table, user_id)
            hand_id = await hands.live_id(db, table["id"])
            if hand_id is not None and await hands.dealt_in(db, hand_id, user_id):
                raise PlayerInHand(channel_id, user_id)
            return await seating.cash_out(db, table, user_id, now, "left the table")

    async def seats(self, channel_id: int) -> list[Seat]:
        """The table's seats by position (empty list when there is no table)."""
        async with self._backend.read() as db:
            return await seating.seats(db, channel_id)

    async def set_sitting_out(self, channel_id: int, user_id: int, sitting_out: bool) -> Seat:
        """``NoTable``, ``NotSeated``."""
        return await self._set_flag(channel_id, user_id, "sitting_out", sitting_out)

    async def set_leaving(self, channel_id: int, user_id: int, leaving: bool) -> Seat:
        """Ask to be cashed out when the current hand ends. ``NoTable``, ``NotSeated``."""
        return await self._set_flag(channel_id, user_id, "leaving", leaving)

    async def set_time_banks(self, channel_id: int, banks: Mapping[int, float]) -> None:
        """Remember the seconds left in seated players' time banks (user id -> seconds)."""
        if any(not 0 <= seconds < float("inf") for seconds in banks.values()):
            raise ValueError("a time bank holds zero or more seconds")
        async with self._backend.write(await self._guilds.of_channel(channel_id)) as db:
            table = await seating.require_table(db, channel_id)
            await seating.set_time_banks(db, table, banks)

    async def _set_flag(self, channel_id: int, user_id: int, column: str, on: bool) -> Seat:
        async with self._backend.write(await self._guilds.of_channel(channel_id)) as db:
            table = await seating.require_table(db, channel_id)
            row = await seating.set_flag(db, table, user_id, column, on)
        return seating.to_seat(channel_id, row)


class HandRecords:
    """``store.hands``: a hand from its deal to its settlement, and the hands played."""

    def __init__(self, backend: Backend, guilds: Guilds) -> None:
        self._backend = backend
        self._guilds = guilds  # the server of each hand: its writes lock that server only

    async def start(
        self,
        channel_id: int,
        players: Sequence[tuple[int, int]],
        state: bytes,
        *,
        commitment: str,
        salt: str,
        settings: Mapping[str, Any] | None = None,
        now: datetime | None = None,
    ) -> int:
        """Record a new hand and move the players' stacks into it, in one transaction.

        ``players[i] = (user_id, stack)`` for engine seat ``i``: the stacks the StudHand was
        built with, which must equal those seats' current stacks (else ``SeatsChanged``).
        ``state`` is the hand saved before any action (``engine.codec.encode``; the store never
        reads inside it). ``settings``, if given, replace the table's (what changes with each
        hand dealt, as a mixed game's rotation, is saved with that hand). Returns the hand id.
        ``NoTable``, ``HandInProgress``, ``SeatsChanged``.
        """
        hands.check_players(players)
        now = aware(now)
        hands.check_state(state)
        async with self._backend.write(await self._guilds.of_channel(channel_id)) as db:
            table = await seating.require_table(db, channel_id)
            if await hands.live_id(db, table["id"]) is not None:
                raise HandInProgress(channel_id)
            hand_id = await hands.insert(
                db, table, state, commitment=commitment, salt=salt, now=now
            )
            await seating.take_stacks(db, table, players)
            if settings is not None:
                await seating.set_settings(db, table, settings)
            await hands.deal_in(db, table, hand_id, players, now)
        return hand_id

    async def save_action(self, hand_id: int, state: bytes) -> int:
        """Replace the hand's saved state after one action (one transaction); returns the new
        version. ``HandNotFound``, ``HandNotLive``."""
        hands.check_state(state)
        # One statement is a transaction of its own: the busiest write of a table costs one
        # trip to the database instead of three.
        async with self._backend.single() as db:
            version = await hands.save_action(db, hand_id, state, utcnow())
        if version is None:
            # Nothing matched: say why. A hand that exists never comes back to life once ended.
            async with self._backend.read() as db:
                await hands.require_live(db, hand_id)
            raise AssertionError(f"hand #{hand_id} is live but its state was not saved")
        return version

    async def settle(
        self,
        hand_id: int,
        state: bytes,
        final_stacks: Sequence[int],
        *,
        facts: HandFacts | None = None,
        now: datetime | None = None,
    ) -> HandEnd:
        """End the hand: ``final_stacks[i]`` (engine seat order) go back on the seats, seats
        marked leaving are cashed out, and the hand is closed, all in one transaction.

        With ``facts`` (the tables always give them), the same transaction counts the hand in
        its players' stats, in the guild's current season, for the day, week and month of
        ``now`` and the whole season; a hand settled without them (a state the engine can't
        replay, as storage tests write) counts in no stats.

        Exactly once: a hand that already ended raises ``HandNotLive`` and pays nothing.
        ``ChipsNotConserved`` if the final stacks don't add up to the chips that entered."""
        hands.check_final_stacks(final_stacks)
        hands.check_state(state)
        if facts is not None:
            reports.check_facts(facts, len(final_stacks))
        return await self._end(hand_id, state, list(final_stacks), "", facts, aware(now))

    async def void(self, hand_id: int, *, reason: str) -> HandEnd:
        """End the hand giving every player back his starting stack (e.g. a state that can't
        be restored); it counts in no stats. ``HandNotFound``, ``HandNotLive``."""
        return await self._end(hand_id, None, None, reason.strip() or "hand voided", None, utcnow())

    async def last_at(self, channel_id: int) -> int | None:
        """The latest hand dealt at the channel's open table: after a restart, its dealer moves
        on from there (RULES 1.4), and a tournament table's level is read from it (11.2)."""
        async with self._backend.read() as db:
            return await hands.last_at(db, channel_id)

    async def live(self) -> list[HandRecord]:
        """Every hand in progress with its last committed state (restart recovery)."""
        async with self._backend.read() as db:
            return await hands.live(db)

    async def get(self, hand_id: int) -> HandRecord:
        """``HandNotFound``."""
        async with self._backend.read() as db:
            return await hands.get(db, hand_id)

    async def last_for(
        self,
        user_id: int,
        *,
        guild_id: int | None = None,
        finished: bool = False,
        tournament_id: int | None = None,
    ) -> HandRecord | None:
        """The latest hand the player was dealt into (in that guild, at that tournament's
        tables, if given; one that has ended, if ``finished``)."""
        async with self._backend.read() as db:
            return await hands.last_for(db, user_id, guild_id, finished, tournament_id)

    async def settled_for(
        self,
        user_id: int,
        *,
        guild_id: int,
        limit: int,
        channel_id: int | None = None,
        before: int | None = None,
    ) -> list[HandRecord]:
        """The player's latest ``limit`` settled hands in the guild, newest first; with
        ``channel_id``, only those at that channel's latest table (as ``table_ledger`` finds
        it); with ``before``, only hands numbered below it (the next page, after a page whose
        last hand was ``before``). Voided hands never ended at the table, so they have no
        history to give."""
        if not is_int(limit) or limit < 1:
            raise ValueError(f"limit must be a positive whole number, not {limit!r}")
        below = hands.NO_HAND_ABOVE if before is None else before
        async with self._backend.report() as db:
            if channel_id is None:
                return await hands.settled_in_guild(db, user_id, guild_id, below, limit)
            table = await seating.latest_table_row(db, channel_id)
            if table is None or table["guild_id"] != guild_id:
                return []
            return await hands.settled_at_table(db, user_id, table, below, limit)

    async def _end(
        self,
        hand_id: int,
        state: bytes | None,
        final_stacks: list[int] | None,
        void_reason: str,
        facts: HandFacts | None,
        now: datetime,
    ) -> HandEnd:
        """Settle (``final_stacks`` given) or void (None) a live hand in one transaction: the
        hand ends, its stacks go back on the seats, the wallets count the results, the stats
        count the hand, and the players leaving are cashed out."""
        async with self._backend.write(await self._guilds.of_hand(hand_id)) as db:
            ending = await hands.end(db, hand_id, state, final_stacks, void_reason, now)
            table = await seating.table_by_id(db, ending.table_id)
            await seating.return_stacks(db, table, hand_id, ending.stacks())
            nets = ending.nets()
            # A tournament's chips are not the wallets' and its hands count in no cash stats
            # (RULES 11.1).
            if table["tournament_id"] is None:
                await wallets.add_results(db, ending.guild_id, nets)
                if facts is not None:
                    await reports.count_hand(db, ending.guild_id, hand_id, facts, nets, now)
            cashed_out = await seating.cash_out_leaving(db, table, now)
        return ending.result(cashed_out)


class PlayerRecords:
    """``store.players``: the names players go by, and their own display preferences. A
    player's preferences are his own on every server: each is one upsert of his row, atomic on
    both databases, with nothing read to decide it, so it waits for no server's writers."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend

    async def save_name(self, guild_id: int, user_id: int, name: str) -> None:
        """Remember the name ``user_id`` goes by on ``guild_id`` (as Discord last showed it)."""
        players.check_name(name)
        async with self._backend.write(guild_id) as db:
            await players.save_name(db, guild_id, user_id, name, utcnow())

    async def names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
        """The saved names of those of ``user_ids`` the bot has seen on ``guild_id``."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        async with self._backend.read() as db:
            return await players.names(db, guild_id, wanted)

    async def four_colour(self, user_id: int) -> bool:
        """Whether the user chose the four-colour deck for his own pictures (default: no)."""
        async with self._backend.read() as db:
            return await players.four_colour(db, user_id)

    async def set_four_colour(self, user_id: int, four_colour: bool) -> None:
        async with self._backend.single() as db:
            await players.set_four_colour(db, user_id, four_colour)

    async def preferences(self, user_id: int) -> players.Preferences:
        """The user's deck and whether he shows every hand at a showdown (RULES 5.6)."""
        async with self._backend.read() as db:
            return await players.preferences(db, user_id)

    async def set_always_show(self, user_id: int, always_show: bool) -> None:
        async with self._backend.single() as db:
            await players.set_always_show(db, user_id, always_show)


class ReportQueries:
    """``store.reports``: leaderboards, a player's stats and a table's ledger. Each is a
    ``report()``: on SQLite it reads in a thread of its own, so the tables don't wait for it."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend

    async def leaderboard(
        self, guild_id: int, *, limit: int = 10, user_id: int | None = None
    ) -> Leaderboard:
        """Top ``limit`` players by wallet + seated chips, and ``user_id``'s own rank."""
        reports.check_limit(limit)
        async with self._backend.report() as db:
            return await reports.leaderboard(db, guild_id, limit=limit, user_id=user_id)

    async def winnings(
        self,
        guild_id: int,
        *,
        period: str = "all",
        game: str | None = None,
        limit: int = 10,
        user_id: int | None = None,
        now: datetime | None = None,
    ) -> Leaderboard:
        """Top ``limit`` players by net chips won at the tables over ``period`` (the day, week
        or month of ``now``, or the whole season) of the guild's current season, in ``game``
        (None: every game), and ``user_id``'s own rank (None if he played no hand then)."""
        reports.check_limit(limit)
        checked, since, key = reports.period_bounds(period, game, aware(now).date())
        async with self._backend.report() as db:
            return await reports.winnings(
                db,
                guild_id,
                period=checked,
                since=since,
                game=game,
                key=key,
                limit=limit,
                user_id=user_id,
            )

    async def tournament_board(
        self,
        guild_id: int,
        *,
        period: str = "all",
        game: str | None = None,
        limit: int = 10,
        user_id: int | None = None,
        now: datetime | None = None,
    ) -> Leaderboard:
        """Top ``limit`` by tournament prizes minus buy-ins, as ``winnings`` takes its
        arguments (``user_id``'s rank None if he finished no tournament in the period)."""
        reports.check_limit(limit)
        checked, since, _ = reports.period_bounds(period, game, aware(now).date())
        async with self._backend.report() as db:
            return await reports.tournament_board(
                db, guild_id, period=checked, since=since, game=game, limit=limit, user_id=user_id
            )

    async def player_stats(
        self,
        guild_id: int,
        user_id: int,
        *,
        period: str = "all",
        game: str | None = None,
        now: datetime | None = None,
    ) -> PlayerStats:
        """A player's figures over ``period`` of the guild's current season (as ``winnings``
        takes it): in ``game`` (None: every game together) and per game, and his net in each of
        his last hands of the period (at most :data:`reports.RECENT_HANDS`, oldest first), and
        his results in the tournaments that finished in the period."""
        checked, since, key = reports.period_bounds(period, game, aware(now).date())
        async with self._backend.report() as db:
            return await reports.player_stats(
                db, guild_id, user_id, period=checked, since=since, game=game, key=key
            )

    async def table_ledger(self, channel_id: int) -> TableLedger | None:
        """Every player who sat at the channel's table since it opened, from its ledger rows:
        the open table's, else the one closed there last; ``None`` if the channel never had
        one."""
        async with self._backend.report() as db:
            return await reports.table_ledger(db, channel_id)


class HouseWallet:
    """``store.house_wallet``: a server's house wallet and the computer players it stakes
    (``house.py``)."""

    def __init__(self, backend: Backend, settings: Economy, guilds: Guilds) -> None:
        self._backend = backend
        self._settings = settings
        self._guilds = guilds  # the server of each channel: its writes lock that server only

    async def fund(self, guild_id: int, amount: int, *, by: int, reason: str = "") -> int:
        """An admin's grant to the house; returns its balance."""
        check_amount(amount)
        now = utcnow()
        async with self._backend.write(guild_id) as db:
            await wallets.ensure(db, guild_id, house.HOUSE, now, 0)
            return await wallets.grant(
                db, guild_id, house.HOUSE, amount, reason=reason or "house funded", by=by, now=now
            )

    async def empty(self, guild_id: int, amount: int, *, by: int, reason: str = "") -> ChipsTaken:
        """An admin takes up to ``amount`` out of the house wallet (what its computer players
        have at tables stays there). ``NothingToTake`` for an empty house."""
        check_amount(amount)
        now = utcnow()
        async with self._backend.write(guild_id) as db:
            await wallets.ensure(db, guild_id, house.HOUSE, now, 0)
            return await wallets.take(
                db, guild_id, house.HOUSE, amount, reason=reason or "house emptied", by=by, now=now
            )

    async def report(self, guild_id: int) -> HouseReport:
        async with self._backend.read() as db:
            return await house.report(db, guild_id)

    async def seat_bot(self, channel_id: int, bot_id: int, buy_in: int) -> Seat:
        """Stake a computer player ``buy_in`` from the house and seat it (the lowest free
        position), in one transaction. ``HouseEmpty``, and what ``SeatRecords.sit`` raises."""
        check_amount(buy_in)
        if not house.is_bot(bot_id):
            raise ValueError(f"computer players have negative ids, not {bot_id}")
        now = utcnow()
        async with self._backend.write(await self._guilds.of_channel(channel_id)) as db:
            table = await seating.require_table(db, channel_id)
            position = await seating.free_position(db, table, bot_id, buy_in)
            guild_id = table["guild_id"]
            reason = f"staked a computer player in channel {channel_id}"
            await house.stake(db, guild_id, bot_id, buy_in, now, reason)
            await wallets.to_seat(db, guild_id, bot_id, buy_in)
            await seating.add_seat(db, table, bot_id, position, buy_in, now)
        return Seat(channel_id, bot_id, position, buy_in, sitting_out=False, leaving=False)

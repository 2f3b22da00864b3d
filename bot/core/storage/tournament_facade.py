"""``store.tournaments``: the facade of ``tournaments.py``, each method one transaction.

A tournament's tables are ordinary tables (``store.seating``, ``store.hands`` deal and settle
their hands) marked with its id; what only a tournament does to them is here: opening them at
the start, seating entrants with tournament chips, moving players between them, closing those
that break, and the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal, Protocol

from bot.core.storage import hands, seating, tournaments
from bot.core.storage.backend import Backend
from bot.core.storage.common import (
    MAX_AMOUNT,
    aware,
    check_amount,
    is_amount,
    is_int,
    ts,
    utcnow,
)
from bot.core.storage.errors import InvalidTableConfig
from bot.core.storage.guilds import Guilds
from bot.core.storage.house import is_bot
from bot.core.storage.models import Tournament, TournamentEntry, TournamentTable

# A table's seats by number from 1, as ``engine.tournament`` deals them: a player or None.
Seats = Sequence[int | None]
# (player, channel he leaves, channel he goes to, seat number from 1 there)
Relocation = tuple[int, int, int, int]


class _Settings(Protocol):
    starting_balance: int


class TournamentRecords:
    """``store.tournaments``. Errors as the other facades': a ``StoreError`` changed nothing."""

    def __init__(self, backend: Backend, settings: _Settings, guilds: Guilds) -> None:
        self._backend = backend
        self._settings = settings
        # A tournament is its server's (its pool, its tables, its house's stakes): its writes
        # lock that server only.
        self._guilds = guilds

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        *,
        game: str,
        structure: str,
        level_unit: Literal["seconds", "hands"],
        level_length: int,
        starting_stack: int,
        buy_in: int,
        seats: int,
        seed: int,
        curve: str = "standard",
        start_entrants: int | None = None,
        start_at: datetime | None = None,
        late_level: int | None = None,
        reentry: bool = False,
        settings: Mapping[str, Any] | None = None,
        bots: Sequence[int] = (),
    ) -> Tournament:
        """A new tournament, open for registration, with the computer players ``bots`` entered
        in the same transaction, their buy-ins from the house (``HouseCannotCover``).
        ``InvalidTableConfig`` for settings out of range, not exactly one of ``start_entrants``
        (a sit-and-go) and ``start_at``, or a sit-and-go that bots alone would start.
        ``settings`` (its tables' turn time, language...) are kept as JSON."""
        problems = [
            (not is_int(seats) or not 2 <= seats <= seating.MAX_SEATS, "a table has 2 to 8 seats"),
            (not is_amount(starting_stack), f"a starting stack is 1 to {MAX_AMOUNT:,} chips"),
            (not is_amount(buy_in, allow_zero=True), f"a buy-in is 0 to {MAX_AMOUNT:,} chips"),
            (level_unit not in ("seconds", "hands"), "levels last seconds or hands"),
            (not is_int(level_length) or level_length < 1, "a level lasts at least 1"),
            ((start_entrants is None) == (start_at is None), "it starts at a number or a time"),
            (start_entrants is not None and start_entrants < 2, "it needs at least 2 players"),
            (reentry and late_level is None, "re-entry needs a level it closes at"),
            (late_level is not None and late_level < 1, "levels are numbered from 1"),
            (not is_int(seed) or not 0 <= seed < 2**62, "a seed is 0 to 2**62"),
            (
                len(set(bots)) != len(bots) or not all(is_int(b) and is_bot(b) for b in bots),
                "computer players are distinct negative ids",
            ),
            (
                start_entrants is not None and len(bots) >= start_entrants,
                "a sit-and-go waits for at least one person",
            ),
        ]
        for bad, problem in problems:
            if bad:
                raise InvalidTableConfig(problem)
        columns: dict[str, Any] = {
            "guild_id": guild_id,
            "channel_id": channel_id,
            "organiser_id": organiser_id,
            "game": game,
            "structure": structure,
            "curve": curve,
            "level_unit": level_unit,
            "level_length": level_length,
            "starting_stack": starting_stack,
            "buy_in": buy_in,
            "seats": seats,
            "start_entrants": start_entrants,
            "start_at": None if start_at is None else ts(aware(start_at)),
            "late_level": late_level,
            "reentry": int(reentry),
            "seed": seed,
            "settings": seating.encode_settings(settings),
        }
        async with self._backend.write(guild_id) as db:
            now = utcnow()
            tournament_id = await tournaments.create(db, columns, now)
            row = await tournaments.require(db, tournament_id)
            await tournaments.enter_bots(db, row, bots, now)
            return tournaments.to_tournament(await tournaments.require(db, tournament_id))

    async def get(self, tournament_id: int, *, guild_id: int | None = None) -> Tournament:
        """``NoTournament`` (also for another guild's, when ``guild_id`` is given)."""
        async with self._backend.read() as db:
            return tournaments.to_tournament(await tournaments.require(db, tournament_id, guild_id))

    async def active(self) -> list[Tournament]:
        """Every tournament registering or running (for startup)."""
        async with self._backend.read() as db:
            return await tournaments.active(db)

    async def entries(self, tournament_id: int) -> list[TournamentEntry]:
        async with self._backend.read() as db:
            return await tournaments.entries(db, tournament_id)

    async def tables(self, tournament_id: int) -> list[TournamentTable]:
        """Its open tables by number."""
        async with self._backend.read() as db:
            return await tournaments.tables(db, tournament_id)

    async def register(self, tournament_id: int, user_id: int, *, guild_id: int) -> Tournament:
        """Enter, the buy-in moving from the wallet into the prize pool; returns the tournament
        as it is now. ``NoTournament``, ``RegistrationClosed``, ``AlreadyRegistered``,
        ``NotEnoughChips``."""
        async with self._backend.write(guild_id) as db:
            tournament = await tournaments.require(db, tournament_id, guild_id)
            await tournaments.register(
                db, tournament, user_id, utcnow(), self._settings.starting_balance
            )
            return tournaments.to_tournament(await tournaments.require(db, tournament_id))

    async def unregister(self, tournament_id: int, user_id: int, *, guild_id: int) -> int:
        """Leave before the start, the buy-in back; returns the chips given back.
        ``NoTournament``, ``TournamentStarted``, ``NotRegistered``."""
        async with self._backend.write(guild_id) as db:
            tournament = await tournaments.require(db, tournament_id, guild_id)
            return await tournaments.unregister(db, tournament, user_id, utcnow())

    async def cancel(self, tournament_id: int, *, guild_id: int) -> dict[int, int]:
        """Call it off before the start: every buy-in back in this one transaction; returns
        user id -> chips. ``NoTournament``, ``TournamentStarted``."""
        async with self._backend.write(guild_id) as db:
            tournament = await tournaments.require(db, tournament_id, guild_id)
            return await tournaments.cancel(db, tournament, utcnow())

    async def add_to_pool(
        self, tournament_id: int, user_id: int, amount: int, *, guild_id: int, grant: bool
    ) -> Tournament:
        """Add ``amount`` to its prize pool (11.1), from ``user_id``'s wallet or as his grant;
        returns the tournament as it is now. ``InvalidAmount``, ``NoTournament``,
        ``NotEnoughChips``."""
        check_amount(amount)
        async with self._backend.write(guild_id) as db:
            tournament = await tournaments.require(db, tournament_id, guild_id)
            await tournaments.add_to_pool(
                db,
                tournament,
                user_id,
                amount,
                utcnow(),
                self._settings.starting_balance,
                grant=grant,
            )
            return tournaments.to_tournament(await tournaments.require(db, tournament_id))

    async def start(
        self,
        tournament_id: int,
        tables: Mapping[int, tuple[int, Seats]],
        settings: Mapping[str, Any],
    ) -> None:
        """Start it: table ``number -> (channel, seats)`` opened with ``settings`` (stakes, clock),
        every entrant seated with the starting stack. ``RegistrationClosed`` if it isn't
        registering (started already, or cancelled)."""
        now = utcnow()
        settings_json = seating.encode_settings(settings)
        async with self._backend.write(await self._guilds.of_tournament(tournament_id)) as db:
            tournament = await tournaments.require(db, tournament_id)
            await tournaments.start(db, tournament, now)
            stack = int(tournament["starting_stack"])
            for number, (channel_id, seats) in sorted(tables.items()):
                table = await tournaments.open_table(
                    db, tournament, number, channel_id, settings_json, now
                )
                for user_id, position in tournaments.positions(seats):
                    await tournaments.seat(db, table, user_id, position, stack, now)

    async def enter_late(self, tournament_id: int, user_id: int, channel_id: int, seat: int) -> int:
        """A late registration or a re-entry (11.9): the buy-in paid and the player seated with a
        starting stack in seat ``seat`` (from 1) of the table in ``channel_id``, at once;
        returns his entries. ``RegistrationClosed``, ``NotEnoughChips``."""
        now = utcnow()
        async with self._backend.write(await self._guilds.of_tournament(tournament_id)) as db:
            tournament = await tournaments.require(db, tournament_id)
            count = await tournaments.enter_late(
                db, tournament, user_id, now, self._settings.starting_balance
            )
            table = await tournaments.table_of(db, tournament, channel_id)
            stack = int(tournament["starting_stack"])
            await tournaments.seat(db, table, user_id, seat - 1, stack, now)
            return count

    async def after_hand(
        self,
        tournament_id: int,
        *,
        out: Mapping[int, int],
        moves: Sequence[Relocation],
        closing: Sequence[int] = (),
        elapsed: int | None = None,
    ) -> None:
        """Between hands, at once: the players ``out`` (user id -> place) leave their seats,
        the ``moves`` carry players and stacks to their new seats, the ``closing`` tables (by
        channel) close, empty (11.4, 11.5), and the level clock is saved (``elapsed``)."""
        now = utcnow()
        async with self._backend.write(await self._guilds.of_tournament(tournament_id)) as db:
            tournament = await tournaments.require(db, tournament_id)
            await tournaments.knock_out(db, tournament, out)
            for user_id, source, target, seat in moves:
                await tournaments.move(
                    db,
                    tournament,
                    user_id,
                    await tournaments.table_of(db, tournament, source),
                    await tournaments.table_of(db, tournament, target),
                    seat - 1,
                )
            for channel_id in closing:
                await tournaments.close_table(
                    db, await tournaments.table_of(db, tournament, channel_id), now
                )
            if elapsed is not None:
                await tournaments.set_elapsed(db, tournament_id, max(0, elapsed))

    async def finish(
        self, tournament_id: int, *, places: Mapping[int, int], prizes: Mapping[int, int]
    ) -> None:
        """The end: the last ``places`` written, ``prizes`` (user id -> chips, adding up to the
        pool) paid into the wallets and its tables closed, in one transaction, once."""
        async with self._backend.write(await self._guilds.of_tournament(tournament_id)) as db:
            tournament = await tournaments.require(db, tournament_id)
            await tournaments.finish(db, tournament, places, prizes, utcnow())

    async def set_elapsed(self, tournament_id: int, elapsed: int) -> None:
        """Save the seconds of play so far: a restart resumes the level there (11.8)."""
        async with self._backend.write(await self._guilds.of_tournament(tournament_id)) as db:
            await tournaments.set_elapsed(db, tournament_id, max(0, elapsed))

    async def set_event(self, tournament_id: int, event_id: int) -> None:
        """Remember the Discord scheduled event made for it."""
        async with self._backend.write(await self._guilds.of_tournament(tournament_id)) as db:
            await tournaments.set_event(db, tournament_id, event_id)

    async def set_reminded(self, tournament_id: int) -> bool:
        """The reminder of its start is being sent: True the first time only, so that a
        restart (or another process) never sends it twice."""
        async with self._backend.write(await self._guilds.of_tournament(tournament_id)) as db:
            return await tournaments.set_reminded(db, tournament_id)

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the lobby message that shows the tournament."""
        async with self._backend.write(await self._guilds.of_tournament(tournament_id)) as db:
            await tournaments.set_message(db, tournament_id, message_id)

    async def hands_dealt(self, channel_id: int, *, since: datetime | None = None) -> int:
        """Hands dealt at the channel's table so far (a level's length in hands, 11.2), or
        started after ``since`` (hand-for-hand rounds since the bubble, 11.6)."""
        async with self._backend.read() as db:
            return await hands.dealt_at(db, channel_id, since)

    async def threads(self, tournament_id: int) -> list[int]:
        """The channels (threads) of every table it ever had, open or closed, by number."""
        async with self._backend.read() as db:
            return await tournaments.threads(db, tournament_id)

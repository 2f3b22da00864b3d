"""The tournament desk (``house.tournaments``): creating a tournament, registering and
unregistering, cancelling, and starting it when its entrants are in (RULES 11.1, 11.5).

A running tournament has a :class:`~bot.core.tournament.director.TournamentDirector`. Its tables
are core tables, each in a channel of its own: the core doesn't make channels, so the desk asks
its :class:`Lobby` (the face it was made with) for one per table (on Discord a thread under the
lobby's channel; tests hand out numbers).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime
from functools import partial
from random import Random
from typing import Literal, Protocol, TypeVar

from bot.core.clock import Clock
from bot.core.computer_seats import bot_ids, bot_name
from bot.core.config import TableConfig
from bot.core.dealer import Dealer
from bot.core.errors import TableError
from bot.core.open_tables import OpenTables
from bot.core.players import Players
from bot.core.settings import DEFAULT_TIME_BANK
from bot.core.storage import (
    RegistrationClosed,
    Store,
    Tournament,
    TournamentStarted,
)
from bot.core.storage.house import BOTS_PER_STYLE, is_bot
from bot.core.table import Table
from bot.core.tasks import Tasks
from bot.core.tournament.director import RETRY_SECONDS, TournamentDirector
from bot.core.tournament.readings import (
    dealt_since_bubble,
    finishes_of,
    in_dealing_order,
    late_open,
    restored_outs,
    running_figures,
    table_config,
)
from bot.core.tournament.starter import Starter
from bot.core.views import LobbyView, Registration
from bot.core.watching import Subscription
from engine.tournament import Finish, prize_table, seat_entrants, structure
from strategy import DEFAULT_STYLE, STYLES
from words import EN, Texts

log = logging.getLogger(__name__)
_T = TypeVar("_T")


class Lobby(Protocol):
    """What the desk needs from the face that shows tournaments (on Discord,
    ``bot.edge.lobby.Lobbies``), handed to the house when it is made."""

    async def show(self, view: LobbyView) -> int | None:
        """Post or edit the lobby message; its id (None: not posted)."""
        ...

    async def make_thread(self, tournament: Tournament, number: int) -> int:
        """A thread for table ``number`` under the lobby's channel; its channel id."""
        ...

    async def close_threads(self, channel_ids: Sequence[int]) -> None:
        """A finished tournament's threads, archived."""
        ...

    async def make_event(self, tournament: Tournament) -> int:
        """The server's scheduled event of a tournament at a set time; its id."""
        ...

    async def set_event(self, tournament: Tournament, status: str) -> None:
        """Its event "active", "completed" or "cancelled"."""
        ...

    async def say(self, channel_id: int, text: str, mentions: Sequence[int]) -> None:
        """A line in the lobby's channel, notifying ``mentions``."""
        ...


# The lobby's channel is reminded this long before a set start.
REMINDER_SECONDS = 600
# A set start is at least this far ahead (a minute, less the moments since the user's command
# made it), and at most this far (Discord's events are for the weeks ahead; a tournament
# further off is better announced later).
SOONEST_START = 30
LATEST_START = 28 * 24 * 3600


class Tournaments:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        tasks: Tasks,
        open_tables: OpenTables,
        dealer: Dealer,
        players: Players,
        texts: Texts,
        *,
        lobby: Lobby | None = None,
        owns: Callable[[int], bool] | None = None,
    ) -> None:
        """``lobby`` is the face that shows tournaments (None: none is shown, none starts);
        ``owns`` says whether a server's tournaments are this process's (None: every
        server's)."""
        self._store = store
        self._texts = texts
        self._lobby = lobby
        self._owns = owns
        self._clock = clock
        self._tasks = tasks
        self._open_tables = open_tables
        self._dealer = dealer
        self._players = players
        self.directors: dict[int, TournamentDirector] = {}  # tournament id -> its director
        # tournament id -> the faces watching its lobby beside the edge's message
        self._watching: dict[int, list[Subscription[LobbyView]]] = {}
        self._starter = Starter(
            store, clock, tasks, start=self.start, started=self.directors, shown=self._lobby_changed
        )
        # tournament -> table number -> the thread made for it, kept for a start tried again
        self._threads: dict[int, dict[int, int]] = {}

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        *,
        game: str,
        buy_in: int,
        seats: int,
        level_unit: Literal["seconds", "hands"],
        level_length: int,
        structure_name: str = "standard",
        starting_stack: int | None = None,
        start_entrants: int | None = None,
        start_at: datetime | None = None,
        late_level: int | None = None,
        reentry: bool = False,
        curve: str = "standard",
        turn_seconds: float = 60,
        countdown_seconds: float = 10,
        time_bank: int = DEFAULT_TIME_BANK,
        lang: str = EN,
        seed: int | None = None,
        bots: int = 0,
        bot_style: str | None = None,
        event: bool = False,
    ) -> Tournament:
        """A new tournament, open for registration; its seed (drawn now unless given) is kept
        and seeds every draw of its director (11.5). The organiser's ``bots`` computer players
        of ``bot_style`` are entered at once, their buy-ins from the house.
        One starting at ``start_at`` gets a Discord scheduled event if ``event`` (the bot may
        make one), a reminder in the lobby's channel and its start on time.
        ``TableError`` for a structure that doesn't exist, bots that can't be or a start that
        isn't ahead; the store's errors otherwise (``HouseCannotCover``)."""
        try:
            chosen = structure(structure_name)
        except ValueError:
            raise TableError("illegal_action", reason=structure_name) from None
        style = bot_style or DEFAULT_STYLE.name
        # One style's ids, so that no two of them are the same player; a sit-and-go waits for
        # at least one person (the store checks it too).
        if (
            style not in STYLES
            or not 0 <= bots < BOTS_PER_STYLE
            or (start_entrants is not None and bots >= start_entrants)
        ):
            raise TableError("tournament_bots_bad", most=BOTS_PER_STYLE - 1)
        entered = bot_ids(style)[:bots]
        if start_at is not None:
            ahead = start_at.timestamp() - self._clock.now()
            if not SOONEST_START <= ahead <= LATEST_START:
                raise TableError("tournament_bad_time", days=LATEST_START // 86400)
        tournament = await self._store.tournaments.create(
            guild_id,
            channel_id,
            organiser_id,
            game=game,
            structure=chosen.name,
            curve=curve,
            level_unit=level_unit,
            level_length=level_length,
            starting_stack=chosen.starting_stack if starting_stack is None else starting_stack,
            buy_in=buy_in,
            seats=seats,
            seed=secrets.randbelow(2**62) if seed is None else seed,
            start_entrants=start_entrants,
            start_at=start_at,
            late_level=late_level,
            reentry=reentry,
            settings={
                "turn_seconds": turn_seconds,
                "countdown_seconds": countdown_seconds,
                "time_bank": time_bank,
                "lang": lang,
            },
            bots=entered,
        )
        for bot_id in entered:
            # Saved like a person's name: the lobby, the pictures and histories show it.
            await self._players.seen(guild_id, bot_id, bot_name(self._texts, lang, bot_id))
        if start_at is not None:
            if event and self._lobby is not None:
                tournament = await self._make_event(tournament)
            if start_at.timestamp() - self._clock.now() <= REMINDER_SECONDS:
                # Starting that soon, its lobby, posted now, says it: no reminder.
                await self._store.tournaments.set_reminded(tournament.tournament_id)
            self._tasks.spawn(self._on_time(tournament.tournament_id))
        await self._lobby_changed(tournament.tournament_id)
        return tournament

    async def _make_event(self, tournament: Tournament) -> Tournament:
        """Its scheduled event, if Discord makes it: the tournament goes on without one."""
        assert self._lobby is not None
        try:
            event_id = await self._lobby.make_event(tournament)
        except Exception:
            log.warning(
                "tournament %s: no scheduled event", tournament.tournament_id, exc_info=True
            )
            return tournament
        await self._store.tournaments.set_event(tournament.tournament_id, event_id)
        return replace(tournament, event_id=event_id)

    async def _event_is(self, tournament: Tournament, status: str) -> None:
        """Its scheduled event follows it; a Discord error is only logged."""
        if tournament.event_id is None or self._lobby is None:
            return
        try:
            await self._lobby.set_event(tournament, status)
        except Exception:
            log.warning(
                "tournament %s: its event was not set %s",
                tournament.tournament_id,
                status,
                exc_info=True,
            )

    # ------------------------------------------------------------------ a set start

    async def _on_time(self, tournament_id: int) -> None:
        """Remind the lobby's channel shortly before the start (once, even across restarts),
        then start at the time: with fewer than two entrants, or no person among them, it is
        called off, every buy-in back. After a restart, a start whose time passed while the
        bot was down comes at once, without its reminder."""
        tournament = await self._persist(lambda: self._store.tournaments.get(tournament_id))
        assert tournament.start_at is not None
        start = tournament.start_at.timestamp()
        if not tournament.reminded and self._clock.now() < start:
            await self._clock.sleep(max(0.0, start - REMINDER_SECONDS - self._clock.now()))
            await self._persist(lambda: self._remind(tournament_id))
        await self._clock.sleep(max(0.0, start - self._clock.now()))
        await self._persist(lambda: self._start_on_time(tournament_id))

    async def _persist(self, step: Callable[[], Awaitable[_T]]) -> _T:
        """A step the store (or Discord) refused is tried again after a pause, as the director's
        are: a database away at the start time delays the start, never drops it, nor does one
        away as a started tournament's tables open."""
        attempt = 0
        while True:
            try:
                return await step()
            except Exception:
                log.warning("a tournament's step failed; trying again", exc_info=True)
            await self._clock.sleep(RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)])
            attempt += 1

    async def _remind(self, tournament_id: int) -> None:
        tournament = await self._store.tournaments.get(tournament_id)
        if tournament.state != "registering" or tournament.start_at is None:
            return
        if not await self._store.tournaments.set_reminded(tournament_id):
            return
        people = [
            e.user_id
            for e in await self._store.tournaments.entries(tournament_id)
            if not is_bot(e.user_id)
        ]
        lang = tournament.settings.get("lang", EN)
        text = self._texts.t(
            lang,
            "tournament_reminder",
            tournament_id=tournament_id,
            start=f"<t:{int(tournament.start_at.timestamp())}:R>",
            mentions=" ".join(f"<@{user}>" for user in people) or "—",
        )
        await self._say(tournament.channel_id, text, people)

    async def _say(self, channel_id: int, text: str, mentions: Sequence[int]) -> None:
        if self._lobby is None:
            return
        try:
            await self._lobby.say(channel_id, text, mentions)
        except Exception:
            log.warning("channel %s: a tournament's line was not posted", channel_id, exc_info=True)

    async def _start_on_time(self, tournament_id: int) -> None:
        tournament = await self._store.tournaments.get(tournament_id)
        if tournament.state != "registering":
            return  # called off meanwhile
        entries = await self._store.tournaments.entries(tournament_id)
        if len(entries) >= 2 and any(not is_bot(e.user_id) for e in entries):
            try:
                await self.start(tournament_id)
            except RegistrationClosed:
                return  # another process started it
            await self._lobby_changed(tournament_id)
            return
        try:
            await self._store.tournaments.cancel(tournament_id, guild_id=tournament.guild_id)
        except TournamentStarted:
            return
        lang = tournament.settings.get("lang", EN)
        await self._say(
            tournament.channel_id,
            self._texts.t(lang, "tournament_too_few", tournament_id=tournament_id),
            (),
        )
        await self._event_is(tournament, "cancelled")
        await self._lobby_changed(tournament_id)

    async def register(self, guild_id: int, tournament_id: int, user_id: int) -> Registration:
        """Enter; a sit-and-go starts once its last seat is taken (or, if its start failed,
        at the next entry or retry: the registration stands, ``start_delayed`` says so). While
        it runs, with late registration open: a late entry, or a re-entry (11.9)."""
        director = self.directors.get(tournament_id)
        if director is not None and director.tournament.guild_id == guild_id:
            entered = await self._enter_late(director, user_id)
            return Registration(tournament_id, entered.buy_in)
        tournament = await self._store.tournaments.register(
            tournament_id, user_id, guild_id=guild_id
        )
        delayed = await self._starter.when_full(tournament_id)
        await self._lobby_changed(tournament_id)
        return Registration(tournament_id, tournament.buy_in, start_delayed=delayed)

    async def _enter_late(self, director: TournamentDirector, user_id: int) -> Tournament:
        tournament = director.tournament
        if tournament.late_level is None:
            raise RegistrationClosed(tournament.tournament_id)  # none in this one
        if not late_open(director):
            raise TableError("tournament_late_closed", level=tournament.late_level)
        number = await director.enter(user_id)
        await self._players.load_names(director.tables[number], (user_id,))
        await self._players.four_colour(user_id)
        table = director.tables[number]
        table.outbox.say(
            "tournament_late_entry",
            ping=user_id,
            mention=f"<@{user_id}>",
            stack=tournament.starting_stack,
        )
        return await self._store.tournaments.get(tournament.tournament_id)

    async def unregister(self, guild_id: int, tournament_id: int, user_id: int) -> int:
        refund = await self._store.tournaments.unregister(tournament_id, user_id, guild_id=guild_id)
        await self._lobby_changed(tournament_id)
        return refund

    async def cancel(
        self, guild_id: int, tournament_id: int, user_id: int, *, can_manage: bool
    ) -> dict[int, int]:
        """The organiser (or a member who may manage the server) calls it off before the
        start: every buy-in back in one transaction."""
        tournament = await self._store.tournaments.get(tournament_id, guild_id=guild_id)
        if user_id != tournament.organiser_id and not can_manage:
            raise TableError("tournament_cancel_not_allowed")
        refunds = await self._store.tournaments.cancel(tournament_id, guild_id=guild_id)
        await self._event_is(tournament, "cancelled")
        await self._lobby_changed(tournament_id)
        return refunds

    async def add_prize(
        self,
        guild_id: int,
        tournament_id: int,
        user_id: int,
        amount: int,
        *,
        can_manage: bool,
        grant: bool,
    ) -> Tournament:
        """Chips added to the prize pool (11.1): by its organiser (or a member who may manage
        the server) from his wallet, or, by one who may manage the server, as a logged grant."""
        tournament = await self._store.tournaments.get(tournament_id, guild_id=guild_id)
        if (grant and not can_manage) or (user_id != tournament.organiser_id and not can_manage):
            raise TableError("tournament_add_not_allowed")
        added = await self._store.tournaments.add_to_pool(
            tournament_id, user_id, amount, guild_id=guild_id, grant=grant
        )
        await self._lobby_changed(tournament_id)
        return added

    async def lobby(self, tournament_id: int, guild_id: int | None = None) -> LobbyView:
        """The lobby as it stands: the entrants, the pool and what each paid place would win
        with this many in (11.7). ``NoTournament`` if it isn't ``guild_id``'s (if given)."""
        tournament = await self._store.tournaments.get(tournament_id, guild_id=guild_id)
        entries = await self._store.tournaments.entries(tournament_id)
        tables = (
            await self._store.tournaments.tables(tournament_id)
            if tournament.state == "running"
            else []
        )
        bots = [entry.user_id for entry in entries if is_bot(entry.user_id)]
        return LobbyView(
            tournament_id=tournament_id,
            channel_id=tournament.channel_id,
            message_id=tournament.message_id,
            lang=tournament.settings.get("lang", EN),
            game=tournament.game,
            state=tournament.state,
            buy_in=tournament.buy_in,
            starting_stack=tournament.starting_stack,
            seats=tournament.seats,
            start_entrants=tournament.start_entrants,
            entrants=tuple(entry.user_id for entry in entries),
            prize_pool=tournament.prize_pool,
            # Chips the pool holds beyond the buy-ins: what organisers added (11.1).
            added=max(
                0, tournament.prize_pool - tournament.buy_in * sum(e.entries for e in entries)
            )
            if tournament.state in ("registering", "running")
            else 0,
            payouts=(
                prize_table(
                    tournament.prize_pool, sum(e.entries for e in entries), tournament.curve
                )
                if entries
                else ()
            ),
            tables=tuple((table.number, table.channel_id) for table in tables),
            places=tuple(
                sorted(
                    (entry.place, entry.user_id, entry.prize or 0)
                    for entry in entries
                    if entry.place is not None
                )
            ),
            start_at=None if tournament.start_at is None else int(tournament.start_at.timestamp()),
            bots=tuple(
                sorted((await self._store.players.names(tournament.guild_id, bots)).items())
            ),
            **running_figures(self.directors.get(tournament_id)),
        )

    async def subscribe(self, tournament_id: int) -> Subscription[LobbyView]:
        """Watch a tournament's lobby from now on: its views as they change, the first one the
        lobby as it is; ``StoreError`` if there is no such tournament."""
        view = await self.lobby(tournament_id)
        watching = self._watching.setdefault(tournament_id, [])
        subscription = Subscription[LobbyView](None, watching.remove)
        watching.append(subscription)
        subscription.offer(view)
        return subscription

    async def _lobby_changed(self, tournament_id: int) -> None:
        """The lobby is shown anew (the edge's message, and any face watching it); a Discord
        error leaves the tournament as it is."""
        watching = self._watching.get(tournament_id)
        if self._lobby is None and not watching:
            return
        view = await self.lobby(tournament_id)
        for subscription in watching or ():
            subscription.offer(view)
        if self._lobby is None:
            return
        try:
            message_id = await self._lobby.show(view)
        except Exception:
            log.warning("tournament %s: the lobby could not be shown", tournament_id, exc_info=True)
            return
        if message_id is not None and message_id != view.message_id:
            await self._store.tournaments.set_message(tournament_id, message_id)

    async def start(self, tournament_id: int) -> TournamentDirector:
        """Seat the entrants at random at as few tables as the seats allow (11.5), a thread
        each, and deal."""
        if self._lobby is None:
            raise RuntimeError("no lobby: the house was made without a face for tournaments")
        tournament = await self._store.tournaments.get(tournament_id)
        entries = await self._store.tournaments.entries(tournament_id)
        seed = f"{tournament.seed}:start"
        seating = seat_entrants([e.user_id for e in entries], tournament.seats, Random(seed))
        log.info("tournament %s: seated with seed %s: %s", tournament_id, seed, seating)
        # A start tried again uses the threads made the time before.
        channels = self._threads.setdefault(tournament_id, {})
        for number in seating:
            if number not in channels:
                channels[number] = await self._lobby.make_thread(tournament, number)
        config = table_config(tournament)
        try:
            await self._store.tournaments.start(
                tournament_id,
                {number: (channels[number], seats) for number, seats in seating.items()},
                config.to_settings(),
            )
        except RegistrationClosed:
            del self._threads[tournament_id]  # started elsewhere, or called off
            raise
        del self._threads[tournament_id]
        # Started in the store: the tables open here even if the store is away a moment.
        tables = {
            number: await self._persist(partial(self._open, tournament, channels[number], config))
            for number in seating
        }
        director = self._direct(tournament, tables, {e.user_id for e in entries})
        director.entrants = sum(e.entries for e in entries)
        for table in tables.values():
            table.outbox.redraw()
            self._dealer.schedule(table)
        await self._event_is(tournament, "active")
        return director

    async def _open(self, tournament: Tournament, channel_id: int, config: TableConfig) -> Table:
        table = self._open_tables.add(
            channel_id, tournament.guild_id, tournament.organiser_id, config, config.rotation()
        )
        table.seats = {s.user_id: s for s in await self._store.seating.seats(channel_id)}
        await self._players.load_names(table, table.seats.keys())
        for user_id in table.seats:
            await self._players.four_colour(user_id)
        return table

    async def restore(self) -> None:
        """After a restart: every running tournament whose tables this process restored gets
        its director back, its level clock where it was saved (11.8). Players out in a hand
        whose end the director had not dealt with yet get their places before anything is
        dealt there."""
        live = {record.channel_id: record for record in await self._store.hands.live()}
        for tournament in await self._store.tournaments.active():
            if self._owns is not None and not self._owns(tournament.guild_id):
                continue
            if tournament.state == "registering" and tournament.start_at is not None:
                self._tasks.spawn(self._on_time(tournament.tournament_id))
            if tournament.state == "registering" and tournament.start_entrants is not None:
                # In a task of its own: the restore goes on while its threads are made.
                self._tasks.spawn(self._starter.after_restart(tournament.tournament_id))
            if tournament.state != "running":
                continue
            stored = await self._store.tournaments.tables(tournament.tournament_id)
            found = {t.number: self._open_tables.find(t.channel_id) for t in stored}
            tables = {number: table for number, table in found.items() if table is not None}
            if not tables or len(tables) != len(stored):
                continue  # another process's
            entries = await self._store.tournaments.entries(tournament.tournament_id)
            hands = {
                n: await self._store.tournaments.hands_dealt(t.channel_id)
                for n, t in tables.items()
            }
            director = self._direct(
                tournament,
                tables,
                {e.user_id for e in entries if e.place is None},
                hands_dealt=hands,
                finishes=await in_dealing_order(
                    self._store, tournament.tournament_id, finishes_of(entries)
                ),
            )
            director.entrants = sum(e.entries for e in entries)
            outs = await restored_outs(self._store, tournament.tournament_id, tables, live)
            playing_tables = {n for n, t in tables.items() if t.channel_id in live}
            since = await dealt_since_bubble(self._store, tournament.tournament_id, tables, entries)
            director.resume(outs, playing_tables, since)

    def _direct(
        self,
        tournament: Tournament,
        tables: dict[int, Table],
        left: set[int],
        *,
        hands_dealt: dict[int, int] | None = None,
        finishes: Sequence[Finish] = (),
    ) -> TournamentDirector:
        director = TournamentDirector(
            tournament,
            tables,
            store=self._store,
            dealer=self._dealer,
            open_tables=self._open_tables,
            clock=self._clock,
            tasks=self._tasks,
            players_left=left,
            on_finish=self._finished,
            on_change=self._changed,
            hands_dealt=hands_dealt,
            finishes=finishes,
        )
        self.directors[tournament.tournament_id] = director
        return director

    async def _changed(self, director: TournamentDirector) -> None:
        await self._lobby_changed(director.tournament.tournament_id)

    async def _finished(self, director: TournamentDirector) -> None:
        self.directors.pop(director.tournament.tournament_id, None)
        await self._event_is(director.tournament, "completed")
        # The results in the lobby: every place and prize (11.4, 11.7).
        await self._lobby_changed(director.tournament.tournament_id)
        if self._lobby is not None:
            # In a task of its own: the threads close once their last lines have gone out.
            self._tasks.spawn(self._close_threads(director.tournament.tournament_id))

    async def _close_threads(self, tournament_id: int) -> None:
        assert self._lobby is not None
        try:
            await self._lobby.close_threads(await self._store.tournaments.threads(tournament_id))
        except Exception:
            log.warning("tournament %s: its threads were not closed", tournament_id, exc_info=True)

"""Computer players at a table: seating them from the house, and playing their turns.

``/table bots add`` stakes each from the server's house wallet (``store.seating.seat_bot``);
``/table bots remove`` sends them back after the hand they are in. A computer player's turn
starts, like a person's, when the table showing it is delivered (``shown``); it then waits a
short, varied delay on the table's clock, thinks in a worker thread (``strategy.decide``, from
what its seat can see and how the others have played at this table, ``Table.habits``) and acts
through the dealer like any click, so every rule, save and announcement is the same. It has no
buttons, no turn clock and no DMs: it never times out.
"""

from __future__ import annotations

import asyncio
import logging
import random
from functools import partial

from bot.core.clock import Clock
from bot.core.computer_seats import bot_ids, bot_name, humans, style_of
from bot.core.dealer import Dealer
from bot.core.errors import TableError
from bot.core.open_tables import OpenTables
from bot.core.players import Players
from bot.core.storage import HouseEmpty, Store
from bot.core.storage.house import is_bot
from bot.core.table import Table
from bot.core.tasks import Tasks
from engine.hand import Decision
from strategy import DEFAULT_STYLE, STYLES, Sight, decide
from strategy.decide import MAX_SAMPLES
from strategy.habits import by_seat
from words import Texts

log = logging.getLogger(__name__)

DEFAULT_DELAY = (1.0, 3.0)
# A computer player brings this many big bets, within the table's buy-in limits.
BUY_IN_BIG_BETS = 50


class ComputerPlayers:
    def __init__(
        self,
        store: Store,
        texts: Texts,
        clock: Clock,
        tasks: Tasks,
        open_tables: OpenTables,
        dealer: Dealer,
        players: Players,
        *,
        delay: tuple[float, float] = DEFAULT_DELAY,
        rng: random.Random | None = None,
    ) -> None:
        self._store = store
        self._texts = texts
        self._clock = clock
        self._tasks = tasks
        self._open_tables = open_tables
        self._dealer = dealer
        self._players = players
        self.delay = delay  # the shortest and longest pause before acting, in seconds
        self._rng = rng or random.Random()
        self._thinking: set[tuple[int, int, int]] = set()  # (channel, hand, seq) under way
        # The most deals a decision samples (strategy.decide's budget); tests may play cheaper.
        self.samples = MAX_SAMPLES

    @property
    def default_style(self) -> str:
        """The style of computer players whose style nobody chose."""
        return DEFAULT_STYLE.name

    # ------------------------------------------------------------------ seats

    async def add(
        self, channel_id: int, user_id: int, *, can_manage: bool, count: int, style: str | None
    ) -> int:
        """Seat up to ``count`` computer players of ``style`` in free seats; returns how many
        sat. The table's opener or a member with Manage Server; someone must be seated; the
        house pays each one's buy-in (``HouseEmpty`` when it can't pay the first)."""
        table = self._open_tables.get(channel_id)
        _check_allowed(table, user_id, can_manage)
        style = style or DEFAULT_STYLE.name
        if style not in STYLES or count < 1:
            raise TableError("bots_bad_request")
        config = table.config
        buy_in = min(
            config.max_buy_in, max(config.min_buy_in, BUY_IN_BIG_BETS * config.stakes.big_bet)
        )
        seated = 0
        async with table.lock:
            if not humans(table):
                raise TableError("bots_need_a_player")
            free = config.seats - len(table.seats)
            if free <= 0:
                raise TableError("table_full", seats=config.seats)
            lang = config.lang
            for bot_id in [b for b in bot_ids(style) if b not in table.seats][: min(count, free)]:
                try:
                    seat = await self._store.seating.seat_bot(channel_id, bot_id, buy_in)
                except HouseEmpty:
                    if seated:
                        break  # as many as the house could stake
                    raise
                name = bot_name(self._texts, lang, bot_id)
                table.seats[bot_id] = seat
                table.names[bot_id] = name
                seated += 1
                await self._players.seen(table.guild_id, bot_id, name)
                table.outbox.say("bot_sat", name=name, stack=buy_in)
            table.outbox.redraw()
            self._dealer.schedule(table)
        return seated

    async def remove(self, channel_id: int, user_id: int, *, can_manage: bool, count: int) -> int:
        """Send up to ``count`` computer players away (the last seated first): now, or after
        the hand they are in. Returns how many go."""
        table = self._open_tables.get(channel_id)
        _check_allowed(table, user_id, can_manage)
        async with table.lock:
            seated = sorted(
                (s for s in table.seats.values() if is_bot(s.user_id) and not s.leaving),
                key=lambda s: -s.position,
            )[:count]
            if not seated:
                raise TableError("bots_none_seated")
            live = table.live
            for seat in seated:
                if live is not None and live.seat_of(seat.user_id) is not None:
                    table.seats[seat.user_id] = await self._store.seating.set_leaving(
                        channel_id, seat.user_id, True
                    )
                else:
                    await self._store.seating.leave(channel_id, seat.user_id)
                    del table.seats[seat.user_id]
            table.outbox.redraw()
        return len(seated)

    # ------------------------------------------------------------------ turns

    def shown(self, table: Table, hand_id: int, seq: int) -> None:
        """The table was delivered at decision ``seq``: if a computer player is to act, it
        will, after its delay."""
        live = table.live
        actor = table.actor_id()
        key = (table.channel_id, hand_id, seq)
        if (
            table.closed
            or live is None
            or live.hand_id != hand_id
            or live.seq != seq
            or actor is None
            or not is_bot(actor)
            or key in self._thinking
        ):
            return
        self._thinking.add(key)
        self._tasks.spawn(self._play(table, actor, key))

    async def _play(self, table: Table, bot_id: int, key: tuple[int, int, int]) -> None:
        _, hand_id, seq = key
        try:
            if table.tournament is None or not table.tournament.unattended():
                await self._clock.sleep(self._rng.uniform(*self.delay))
            live = table.live
            if table.closed or live is None or live.hand_id != hand_id or live.seq != seq:
                return
            seat = live.hand.actor
            assert seat is not None and live.users[seat] == bot_id
            sight = Sight.of(live.hand, seat, by_seat(table.habits, live.users))
            # Seeded by the hand's secret salt: reproducible, and no one at the table can know
            # the seed before the hand is over.
            seed = f"{live.salt}:{seq}"
            think = partial(decide, sight, style_of(bot_id), seed, budget=self.samples)
            thought = await asyncio.get_running_loop().run_in_executor(None, think)
            action, amount = _command(thought.decision)
            await self._dealer.act(
                table.channel_id, bot_id, action, amount, hand_id=hand_id, seq=seq
            )
        except TableError as error:
            # The hand moved on, or the table can't be shown: the next delivery asks again.
            log.info("computer player %s at %s did not act: %s", bot_id, key, error.key)
        finally:
            self._thinking.discard(key)


def _check_allowed(table: Table, user_id: int, can_manage: bool) -> None:
    if table.tournament is not None:
        # Its director seats its entrants: computer players enter when it is created.
        raise TableError("tournament_table")
    if user_id != table.opener_id and not can_manage:
        raise TableError("bots_not_allowed")


def _command(decision: Decision) -> tuple[str, int | None]:
    """The dealer's name for a decision: a completion, bet or raise is a raise to its total."""
    if decision.action == "raise_to":
        return "raise", decision.amount
    return decision.action, None

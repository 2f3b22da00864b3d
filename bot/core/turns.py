"""The turn clock and the time bank: how long the player to act has, and what runs out when.

The clock is fair: an actor's turn starts when the edge reports his buttons delivered
(:meth:`TurnClock.shown`), so time Discord spends failing or answering slowly is never his.
When the turn runs out his time bank runs, if he has one; once it is empty too, the dealer acts
for him (RULES 6.1). While the table can't be shown (:meth:`TurnClock.pause`) nobody's clock
runs. Durations are measured on the injected clock, so tests advance it instead of waiting.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable

from bot.core.clock import Clock
from bot.core.errors import TableError
from bot.core.storage import Seat, Store
from bot.core.table import LiveHand, Table
from bot.core.tasks import Tasks, cancel

log = logging.getLogger(__name__)

WARNING_SECONDS = 15
# A time bank grows back by this much with every hand its player is dealt, up to its size.
TIME_BANK_REFILL = 5.0

# The dealer's answer to a turn that ran out: (table, hand id, the decision's seq).
TimeOut = Callable[[Table, int, int], Awaitable[None]]


class TurnClock:
    def __init__(self, store: Store, clock: Clock, tasks: Tasks, time_out: TimeOut) -> None:
        self._store = store
        self._clock = clock
        self._tasks = tasks
        self._time_out = time_out

    def shown(self, table: Table, hand_id: int, seq: int) -> None:
        """The edge delivered the buttons of decision ``seq``: the actor's clock starts now."""
        live = table.live
        if (
            table.closed
            or live is None
            or live.hand_id != hand_id
            or live.seq != seq
            or live.hand.actor is None
            or live.deadline is not None
        ):
            return
        live.deadline = self._clock.now() + table.config.turn_seconds
        self._arm(table, live.deadline)

    def stop(self, table: Table) -> None:
        """Nobody's turn runs (a decision was made, the hand ended, the table closed)."""
        timer, table.timer = table.timer, None
        cancel(timer)

    def restart(self, table: Table) -> None:
        """The same turn runs on to its deadline (a decision that could not be saved)."""
        live = table.live
        if live is not None and live.deadline is not None:
            self._arm(table, live.deadline)

    def _arm(self, table: Table, deadline: float) -> None:
        self.stop(table)
        live = table.live
        if live is None or live.hand.actor is None:
            return
        seconds = max(0.0, deadline - self._clock.now())
        table.timer = self._tasks.spawn(self._run(table, live.hand_id, live.seq, seconds))

    async def _run(self, table: Table, hand_id: int, seq: int, seconds: float) -> None:
        # Durations, not times of day: each sleep is measured from when the last one ended.
        if seconds > WARNING_SECONDS:
            await self._clock.sleep(seconds - WARNING_SECONDS)
            live = table.live
            if live is None or live.hand_id != hand_id or live.seq != seq:
                return
            user_id = table.actor_id()
            if user_id is not None:
                table.outbox.say("warning", ping=user_id, mention=f"<@{user_id}>")
        await self._clock.sleep(min(seconds, WARNING_SECONDS))
        await self._time_out(table, hand_id, seq)

    # ------------------------------------------------------------------ the time bank

    def draw_on_bank(self, table: Table, live: LiveHand) -> bool:
        """The actor's turn ran out: his time bank runs now, if he has a second of it left
        and it isn't running already. False: nothing is left, RULES 6.1 acts."""
        user_id = table.actor_id()
        assert user_id is not None
        bank = table.bank(user_id)
        if live.banking_since is not None or bank < 1:
            return False
        now = self._clock.now()
        live.banking_since, live.deadline = now, now + bank
        self._arm(table, live.deadline)
        table.outbox.say("time_bank_used", ping=user_id, mention=f"<@{user_id}>", seconds=bank)
        table.outbox.redraw()
        return True

    async def spend(self, table: Table, user_id: int, since: float) -> None:
        """The player acted with his bank running since ``since``: what ran of it is spent."""
        await self.save(table, self._left(table, user_id, since))

    def _left(self, table: Table, user_id: int, since: float) -> dict[int, float]:
        used = self._clock.now() - since
        return {user_id: max(0.0, table.bank(user_id) - used)}

    async def refill(self, table: Table, players: Iterable[Seat]) -> None:
        """Each player dealt in gets some of his bank back, up to its size."""
        size = float(table.config.time_bank)
        refills = {
            seat.user_id: min(size, table.bank(seat.user_id) + TIME_BANK_REFILL)
            for seat in players
            if table.bank(seat.user_id) < size
        }
        if refills:
            await self.save(table, refills)

    async def save(self, table: Table, banks: dict[int, float]) -> None:
        """Remember time banks, in the store too (a restart keeps them)."""
        table.banks.update(banks)
        try:
            await self._store.seating.set_time_banks(table.channel_id, banks)
        except Exception:
            # Seconds, not chips: the table plays on with what it knows.
            log.warning("channel %s: time banks not saved", table.channel_id, exc_info=True)

    # ------------------------------------------------------------------ showing the table

    def pause(self, table: Table, reason: TableError) -> None:
        """The table can't be shown (missing permissions): nobody's clock runs meanwhile."""
        if table.outbox.paused is None:
            log.warning("channel %s: table paused (%s)", table.channel_id, reason.key)
        table.outbox.paused = reason
        self.stop(table)
        live = table.live
        if live is not None:
            if live.banking_since is not None and (user_id := table.actor_id()) is not None:
                # The bank stops too; what ran of it before the pause is spent.
                self._tasks.spawn(self.save(table, self._left(table, user_id, live.banking_since)))
            live.deadline = live.banking_since = None

    def resume(self, table: Table) -> None:
        """Showing works again: deliver what waited, and the actor's clock starts afresh."""
        if table.outbox.paused is None:
            return
        log.info("channel %s: table resumed", table.channel_id)
        table.outbox.paused = None
        table.outbox.redraw()
        table.outbox.wake()  # what waited, the picture folded into it or not

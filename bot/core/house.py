"""The core as the edge sees it: one object made in ``main()`` whose parts each do one job.

- ``seating``: opening and closing tables, seats (``bot.core.seating``);
- ``dealer``: hands, from the deal to the settlement, and the turn clock (``bot.core.dealer``);
- ``players``: names and each player's own settings (``bot.core.players``);
- ``tournaments``: creating, registering for and running tournaments (``bot.core.tournament``);
- ``recovery``: restoring what the store holds after a restart, and stopping
  (``bot.core.recovery``).

A command is one call into one of them. What a table must show reaches the face that delivers
it through the table's :class:`~bot.core.outbox.Outbox` (``show``, given when the house is made,
wakes it), as frozen views; its reports on each effect come back here
(:class:`~bot.core.outbox.DeliveryReports`). Any other face watches a table through
:meth:`subscribe`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

from bot.core.clock import Clock, SystemClock
from bot.core.computer_players import DEFAULT_DELAY, ComputerPlayers
from bot.core.dealer import Dealer
from bot.core.errors import BotLacksPermissions
from bot.core.open_tables import OpenTables
from bot.core.outbox import Effect, Outbox, Shown, Why
from bot.core.players import Players
from bot.core.recovery import Recovery
from bot.core.seating import Seating
from bot.core.storage import Store
from bot.core.tasks import Tasks
from bot.core.tournament import Lobby, Tournaments
from bot.core.views import PrivateView, TableView
from bot.core.watching import Subscription
from words import Texts

log = logging.getLogger(__name__)


class House:
    def __init__(
        self,
        store: Store,
        texts: Texts,
        *,
        clock: Clock | None = None,
        owns: Callable[[int], bool] | None = None,
        bot_delay: tuple[float, float] = DEFAULT_DELAY,
        show: Callable[[Outbox], None] | None = None,
        lobby: Lobby | None = None,
    ) -> None:
        """``show`` is called (never awaited) whenever a table has something new to show: the
        face that delivers outboxes (the Discord one) takes it from there; ``lobby`` is the face
        that shows tournaments (``bot.core.tournament.Lobby``). ``owns`` says whether a
        server's tables are this process's
        (:meth:`bot.core.shards.Shards.owns` when the bot runs in several processes sharing one
        database; None: every server's): only those are restored. ``bot_delay``: the shortest
        and longest pause before a computer player acts, in seconds."""
        self.texts = texts
        self.clock: Clock = clock or SystemClock()
        self.tasks = Tasks()
        self._messages = _MessageIds(store)
        self.open_tables = OpenTables(texts, self.clock, self, show or (lambda outbox: None))
        self.players = Players(store, self.open_tables)
        self.dealer = Dealer(store, texts, self.clock, self.tasks, self.open_tables, self.players)
        self.seating = Seating(store, texts, self.open_tables, self.dealer, self.players)
        self.computer_players = ComputerPlayers(
            store,
            texts,
            self.clock,
            self.tasks,
            self.open_tables,
            self.dealer,
            self.players,
            delay=bot_delay,
        )
        self.tournaments = Tournaments(
            store,
            self.clock,
            self.tasks,
            self.open_tables,
            self.dealer,
            self.players,
            texts,
            lobby=lobby,
            owns=owns,
        )
        self.recovery = Recovery(
            store,
            self.open_tables,
            self.dealer,
            self.players,
            self.tasks,
            owns=owns,
            flush=self._messages.flush,
            tournaments=self.tournaments.restore,
        )

    def subscribe(self, channel_id: int, user_id: int | None = None) -> Subscription[Shown]:
        """A face watching the channel's table: its views as they change, and ``user_id``'s own
        cards (None: a spectator's); ``TableError`` if the channel has no table."""
        return self.open_tables.get(channel_id).outbox.subscribe(user_id)

    async def table_opened(self, channel_id: int) -> None:
        """Wait until the channel has a table: a face watching a channel without one learns
        the moment it opens (no wait if it has one)."""
        await self.open_tables.opened(channel_id)

    # ------------------------------------------------------------------ the edge's reports

    def delivered(self, outbox: Outbox, effect: Effect) -> None:
        if isinstance(effect, TableView) and effect.hand is not None:
            table = self.open_tables.find(outbox.channel_id)
            if table is None:
                return
            if effect.hand.buttons:
                # His buttons are in front of him: the actor's clock starts now.
                self.dealer.turns.shown(table, effect.hand.hand_id, effect.hand.seq)
            else:
                # A computer player's turn (or no one's) is shown: it acts after its pause.
                self.computer_players.shown(table, effect.hand.hand_id, effect.hand.seq)

    def posted(self, outbox: Outbox, effect: Effect, message_id: int) -> None:
        self.delivered(outbox, effect)
        table = self.open_tables.find(outbox.channel_id)
        if table is not None:
            table.message_id = message_id
            if not table.closed:
                self._messages.posted(table.channel_id, message_id)

    def failed(self, outbox: Outbox, effect: Effect, why: Why, permissions: Sequence[str]) -> None:
        table = self.open_tables.find(outbox.channel_id)
        if table is None:
            return
        match why:
            case Why.FORBIDDEN:
                self.dealer.turns.pause(table, BotLacksPermissions(permissions))
            case Why.CHANNEL_GONE:
                outbox.drain()
                self.tasks.spawn(self.seating.abandon(outbox.channel_id))
            case Why.DMS_CLOSED if isinstance(effect, PrivateView):
                self.dealer.dm_failed(table, effect.hand_id, effect.user_id)


class _MessageIds:
    """The message that shows each table, remembered across restarts (a restart takes the
    buttons off it). Saved by one task with every other table's posted meanwhile, in one
    transaction: a write of its own per new street made every other table's next action wait
    for it."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._unsaved: dict[int, int] = {}  # channel id -> the message showing it
        self._saving: asyncio.Task[None] | None = None

    def posted(self, channel_id: int, message_id: int) -> None:
        self._unsaved[channel_id] = message_id
        if self._saving is None or self._saving.done():
            self._saving = asyncio.get_running_loop().create_task(
                self._save(), name="save-table-messages"
            )

    async def _save(self) -> None:
        while self._unsaved:
            posted, self._unsaved = self._unsaved, {}
            try:
                await self._store.seating.set_messages(posted)
            except Exception:
                # Only a restart's clean-up of old buttons needs them; the tables play on.
                log.warning("could not save the messages of %d tables", len(posted), exc_info=True)

    async def flush(self) -> None:
        if self._saving is not None:
            await self._saving
        await self._save()  # any posted since

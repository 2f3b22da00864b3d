"""Table orchestration: seats, hands, timers and persistence, one table per channel.

Nothing here touches Discord objects: what players see goes through a :class:`TablePresenter`
(the Discord one is ``bot.presenter``; tests use a recorder). Game state lives in
:class:`Table` and the store, never in a Discord view.

Concurrency: each table has one ``asyncio.Lock``; every change to a table (an action, a timeout,
a seat change, starting or ending a hand) happens under it, so two clicks at the same moment
apply once and the second one is told it is not his turn. Tables never share a lock.

Every action is saved (``Store.save_action``) before anyone is told about it; if saving fails
the in-memory hand is rolled back, so what players see always matches the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.announce import announce
from bot.errors import TableError
from bot.i18n import EN, t
from bot.storage import HandEnd, Seat, Store
from engine import events as ev
from engine.cards import shuffled_deck
from engine.fairness import DeckCommitment, new_secret, visible_cards
from engine.hand import LegalActions, StudHand
from engine.public import PrivateHand
from engine.stakes import Stakes

log = logging.getLogger(__name__)

WARNING_SECONDS = 15
LOG_LINES = 12


@dataclass(frozen=True, slots=True)
class TableConfig:
    stakes: Stakes
    seats: int
    min_buy_in: int
    max_buy_in: int
    turn_seconds: float
    countdown_seconds: float
    lang: str = EN

    def to_settings(self) -> dict[str, Any]:
        return {
            "stakes": self.stakes.to_dict(),
            "turn_seconds": self.turn_seconds,
            "countdown_seconds": self.countdown_seconds,
            "lang": self.lang,
        }

    @classmethod
    def from_settings(
        cls, settings: dict[str, Any], seats: int, min_buy_in: int, max_buy_in: int
    ) -> TableConfig:
        return cls(
            stakes=Stakes.from_dict(settings["stakes"]),
            seats=seats,
            min_buy_in=min_buy_in,
            max_buy_in=max_buy_in,
            turn_seconds=settings["turn_seconds"],
            countdown_seconds=settings["countdown_seconds"],
            lang=settings.get("lang", EN),
        )


@dataclass(slots=True)
class LiveHand:
    hand_id: int
    hand: StudHand
    users: tuple[int, ...]  # engine seat -> user id
    commitment: str  # the digest published before the first card
    salt: str  # the secret the per-card salts derive from: never shown to anyone
    announced: int = 0  # how many of hand.events are already in the table log
    deadline: float | None = None  # wall-clock time the actor's turn runs out
    end: HandEnd | None = None  # the store's settlement, once the hand has ended

    @property
    def seq(self) -> int:
        """Grows with every decision: a button drawn at another ``seq`` is out of date."""
        return len(self.hand.events)

    def seat_of(self, user_id: int) -> int | None:
        return self.users.index(user_id) if user_id in self.users else None


def public_reveal(hand: StudHand, secret: str, viewer_seat: int | None = None) -> str:
    """The deck reveal: cards the table (and the viewer) saw in clear, the rest as hashes."""
    return DeckCommitment(hand.deck, secret).reveal(visible_cards(hand, viewer_seat))


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    action: str  # fold, check, call, bring_in, complete, bet or raise
    amount: int | None


@dataclass(slots=True)
class Table:
    channel_id: int
    guild_id: int
    opener_id: int
    config: TableConfig
    seats: dict[int, Seat] = field(default_factory=dict)  # user id -> seat
    names: dict[int, str] = field(default_factory=dict)
    langs: dict[int, str] = field(default_factory=dict)  # user id -> his client's language
    live: LiveHand | None = None
    last_dealer: int | None = None  # table position of the last hand's dealer
    log: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    closed: bool = False
    timer: asyncio.Task[None] | None = None
    countdown: asyncio.Task[None] | None = None
    next_hand_at: float | None = None

    def name(self, user_id: int) -> str:
        return self.names.get(user_id, fallback_name(user_id))

    def seat_name(self, seat: int) -> str:
        assert self.live is not None
        return self.name(self.live.users[seat])

    def seat_name_in(self, hand: LiveHand) -> Callable[[int], str]:
        return lambda seat: self.name(hand.users[seat])

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
        return buttons_for(self.live.hand.legal())

    def actor_id(self) -> int | None:
        if self.live is None or self.live.hand.actor is None:
            return None
        return self.live.users[self.live.hand.actor]


class ActionNotAllowed(TableError):
    """The action isn't among the legal ones; the reply lists those, in the player's language."""

    def __init__(self, legal: LegalActions) -> None:
        super().__init__("cant_now")
        self.options = buttons_for(legal)

    def message(self, lang: str) -> str:
        labels = [t(lang, f"btn_{spec.action}", amount=spec.amount) for spec in self.options]
        return t(lang, "cant_now", options=", ".join(labels))


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


class TablePresenter(Protocol):
    """What the orchestration tells the players; implemented for Discord in ``bot.presenter``."""

    async def say(self, table: Table, text: str, *, mention: int | None = None) -> None:
        """One line in the table's channel (``mention`` is the user it pings, if any)."""

    def refresh(self, table: Table) -> None:
        """The table changed: redraw its message soon (coalesced, never blocks)."""

    def deal_private(self, table: Table, user_ids: Sequence[int]) -> None:
        """Send these players their private cards (3rd and 7th street); never blocks."""

    async def hand_over(self, table: Table, hand: LiveHand, end: HandEnd) -> None:
        """The showdown picture, pots and the deck reveal."""


Sleep = Callable[[float], Awaitable[None]]


class TableManager:
    """Every open table, keyed by channel id."""

    def __init__(
        self,
        store: Store,
        presenter: TablePresenter,
        *,
        sleep: Sleep = asyncio.sleep,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.presenter = presenter
        self.tables: dict[int, Table] = {}
        self._sleep = sleep
        self._clock = clock
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ lookup

    def get(self, channel_id: int) -> Table:
        table = self.tables.get(channel_id)
        if table is None or table.closed:
            raise TableError("no_table")
        return table

    def _seat(self, table: Table, user_id: int) -> Seat:
        seat = table.seats.get(user_id)
        if seat is None:
            raise TableError("not_seated")
        return seat

    # ------------------------------------------------------------------ tables

    async def open(
        self, guild_id: int, channel_id: int, opener_id: int, config: TableConfig
    ) -> Table:
        if channel_id in self.tables and not self.tables[channel_id].closed:
            raise TableError("table_exists")
        if not config.min_buy_in <= config.max_buy_in or config.min_buy_in < config.stakes.big_bet:
            raise TableError("bad_buy_in_limits")
        await self.store.open_table(
            channel_id,
            guild_id,
            opener_id,
            max_seats=config.seats,
            min_buy_in=config.min_buy_in,
            max_buy_in=config.max_buy_in,
            settings=config.to_settings(),
        )
        table = Table(channel_id, guild_id, opener_id, config)
        self.tables[channel_id] = table
        self.presenter.refresh(table)
        return table

    async def close(self, channel_id: int, user_id: int, *, can_manage: bool) -> dict[int, int]:
        table = self.get(channel_id)
        if user_id != table.opener_id and not can_manage:
            raise TableError("close_not_allowed")
        async with table.lock:
            if table.live is not None:
                raise TableError("close_mid_hand")
            cashed = await self.store.close_table(channel_id)
            table.closed = True
            self._cancel(table)
            del self.tables[channel_id]
        self.presenter.refresh(table)
        return cashed

    # ------------------------------------------------------------------ seats

    async def sit(
        self, channel_id: int, user_id: int, name: str, buy_in: int | None, lang: str = EN
    ) -> Seat:
        table = self.get(channel_id)
        table.names[user_id] = name
        table.langs[user_id] = lang
        if user_id in table.seats:
            raise TableError("already_seated")
        if len(table.seats) >= table.config.seats:
            raise TableError("table_full", seats=table.config.seats)
        if buy_in is None:
            balance = await self.store.balance(table.guild_id, user_id)
            buy_in = max(table.config.min_buy_in, min(table.config.max_buy_in, balance))
        if not table.config.min_buy_in <= buy_in <= table.config.max_buy_in:
            raise TableError(
                "buy_in_range", min=table.config.min_buy_in, max=table.config.max_buy_in
            )
        async with table.lock:
            seat = await self.store.sit(channel_id, user_id, buy_in)
            table.seats[user_id] = seat
        self.presenter.refresh(table)
        self._maybe_schedule_hand(table)
        return seat

    async def leave(self, channel_id: int, user_id: int) -> int | None:
        """Cash out now (``chips``), or after the hand he is in (``None``)."""
        table = self.get(channel_id)
        async with table.lock:
            seat = self._seat(table, user_id)
            if table.live is not None and table.live.seat_of(user_id) is not None:
                if seat.leaving:
                    raise TableError("already_leaving")
                table.seats[user_id] = await self.store.set_leaving(channel_id, user_id, True)
                return None
            chips = await self.store.leave(channel_id, user_id)
            del table.seats[user_id]
        self.presenter.refresh(table)
        return chips

    async def set_sitting_out(self, channel_id: int, user_id: int, sitting_out: bool) -> None:
        table = self.get(channel_id)
        async with table.lock:
            seat = self._seat(table, user_id)
            if seat.sitting_out == sitting_out:
                raise TableError("already_sitting_out" if sitting_out else "not_sitting_out")
            table.seats[user_id] = await self.store.set_sitting_out(
                channel_id, user_id, sitting_out
            )
        self.presenter.refresh(table)
        if not sitting_out:
            self._maybe_schedule_hand(table)

    # ------------------------------------------------------------------ hands

    def _maybe_schedule_hand(self, table: Table) -> None:
        if table.closed or table.live is not None or table.countdown is not None:
            return
        if len(table.eligible()) < 2:
            return
        table.next_hand_at = self._clock() + table.config.countdown_seconds
        table.countdown = self._spawn(self._countdown(table))

    async def _countdown(self, table: Table) -> None:
        if table.config.countdown_seconds > 0:
            self.presenter.refresh(table)
            await self._sleep(table.config.countdown_seconds)
        table.countdown = None
        table.next_hand_at = None
        await self.start_hand(table)

    async def start_hand(self, table: Table) -> int | None:
        """Deal a hand if two or more seated players are in; returns its id."""
        async with table.lock:
            if table.closed or table.live is not None:
                return None
            players = table.eligible()
            if len(players) < 2:
                self.presenter.refresh(table)
                return None
            positions = [seat.position for seat in players]
            dealer = _next_dealer(positions, table.last_dealer)
            deck = shuffled_deck()
            # Per-position commitments (engine.fairness): the reveal after the hand proves the
            # digest without showing cards nobody saw. The secret is stored, never published.
            salt = new_secret()
            commitment = DeckCommitment(tuple(deck), salt).digest
            hand = StudHand(
                stacks=[seat.stack for seat in players],
                stakes=table.config.stakes,
                deck=deck,
                dealer=dealer,
            )
            hand_id = await self.store.start_hand(
                table.channel_id,
                [(seat.user_id, seat.stack) for seat in players],
                hand.to_dict(),
                commitment=commitment,
                salt=salt,
            )
            table.last_dealer = positions[dealer]
            for seat in players:
                table.seats[seat.user_id] = _with_stack(seat, 0)
            live = LiveHand(hand_id, hand, tuple(s.user_id for s in players), commitment, salt)
            table.live = live
            table.log.clear()
            # The commitment goes out before any card is shown (issue: fairness).
            await self.presenter.say(
                table, _t(table, "commitment", hand_id=hand_id, digest=commitment)
            )
            self.presenter.deal_private(table, live.users)
            await self._after_change(table)
            return hand_id

    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: str,
        amount: int | None = None,
        *,
        hand_id: int | None = None,
        seq: int | None = None,
    ) -> tuple[str, int | None]:
        """Apply a player's decision; returns the action taken and its amount.

        ``hand_id``/``seq`` come from a button: a button from an ended hand or an earlier
        betting state is refused rather than applied to a state its player never saw.
        """
        table = self.get(channel_id)
        async with table.lock:
            live = table.live
            if hand_id is not None and (live is None or live.hand_id != hand_id):
                raise TableError("old_button")
            if live is None:
                raise TableError("no_hand")
            seat = live.seat_of(user_id)
            if seat is None:
                raise TableError("not_in_hand" if user_id in table.seats else "not_seated")
            if live.hand.actor != seat:
                raise TableError("not_your_turn")
            if seq is not None and seq != live.seq:
                raise TableError("stale_button")
            legal = live.hand.legal()
            name, shown_amount = _resolve(legal, action, amount)
            before = live.hand.to_dict()
            live.hand.apply(name, shown_amount if name == "raise_to" else None)
            await self._commit(table, before)
            return (legal.raise_kind or "raise") if name == "raise_to" else name, shown_amount

    async def timeout(self, table: Table, hand_id: int, seq: int) -> bool:
        """The actor's clock ran out (RULES 6.1); ``False`` if he acted in the meantime."""
        async with table.lock:
            live = table.live
            if live is None or live.hand_id != hand_id or live.seq != seq:
                return False
            before = live.hand.to_dict()
            live.hand.timeout()
            await self._commit(table, before)
            return True

    async def _commit(self, table: Table, before: dict[str, Any]) -> None:
        """Save the decision just applied (settling the hand if it ended), then show it.

        If the database refuses, the hand goes back to ``before``, which is what the database
        still holds, and its clock runs on: nothing is shown that wasn't saved, and the table
        never waits on a decision that can't come.
        """
        live = table.live
        assert live is not None
        try:
            if live.hand.is_over:
                live.end = await self.store.settle_hand(
                    live.hand_id, live.hand.to_dict(), list(live.hand.stacks)
                )
            else:
                await self.store.save_action(live.hand_id, live.hand.to_dict())
        except BaseException:
            live.hand = StudHand.from_dict(before)
            self._arm_timer(table)
            raise
        await self._after_change(table)

    async def _after_change(self, table: Table, *, restoring: bool = False) -> None:
        """Announce new events, settle a finished hand, redraw, and restart the clock."""
        live = table.live
        assert live is not None
        hand = live.hand
        new_events = hand.events[live.announced :]
        live.announced = len(hand.events)
        for event in new_events:
            line = announce(event, table.config.lang, table.seat_name, table.config.stakes)
            if line is not None:
                table.log.append(line)
        seventh = [
            live.users[e.seat]
            for e in new_events
            if isinstance(e, ev.CardDealt) and e.street == 7 and not e.face_up
        ]
        if seventh and not restoring and not _is_initial(new_events):
            self.presenter.deal_private(table, list(dict.fromkeys(seventh)))
        if hand.is_over:
            await self._settle(table)
            return
        live.deadline = self._clock() + table.config.turn_seconds
        self.presenter.refresh(table)
        self._arm_timer(table)

    async def _settle(self, table: Table) -> None:
        live = table.live
        assert live is not None
        hand = live.hand
        end = live.end
        assert end is not None, "the hand is settled in the store before it is shown"
        table.live = None
        self._cancel_timer(table)
        timed_out = {live.users[seat] for seat in hand.timed_out}
        fresh = {seat.user_id: seat for seat in await self.store.seats(table.channel_id)}
        for user_id in list(fresh):
            seat = fresh[user_id]
            if user_id in timed_out and not seat.sitting_out:
                # RULES 6.2: out of time -> sitting out from the next hand.
                fresh[user_id] = await self.store.set_sitting_out(table.channel_id, user_id, True)
            elif seat.stack == 0 and not seat.sitting_out:
                await self.store.leave(table.channel_id, user_id)
                del fresh[user_id]
        table.seats = fresh
        # Scheduled first so the results can say when the next hand starts; the countdown
        # waits for this table's lock, which the caller holds until the results are out.
        self._maybe_schedule_hand(table)
        await self.presenter.hand_over(table, live, end)
        for user_id in sorted(timed_out & set(fresh)):
            await self.presenter.say(
                table, _t(table, "timed_out_sat_out", name=table.name(user_id))
            )
        self.presenter.refresh(table)

    # ------------------------------------------------------------------ clock

    def _arm_timer(self, table: Table) -> None:
        self._cancel_timer(table)
        live = table.live
        if live is None or live.hand.actor is None:
            return
        table.timer = self._spawn(self._turn_clock(table, live.hand_id, live.seq))

    async def _turn_clock(self, table: Table, hand_id: int, seq: int) -> None:
        turn = table.config.turn_seconds
        if turn > WARNING_SECONDS:
            await self._sleep(turn - WARNING_SECONDS)
            live = table.live
            if live is None or live.hand_id != hand_id or live.seq != seq:
                return
            user_id = table.actor_id()
            if user_id is not None:
                await self.presenter.say(
                    table, _t(table, "warning", mention=f"<@{user_id}>"), mention=user_id
                )
        await self._sleep(min(turn, WARNING_SECONDS))
        await self.timeout(table, hand_id, seq)

    def _cancel_timer(self, table: Table) -> None:
        timer, table.timer = table.timer, None
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    def _cancel(self, table: Table) -> None:
        self._cancel_timer(table)
        countdown, table.countdown = table.countdown, None
        if countdown is not None and countdown is not asyncio.current_task():
            countdown.cancel()

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            log.error("table task failed", exc_info=error)

    # ------------------------------------------------------------------ reads

    def private_hand(self, channel_id: int, user_id: int) -> PrivateHand:
        """The player's own cards in the current hand; ``TableError`` if he has none."""
        table = self.get(channel_id)
        live = table.live
        seat = live.seat_of(user_id) if live is not None else None
        if live is None or seat is None:
            raise TableError("no_cards")
        return PrivateHand.for_seat(live.hand, seat)

    # ------------------------------------------------------------------ startup / shutdown

    async def restore(self) -> list[int]:
        """Load every open table and continue every hand in progress; returns the hand ids."""
        for record in await self.store.tables():
            config = TableConfig.from_settings(
                record.settings, record.max_seats, record.min_buy_in, record.max_buy_in
            )
            table = Table(record.channel_id, record.guild_id, record.opener_id, config)
            table.seats = {s.user_id: s for s in await self.store.seats(record.channel_id)}
            self.tables[record.channel_id] = table
        restored: list[int] = []
        for hand_record in await self.store.live_hands():
            found = self.tables.get(hand_record.channel_id)
            if found is None:
                continue
            table = found
            players = sorted(hand_record.players, key=lambda p: p.seat_index)
            try:
                hand = StudHand.from_dict(hand_record.state)
            except (ValueError, KeyError) as error:
                log.error("hand %s can't be restored (%s); voiding it", hand_record.hand_id, error)
                await self.store.void_hand(hand_record.hand_id, reason=f"restore failed: {error}")
                table.seats = {s.user_id: s for s in await self.store.seats(table.channel_id)}
                continue
            table.live = LiveHand(
                hand_record.hand_id,
                hand,
                tuple(p.user_id for p in players),
                hand_record.commitment,
                hand_record.salt,
            )
            async with table.lock:
                await self.presenter.say(table, _t(table, "restored", hand_id=hand_record.hand_id))
                await self._after_change(table, restoring=True)
            restored.append(hand_record.hand_id)
        for table in self.tables.values():
            if table.live is None:
                self._maybe_schedule_hand(table)
        return restored

    async def shutdown(self) -> None:
        for table in self.tables.values():
            self._cancel(table)
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _t(table: Table, key: str, **params: object) -> str:
    return t(table.config.lang, key, **params)


def _is_initial(events: Sequence[ev.Event]) -> bool:
    """True for the events of a hand's start, whose private cards go out with the deal."""
    return any(isinstance(e, ev.HandStarted) for e in events)


def _next_dealer(positions: Sequence[int], last: int | None) -> int:
    """Index in ``positions`` of the next dealer clockwise after table position ``last``."""
    if last is None:
        return len(positions) - 1
    for index, position in enumerate(positions):
        if position > last:
            return index
    return 0


def _with_stack(seat: Seat, stack: int) -> Seat:
    return Seat(seat.channel_id, seat.user_id, seat.position, stack, seat.sitting_out, seat.leaving)


def _resolve(legal: LegalActions, action: str, amount: int | None) -> tuple[str, int | None]:
    """Map a player's command to an engine decision, or explain why it isn't allowed now."""
    if action == "fold":
        if not legal.fold:
            raise ActionNotAllowed(legal)
        return "fold", None
    if action == "check":
        if not legal.check:
            raise ActionNotAllowed(legal)
        return "check", None
    if action == "call":
        if legal.call is None:
            raise ActionNotAllowed(legal)
        return "call", legal.call
    if action == "bring_in":
        if legal.bring_in is None:
            raise ActionNotAllowed(legal)
        return "bring_in", legal.bring_in
    if action in ("complete", "bet", "raise"):
        if not legal.raise_to or legal.raise_kind is None:
            raise ActionNotAllowed(legal)
        if action == "complete" and legal.raise_kind != "complete":
            raise ActionNotAllowed(legal)
        total = legal.raise_to[0] if amount is None else amount
        if total not in legal.raise_to:
            raise TableError(
                "illegal_amount",
                amount=total,
                allowed=" / ".join(str(option) for option in legal.raise_to),
            )
        return "raise_to", total
    raise TableError("illegal_action", reason=action)



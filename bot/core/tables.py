"""Tables: seats, hands, the turn clock and persistence, one table per channel.

Nothing here touches Discord. What players must see is appended to the table's
:class:`~bot.core.outbox.Outbox`, which the edge delivers; the core never awaits a delivery,
so a slow or failing Discord cannot hold a table's lock or its players' chips.

Concurrency: each table has one ``asyncio.Lock``; every change to a table (an action, a timeout,
a seat change, starting or ending a hand) happens under it, so two clicks at the same moment
apply once and the second one is told it is not his turn. Tables never share a lock.

Every action is saved (``Store.save_action``) before it is put in the outbox; if saving fails the
in-memory hand is rolled back, so what players see always matches the database.

The clock is fair: an actor's turn clock starts when the edge reports his buttons delivered
(:meth:`TableManager.shown`), so time Discord spends failing or answering slowly is never his.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
from collections import deque
from collections.abc import Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.core.announce import announce
from bot.core.clock import Clock, SystemClock
from bot.core.errors import TableError
from bot.core.games import CHOICES, MIXED, STUD, Rotation, game_of
from bot.core.i18n import EN, t
from bot.core.ledger import SessionLedger
from bot.core.outbox import ClearButtons, Ledger, Line, Outbox, Picture, Private, Results
from bot.core.settings import DEFAULT_TIME_BANK, GameDefaults
from bot.core.stats import hand_facts
from bot.core.storage import HandEnd, HandRecord, Seat, Store
from engine import events as ev
from engine.cards import shuffled_deck
from engine.codec import decode, encode
from engine.fairness import DeckCommitment, new_secret, visible_cards
from engine.hand import LegalActions, StudHand
from engine.public import PrivateHand
from engine.stakes import Stakes

log = logging.getLogger(__name__)

WARNING_SECONDS = 15
# A time bank grows back by this much with every hand its player is dealt, up to its size.
TIME_BANK_REFILL = 5.0
LOG_LINES = 12
# A hand over without a decision (all in on the antes) is settled at once; if the database
# refuses, it is tried again after these pauses, then every minute.
SETTLE_RETRY_SECONDS = (1.0, 5.0, 15.0, 60.0)


@dataclass(frozen=True, slots=True)
class TableConfig:
    stakes: Stakes
    seats: int
    min_buy_in: int
    max_buy_in: int
    turn_seconds: float
    countdown_seconds: float
    lang: str = EN  # the channel's lines and the table's pictures
    four_colour: bool = False  # the deck on the table's pictures
    game: str = STUD  # one game of the family, or MIXED
    hands_per_game: int | None = None  # a mixed table's hands per game; None: one orbit
    time_bank: int = DEFAULT_TIME_BANK  # seconds a player may draw on once his turn runs out

    def to_settings(self) -> dict[str, Any]:
        return {
            "stakes": self.stakes.to_dict(),
            "turn_seconds": self.turn_seconds,
            "countdown_seconds": self.countdown_seconds,
            "lang": self.lang,
            "four_colour": self.four_colour,
            "game": self.game,
            "hands_per_game": self.hands_per_game,
            "time_bank": self.time_bank,
        }

    @classmethod
    def from_options(
        cls,
        defaults: GameDefaults,
        lang: str,
        *,
        ante: int | None = None,
        bring_in: int | None = None,
        small_bet: int | None = None,
        big_bet: int | None = None,
        seats: int | None = None,
        min_buy_in: int | None = None,
        max_buy_in: int | None = None,
        turn_seconds: int | None = None,
        four_colour: bool = False,
        game: str = STUD,
        hands_per_game: int | None = None,
        time_bank: int | None = None,
    ) -> TableConfig:
        """What ``/table open`` asked for, the server's defaults filling what it left out."""
        if game not in CHOICES:
            raise TableError("illegal_action", reason=game)
        if hands_per_game is not None and game != MIXED:
            raise TableError("rotate_not_mixed")
        try:
            stakes = Stakes(
                defaults.ante if ante is None else ante,
                defaults.bring_in if bring_in is None else bring_in,
                defaults.small_bet if small_bet is None else small_bet,
                defaults.big_bet if big_bet is None else big_bet,
            )
        except ValueError as error:
            raise TableError("bad_stakes", reason=str(error)) from None
        default_min, default_max = defaults.buy_in_limits(stakes)
        return cls(
            stakes=stakes,
            seats=defaults.seats if seats is None else seats,
            min_buy_in=default_min if min_buy_in is None else min_buy_in,
            max_buy_in=default_max if max_buy_in is None else max_buy_in,
            turn_seconds=defaults.turn_seconds if turn_seconds is None else turn_seconds,
            countdown_seconds=defaults.countdown_seconds,
            lang=lang,
            four_colour=four_colour,
            game=game,
            hands_per_game=hands_per_game,
            time_bank=defaults.time_bank if time_bank is None else time_bank,
        )

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
            # Tables opened before the deck option have the two-colour deck; before the game
            # option, every table dealt Seven Card Stud.
            four_colour=settings.get("four_colour", False),
            game=settings.get("game", STUD),
            hands_per_game=settings.get("hands_per_game"),
            # Tables opened before time banks get the default one.
            time_bank=settings.get("time_bank", DEFAULT_TIME_BANK),
        )

    def rotation(self, settings: dict[str, Any] | None = None) -> Rotation:
        """Where the table's games stand: as saved in ``settings``, or at the start."""
        saved = (settings or {}).get("rotation")
        if saved is not None:
            return Rotation.from_dict(saved)
        return Rotation.for_game(self.game, self.hands_per_game)


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
    dm_failed: set[int] = field(default_factory=set)  # players told once their DMs are closed

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
    outbox: Outbox = field(default_factory=Outbox)
    message_id: int | None = None  # the message that shows the table (saved for restarts)
    paused: TableError | None = None  # why the table can't be shown, while it can't
    rotation: Rotation = field(default_factory=lambda: Rotation.for_game(STUD))
    banks: dict[int, float] = field(default_factory=dict)  # user id -> time bank seconds left

    def bank(self, user_id: int) -> float:
        """The seconds left in the player's time bank (a new player's is full)."""
        return self.banks.get(user_id, float(self.config.time_bank))

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

    def next_game(self, lang: str) -> str | None:
        """On a mixed table, which game comes next and when ("Razz after 3 more hands")."""
        rotation = self.rotation
        if not rotation.mixed:
            return None
        if rotation.left is None:
            return t(lang, "rotation_next_hand", game=game_name(rotation.game, lang))
        return t(lang, "rotation_next", game=game_name(rotation.after, lang), count=rotation.left)

    def say(self, key: str, *, ping: int | None = None, **params: object) -> None:
        """A line in the table's language for its channel; ``ping`` is the user it mentions."""
        self.outbox.put(Line(t(self.config.lang, key, **params), ping))


class ActionNotAllowed(TableError):
    """The action isn't among the legal ones; the reply lists those, in the player's language."""

    def __init__(self, legal: LegalActions) -> None:
        super().__init__("cant_now")
        self.options = buttons_for(legal)

    def message(self, lang: str) -> str:
        labels = [t(lang, f"btn_{spec.action}", amount=spec.amount) for spec in self.options]
        return t(lang, "cant_now", options=", ".join(labels))


def opened_params(config: TableConfig, lang: str) -> dict[str, Any]:
    """What the "table_opened" and "table_info" messages say about a table, in ``lang``."""
    return {
        "game": game_name(config.game, lang),
        "stakes": config.stakes,
        "seats": config.seats,
        "min": config.min_buy_in,
        "max": config.max_buy_in,
        "turn": config.turn_seconds,
    }


def game_name(game: str, lang: str) -> str:
    """A game's name ("stud", "razz", "hilo", "mixed") in ``lang``."""
    return t(lang, f"game_{game}")


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


def error_id() -> str:
    """A short id that ties what a player or channel is told to the log line with details."""
    return secrets.token_hex(4)


class TableManager:
    """Every open table, keyed by channel id.

    ``on_outbox`` is called (synchronously, never awaited) whenever a table has something new to
    show; the edge sets it to wake its delivery of that table.

    ``owns`` says whether a server's tables are this process's (:meth:`bot.core.shards.Shards.owns`
    when the bot runs in several processes sharing one database; None: every server's): only
    those are restored.
    """

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock | None = None,
        owns: Callable[[int], bool] | None = None,
    ) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.owns = owns
        self.tables: dict[int, Table] = {}
        # The same tables by server, then channel: a player's new name is looked for in his
        # server's tables only, not in every table of every server the process runs.
        self._by_guild: dict[int, dict[int, Table]] = {}
        self.on_outbox: Callable[[Table], None] = lambda table: None
        self._tasks: set[asyncio.Task[None]] = set()
        self._unsaved_messages: dict[int, int] = {}  # channel id -> the message showing it
        self._saving_messages: asyncio.Task[None] | None = None
        # What the store holds, so a name or a deck is read once and written only on a change.
        self._saved_names: dict[tuple[int, int], str] = {}
        self._decks: dict[int, bool] = {}

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

    def _add(self, table: Table) -> Table:
        table.outbox.wake = lambda: self.on_outbox(table)
        self.tables[table.channel_id] = table
        self._by_guild.setdefault(table.guild_id, {})[table.channel_id] = table
        return table

    # ------------------------------------------------------------------ tables

    async def open(
        self, guild_id: int, channel_id: int, opener_id: int, config: TableConfig
    ) -> Table:
        if channel_id in self.tables and not self.tables[channel_id].closed:
            raise TableError("table_exists")
        if not config.min_buy_in <= config.max_buy_in or config.min_buy_in < config.stakes.big_bet:
            raise TableError("bad_buy_in_limits")
        await self.store.seating.open(
            channel_id,
            guild_id,
            opener_id,
            max_seats=config.seats,
            min_buy_in=config.min_buy_in,
            max_buy_in=config.max_buy_in,
            settings=config.to_settings(),
        )
        table = self._add(
            Table(channel_id, guild_id, opener_id, config, rotation=config.rotation())
        )
        table.say("table_opened", **opened_params(config, config.lang))
        table.outbox.put(Picture())
        return table

    async def close(self, channel_id: int, user_id: int, *, can_manage: bool) -> dict[int, int]:
        table = self.get(channel_id)
        if user_id != table.opener_id and not can_manage:
            raise TableError("close_not_allowed")
        async with table.lock:
            if table.live is not None:
                raise TableError("close_mid_hand")
            cashed = await self.store.seating.close(channel_id)
            # Read before the closing line is said: the ledger follows it with nothing between.
            ledger = await self._closed_ledger(table)
            table.say("table_closed")
            if ledger is not None:
                table.outbox.put(Ledger(ledger))
            self._forget(table)
        return cashed

    async def ledger(self, channel_id: int) -> SessionLedger:
        """Who sat at the channel's table since it opened, and how each did; once the table
        has closed, the last one's. Names are those the bot last saw on the server."""
        record = await self.store.reports.table_ledger(channel_id)
        if record is None:
            raise TableError("no_table")
        names = await self.store.players.names(record.guild_id, (e.user_id for e in record.entries))
        return SessionLedger.of(
            record, lambda user_id: names.get(user_id) or fallback_name(user_id)
        )

    async def _closed_ledger(self, table: Table) -> SessionLedger | None:
        """The table has just closed: its ledger, to go to the channel after the closing line
        (``None`` if it can't be read)."""
        try:
            return await self.ledger(table.channel_id)
        except Exception:
            # The chips are back in the wallets already; /table ledger still shows it.
            log.warning(
                "channel %s: the closed table's ledger can't be read",
                table.channel_id,
                exc_info=True,
            )
            return None

    async def abandon(self, channel_id: int) -> None:
        """The channel is gone: give back every chip (voiding a hand in play) and close."""
        table = self.tables.get(channel_id)
        if table is None:
            return
        async with table.lock:
            if table.closed:
                return
            if table.live is not None and table.live.end is None:
                await self.store.hands.void(table.live.hand_id, reason="the channel is gone")
            table.live = None
            await self.store.seating.close(channel_id)
            # No ledger is posted: there is no channel left to post it in.
            self._forget(table)
        log.warning("channel %s is gone: its table was closed and every chip returned", channel_id)

    def _forget(self, table: Table) -> None:
        table.closed = True
        self._cancel(table)
        del self.tables[table.channel_id]
        in_guild = self._by_guild[table.guild_id]
        del in_guild[table.channel_id]
        if not in_guild:
            del self._by_guild[table.guild_id]
        table.outbox.wake()

    # ------------------------------------------------------------------ players

    async def seen(self, guild_id: int, user_id: int, name: str) -> None:
        """A player went by ``name`` on ``guild_id`` (he sat, acted or ran a command): the
        tables he plays at show it, and it is saved, when it changed, for histories,
        restarted tables and the leaderboard (the bot has no member cache to ask later)."""
        for table in self._by_guild.get(guild_id, {}).values():
            if user_id in table.names:
                table.names[user_id] = name
        key = (guild_id, user_id)
        if self._saved_names.get(key) != name:
            await self.store.players.save_name(guild_id, user_id, name)
            self._saved_names[key] = name

    async def four_colour(self, user_id: int) -> bool:
        """Whether the player's own pictures (DMs, My cards) use the four-colour deck."""
        if user_id not in self._decks:
            self._decks[user_id] = await self.store.players.four_colour(user_id)
        return self._decks[user_id]

    async def set_four_colour(self, user_id: int, four_colour: bool) -> None:
        await self.store.players.set_four_colour(user_id, four_colour)
        self._decks[user_id] = four_colour

    async def _load_names(self, table: Table, user_ids: Iterable[int]) -> None:
        saved = await self.store.players.names(table.guild_id, user_ids)
        table.names.update(saved)
        self._saved_names.update(((table.guild_id, user), name) for user, name in saved.items())

    # ------------------------------------------------------------------ seats

    async def sit(
        self, channel_id: int, user_id: int, name: str, buy_in: int | None, lang: str = EN
    ) -> Seat:
        table = self.get(channel_id)
        table.names[user_id] = name
        table.langs[user_id] = lang
        await self.seen(table.guild_id, user_id, name)
        if user_id in table.seats:
            raise TableError("already_seated")
        if len(table.seats) >= table.config.seats:
            raise TableError("table_full", seats=table.config.seats)
        if buy_in is None:
            balance = await self.store.wallets.balance(table.guild_id, user_id)
            buy_in = max(table.config.min_buy_in, min(table.config.max_buy_in, balance))
        if not table.config.min_buy_in <= buy_in <= table.config.max_buy_in:
            raise TableError(
                "buy_in_range", min=table.config.min_buy_in, max=table.config.max_buy_in
            )
        async with table.lock:
            seat = await self.store.seating.sit(channel_id, user_id, buy_in)
            table.seats[user_id] = seat
            table.outbox.put(Picture())
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
                table.seats[user_id] = await self.store.seating.set_leaving(
                    channel_id, user_id, True
                )
                table.outbox.put(Picture())
                return None
            chips = await self.store.seating.leave(channel_id, user_id)
            del table.seats[user_id]
            table.outbox.put(Picture())
        return chips

    async def set_sitting_out(self, channel_id: int, user_id: int, sitting_out: bool) -> None:
        table = self.get(channel_id)
        async with table.lock:
            seat = self._seat(table, user_id)
            if seat.sitting_out == sitting_out:
                raise TableError("already_sitting_out" if sitting_out else "not_sitting_out")
            table.seats[user_id] = await self.store.seating.set_sitting_out(
                channel_id, user_id, sitting_out
            )
            table.outbox.put(Picture())
            if not sitting_out:
                self._maybe_schedule_hand(table)

    # ------------------------------------------------------------------ hands

    def _maybe_schedule_hand(self, table: Table) -> None:
        if table.closed or table.live is not None or table.countdown is not None:
            return
        if len(table.eligible()) < 2:
            return
        table.next_hand_at = self.clock.now() + table.config.countdown_seconds
        table.countdown = self._spawn(self._countdown(table))

    async def _countdown(self, table: Table) -> None:
        if table.config.countdown_seconds > 0:
            table.outbox.put(Picture())
            await self.clock.sleep(table.config.countdown_seconds)
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
                table.outbox.put(Picture())
                return None
            positions = [seat.position for seat in players]
            dealer = _next_dealer(positions, table.last_dealer)
            deck = shuffled_deck()
            # Per-position commitments (engine.fairness): the reveal after the hand proves the
            # digest without showing cards nobody saw. The secret is stored, never published.
            salt = new_secret()
            commitment = DeckCommitment(tuple(deck), salt).digest
            rotation = table.rotation
            hand = StudHand(
                stacks=[seat.stack for seat in players],
                stakes=table.config.stakes,
                deck=deck,
                dealer=dealer,
                variant=rotation.variant,
            )
            after = rotation.dealt(len(players))
            hand_id = await self.store.hands.start(
                table.channel_id,
                [(seat.user_id, seat.stack) for seat in players],
                encode(hand),
                commitment=commitment,
                salt=salt,
                settings=(
                    table.config.to_settings() | {"rotation": after.to_dict()}
                    if rotation.mixed
                    else None
                ),
            )
            table.rotation = after
            table.last_dealer = positions[dealer]
            size = float(table.config.time_bank)
            refills = {
                seat.user_id: min(size, table.bank(seat.user_id) + TIME_BANK_REFILL)
                for seat in players
                if table.bank(seat.user_id) < size
            }
            if refills:
                await self._save_banks(table, refills)
            for seat in players:
                table.seats[seat.user_id] = _with_stack(seat, 0)
            live = LiveHand(hand_id, hand, tuple(s.user_id for s in players), commitment, salt)
            table.live = live
            table.log.clear()
            if rotation.starts_game:
                lang = table.config.lang
                table.say(
                    "game_starts",
                    game=game_name(rotation.game, lang),
                    count=rotation.hands_left(len(players)),
                    after=game_name(rotation.after, lang),
                )
            # The commitment goes out before any card is shown (fairness).
            table.say("commitment", hand_id=hand_id, digest=commitment)
            for user_id in live.users:
                self._deal_private(table, live, user_id)
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
        name: str | None = None,
        lang: str | None = None,
    ) -> tuple[str, int | None]:
        """Apply a player's decision; returns the action taken and its amount.

        ``hand_id``/``seq`` come from a button: a button from an ended hand or an earlier
        betting state is refused rather than applied to a state its player never saw.
        ``name`` and ``lang`` are how the player goes now: the table names him so and writes
        to him in that language.
        """
        table = self.get(channel_id)
        if name is not None:
            table.names[user_id] = name
        if lang is not None:
            table.langs[user_id] = lang
        async with table.lock:
            live = table.live
            if hand_id is not None and (live is None or live.hand_id != hand_id):
                raise TableError("old_button")
            if live is None:
                raise TableError("no_hand")
            seat = live.seat_of(user_id)
            if seat is None:
                raise TableError("not_in_hand" if user_id in table.seats else "not_seated")
            if table.paused is not None:
                raise table.paused
            if live.hand.actor != seat:
                raise TableError("not_your_turn")
            if seq is not None and seq != live.seq:
                raise TableError("stale_button")
            legal = live.hand.legal()
            name, shown_amount = _resolve(legal, action, amount)
            before = encode(live.hand)
            banking_since = live.banking_since
            live.hand.apply(name, shown_amount if name == "raise_to" else None)
            await self._commit(table, before)
            if banking_since is not None:
                used = self.clock.now() - banking_since
                await self._save_banks(table, {user_id: max(0.0, table.bank(user_id) - used)})
            return (legal.raise_kind or "raise") if name == "raise_to" else name, shown_amount

    async def _out_of_time(self, table: Table, hand_id: int, seq: int) -> None:
        """The actor's turn ran out: his time bank runs, if he has one; once it is empty too,
        RULES 6.1 acts for him. Nothing happens if he acted in the meantime."""
        async with table.lock:
            live = table.live
            if live is None or live.hand_id != hand_id or live.seq != seq or table.paused:
                return
            actor = live.hand.actor
            assert actor is not None
            user_id = live.users[actor]
            bank = table.bank(user_id)
            if live.banking_since is None and bank >= 1:
                now = self.clock.now()
                live.banking_since, live.deadline = now, now + bank
                self._arm_timer(table, live.deadline)
                table.say("time_bank_used", ping=user_id, mention=f"<@{user_id}>", seconds=bank)
                table.outbox.put(Picture())
                return
            before = encode(live.hand)
            live.hand.timeout()
            await self._commit(table, before)
            if bank:
                await self._save_banks(table, {user_id: 0.0})

    async def _save_banks(self, table: Table, banks: dict[int, float]) -> None:
        """Remember time banks, in the store too (a restart keeps them)."""
        table.banks.update(banks)
        try:
            await self.store.seating.set_time_banks(table.channel_id, banks)
        except Exception:
            # Seconds, not chips: the table plays on with what it knows.
            log.warning("channel %s: time banks not saved", table.channel_id, exc_info=True)

    async def _commit(self, table: Table, before: bytes) -> None:
        """Save the decision just applied (settling the hand if it ended), then record it.

        If the database refuses, the hand goes back to ``before``, which is what the database
        still holds, and its clock runs on: nothing is shown that wasn't saved, and the table
        never waits on a decision that can't come.
        """
        live = table.live
        assert live is not None
        try:
            if live.hand.is_over:
                live.end = await self._settle(live)
            else:
                await self.store.hands.save_action(live.hand_id, encode(live.hand))
        except BaseException:
            live.hand = decode(before)
            if live.deadline is not None:
                self._arm_timer(table, live.deadline)
            raise
        await self._after_change(table)

    async def _settle(self, live: LiveHand) -> HandEnd:
        """Pay out the finished hand and count it in its players' stats (one transaction)."""
        hand = live.hand
        return await self.store.hands.settle(
            live.hand_id, encode(hand), list(hand.stacks), facts=hand_facts(hand)
        )

    async def _after_change(self, table: Table, *, restoring: bool = False) -> None:
        """Announce new events, settle a finished hand, and ask for the table to be shown."""
        live = table.live
        assert live is not None
        hand = live.hand
        new_events = hand.events[live.announced :]
        live.announced = len(hand.events)
        for event in new_events:
            line = announce(
                event, table.config.lang, table.seat_name, table.config.stakes, hand.variant
            )
            if line is not None:
                table.log.append(line)
        if not restoring and not _is_initial(new_events):
            seventh = [
                live.users[e.seat]
                for e in new_events
                if isinstance(e, ev.CardDealt) and e.street == 7 and not e.face_up
            ]
            for user_id in dict.fromkeys(seventh):
                self._deal_private(table, live, user_id)
        self._cancel_timer(table)
        live.deadline = live.banking_since = None
        if hand.is_over:
            await self._finish(table)
            return
        table.outbox.put(Picture())

    def _deal_private(self, table: Table, live: LiveHand, user_id: int) -> None:
        seat = live.seat_of(user_id)
        assert seat is not None
        cards = PrivateHand.for_seat(live.hand, seat)
        table.outbox.put(Private(user_id, live.hand_id, cards, game_of(live.hand.variant)))

    async def _finish(self, table: Table) -> None:
        """The hand is over: settle it if no decision did (over when dealt), then wrap it up."""
        live = table.live
        assert live is not None
        if live.end is None:
            try:
                live.end = await self._settle(live)
            except Exception:
                # Nothing to roll back (no one decided anything): keep the hand and try again.
                log.warning("hand %s: settlement failed; trying again", live.hand_id, exc_info=True)
                self._spawn(self._settle_later(table, live))
                return
        await self._wrap_up(table, live, live.end)

    async def _settle_later(self, table: Table, live: LiveHand) -> None:
        for attempt in itertools.count():
            await self.clock.sleep(
                SETTLE_RETRY_SECONDS[min(attempt, len(SETTLE_RETRY_SECONDS) - 1)]
            )
            async with table.lock:
                if table.closed or table.live is not live:
                    return
                try:
                    live.end = await self._settle(live)
                except Exception:
                    log.warning("hand %s: settlement failed again", live.hand_id)
                    continue
                await self._wrap_up(table, live, live.end)
                return

    async def _wrap_up(self, table: Table, live: LiveHand, end: HandEnd) -> None:
        hand = live.hand
        table.live = None
        self._cancel_timer(table)
        timed_out = {live.users[seat] for seat in hand.timed_out}
        fresh = {seat.user_id: seat for seat in await self.store.seating.seats(table.channel_id)}
        for user_id in list(fresh):
            seat = fresh[user_id]
            if user_id in timed_out and not seat.sitting_out:
                # RULES 6.2: out of time -> sitting out from the next hand.
                fresh[user_id] = await self.store.seating.set_sitting_out(
                    table.channel_id, user_id, True
                )
            elif seat.stack == 0 and not seat.sitting_out:
                await self.store.seating.leave(table.channel_id, user_id)
                del fresh[user_id]
        table.seats = fresh
        # Scheduled first so the results can say when the next hand starts.
        self._maybe_schedule_hand(table)
        last_action = table.log[-1] if table.log else ""
        table.outbox.put(Results(live, end, table.next_hand_at, last_action))
        for user_id in sorted(timed_out & set(fresh)):
            table.say("timed_out_sat_out", name=table.name(user_id))
        table.outbox.put(Picture())

    # ------------------------------------------------------------------ what the edge reports

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
        live.deadline = self.clock.now() + table.config.turn_seconds
        self._arm_timer(table, live.deadline)

    def message_posted(self, table: Table, message_id: int) -> None:
        """The table is now shown by ``message_id``: remember it, across restarts too.

        Saved by one task with every other table's posted meanwhile, in one transaction: a
        write of its own per new street made every other table's next action wait for it."""
        table.message_id = message_id
        if table.closed:
            return
        self._unsaved_messages[table.channel_id] = message_id
        if self._saving_messages is None or self._saving_messages.done():
            self._saving_messages = asyncio.get_running_loop().create_task(
                self._save_messages(), name="save-table-messages"
            )

    async def _save_messages(self) -> None:
        while self._unsaved_messages:
            posted, self._unsaved_messages = self._unsaved_messages, {}
            try:
                await self.store.seating.set_messages(posted)
            except Exception:
                # Only a restart's clean-up of old buttons needs them; the tables play on.
                log.warning("could not save the messages of %d tables", len(posted), exc_info=True)

    def pause(self, table: Table, reason: TableError) -> None:
        """The table can't be shown (missing permissions): nobody's clock runs meanwhile."""
        if table.paused is None:
            log.warning("channel %s: table paused (%s)", table.channel_id, reason.key)
        table.paused = reason
        self._cancel_timer(table)
        live = table.live
        if live is not None:
            if live.banking_since is not None and (user_id := table.actor_id()) is not None:
                # The bank stops too; what ran of it before the pause is spent.
                used = self.clock.now() - live.banking_since
                banks = {user_id: max(0.0, table.bank(user_id) - used)}
                self._spawn(self._save_banks(table, banks))
            live.deadline = live.banking_since = None

    def resume(self, table: Table) -> None:
        """Showing works again: deliver what waited, and the actor's clock starts afresh."""
        if table.paused is None:
            return
        log.info("channel %s: table resumed", table.channel_id)
        table.paused = None
        table.outbox.put(Picture())
        table.outbox.wake()

    def dm_failed(self, table: Table, hand_id: int, user_id: int) -> None:
        """A player's DMs are closed: the channel says so once per hand."""
        live = table.live
        if live is None or live.hand_id != hand_id or user_id in live.dm_failed:
            return
        live.dm_failed.add(user_id)
        table.say("dm_closed", ping=user_id, mention=f"<@{user_id}>")

    # ------------------------------------------------------------------ clock

    def _arm_timer(self, table: Table, deadline: float) -> None:
        self._cancel_timer(table)
        live = table.live
        if live is None or live.hand.actor is None:
            return
        seconds = max(0.0, deadline - self.clock.now())
        table.timer = self._spawn(self._turn_clock(table, live.hand_id, live.seq, seconds))

    async def _turn_clock(self, table: Table, hand_id: int, seq: int, seconds: float) -> None:
        # Durations, not times of day: each sleep is measured from when the last one ended.
        if seconds > WARNING_SECONDS:
            await self.clock.sleep(seconds - WARNING_SECONDS)
            live = table.live
            if live is None or live.hand_id != hand_id or live.seq != seq:
                return
            user_id = table.actor_id()
            if user_id is not None:
                table.say("warning", ping=user_id, mention=f"<@{user_id}>")
        await self.clock.sleep(min(seconds, WARNING_SECONDS))
        await self._out_of_time(table, hand_id, seq)

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
        """Load every open table this process owns and continue every hand in progress there;
        returns the hand ids.

        Never raises for one table's sake: a hand that can't be continued is voided (every
        player gets his chips back), the channel is told, the log has the details under an id,
        and every other table goes on. Another process's tables are left alone, even unreadable
        ones: that process closes those.
        """
        live_hands = await self.store.hands.live()
        for record in await self.store.seating.tables():
            if self.owns is not None and not self.owns(record.guild_id):
                continue
            try:
                config = TableConfig.from_settings(
                    record.settings, record.max_seats, record.min_buy_in, record.max_buy_in
                )
                rotation = config.rotation(record.settings)
            except Exception as error:
                hand = next((h for h in live_hands if h.channel_id == record.channel_id), None)
                await self._close_unreadable(record.channel_id, hand, error)
                continue
            table = self._add(
                Table(
                    record.channel_id, record.guild_id, record.opener_id, config, rotation=rotation
                )
            )
            table.seats = {s.user_id: s for s in await self.store.seating.seats(record.channel_id)}
            table.banks = {
                s.user_id: s.time_bank for s in table.seats.values() if s.time_bank is not None
            }
            await self._load_names(table, table.seats.keys())
            if record.message_id is not None:
                # The old message's buttons go before anything new is posted.
                table.outbox.put(ClearButtons(record.message_id))
        restored: list[int] = []
        for hand_record in live_hands:
            if hand_record.channel_id not in self.tables:
                continue  # another process's, or its table could not be loaded and was closed
            table = self.tables[hand_record.channel_id]
            players = sorted(hand_record.players, key=lambda p: p.seat_index)
            async with table.lock:
                try:
                    # Before the log is rebuilt: its lines name the players.
                    await self._load_names(table, (p.user_id for p in players))
                    table.live = LiveHand(
                        hand_record.hand_id,
                        decode(hand_record.state),
                        tuple(p.user_id for p in players),
                        hand_record.commitment,
                        hand_record.salt,
                    )
                    table.say("restored", hand_id=hand_record.hand_id)
                    await self._after_change(table, restoring=True)
                except Exception as error:
                    await self._void_unrestorable(table, hand_record.hand_id, error)
                    continue
            restored.append(hand_record.hand_id)
        for table in self.tables.values():
            if table.live is None:
                table.outbox.put(Picture())
                self._maybe_schedule_hand(table)
        return restored

    async def _close_unreadable(
        self, channel_id: int, hand: HandRecord | None, error: Exception
    ) -> None:
        """A table whose settings can't be read can't be played: give every chip back."""
        ident = error_id()
        log.error(
            "table in channel %s can't be loaded (error %s: %r); closing it, chips returned",
            channel_id,
            ident,
            error,
        )
        try:
            if hand is not None:
                await self.store.hands.void(hand.hand_id, reason=f"table unreadable ({ident})")
            await self.store.seating.close(channel_id)
        except Exception:
            log.exception(
                "the table in channel %s could not be closed (error %s)", channel_id, ident
            )

    async def _void_unrestorable(self, table: Table, hand_id: int, error: Exception) -> None:
        ident = error_id()
        log.error(
            "hand %s can't be continued after the restart (error %s: %s); voiding it",
            hand_id,
            ident,
            error,
        )
        table.live = None
        table.log.clear()
        try:
            await self.store.hands.void(hand_id, reason=f"restore failed ({ident}): {error}")
            table.seats = {s.user_id: s for s in await self.store.seating.seats(table.channel_id)}
        except Exception:
            log.exception("hand %s could not be voided either (error %s)", hand_id, ident)
            return
        table.say("restore_voided", hand_id=hand_id, error_id=ident)

    async def shutdown(self) -> None:
        """Stop every clock and countdown, then wait for the changes in flight to be saved."""
        for table in self.tables.values():
            self._cancel(table)
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for table in list(self.tables.values()):
            async with table.lock:
                pass
        if self._saving_messages is not None:
            await self._saving_messages
        await self._save_messages()  # any posted since


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
    return replace(seat, stack=stack)


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
                allowed=legal.raise_to,
            )
        return "raise_to", total
    raise TableError("illegal_action", reason=action)

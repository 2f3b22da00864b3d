"""The dealer: a hand from the deal to its settlement, at any table.

Every change happens under the table's lock. Every decision is saved (``store.hands.save_action``)
before it is shown; if saving fails the hand in memory goes back to what the database holds, so
what players see always matches it. What players must see goes into the table's outbox, which
the edge delivers; the dealer never awaits a delivery, so a slow or failing Discord cannot hold
a table's lock or its players' chips.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace

from bot.core.announce import announce
from bot.core.clock import Clock, pauses
from bot.core.computer_seats import humans, send_bots_home
from bot.core.errors import BotLacksPermissions, TableError
from bot.core.games import game_name
from bot.core.open_tables import OpenTables
from bot.core.players import Players
from bot.core.showing import private_view, results_view
from bot.core.stats import hand_facts
from bot.core.storage import HandEnd, Store
from bot.core.storage.house import is_bot
from bot.core.table import LiveHand, Table, buttons_for
from bot.core.tasks import Tasks, cancel
from bot.core.turns import TurnClock
from bot.core.views import Outcome, PrivateView, ResultsView
from engine import events as ev
from engine.cards import shuffled_deck
from engine.codec import decode, encode
from engine.fairness import DeckCommitment, new_secret
from engine.hand import LegalActions, StudHand
from engine.odds import all_in_odds
from engine.odds import position as all_in_position
from strategy.habits import remember
from words import Texts

log = logging.getLogger(__name__)

# A hand over without a decision (all in on the antes) is settled at once; if the database
# refuses, it is tried again after these pauses, then every minute.
SETTLE_RETRY_SECONDS = (1.0, 5.0, 15.0, 60.0)


class ActionNotAllowed(TableError):
    """The action isn't among the legal ones; the reply lists those, in the player's language."""

    def __init__(self, legal: LegalActions) -> None:
        super().__init__("cant_now")
        self.options = buttons_for(legal)

    def message(self, texts: Texts, lang: str) -> str:
        labels = [texts.t(lang, f"btn_{spec.action}", amount=spec.amount) for spec in self.options]
        return texts.t(lang, "cant_now", options=", ".join(labels))


class Dealer:
    def __init__(
        self,
        store: Store,
        texts: Texts,
        clock: Clock,
        tasks: Tasks,
        open_tables: OpenTables,
        players: Players,
    ) -> None:
        self._store = store
        self._texts = texts
        self._clock = clock
        self._tasks = tasks
        self._open_tables = open_tables
        self._players = players
        self.turns = TurnClock(store, clock, tasks, self._out_of_time)

    # ------------------------------------------------------------------ between hands

    def schedule(self, table: Table) -> None:
        """Count down to the next hand if two or more players can be dealt in."""
        if table.closed or table.live is not None or table.countdown is not None:
            return
        if len(table.eligible()) < 2 or not _person_dealt_in(table):
            return
        seconds = _countdown_seconds(table)
        table.next_hand_at = self._clock.now() + seconds
        table.countdown = self._tasks.spawn(self._countdown(table, seconds))

    async def _countdown(self, table: Table, seconds: float) -> None:
        if seconds > 0:
            table.outbox.redraw()
            await self._clock.sleep(seconds)
        table.countdown = None
        table.next_hand_at = None
        await self.start_hand(table)

    def stop(self, table: Table) -> None:
        """No clock or countdown runs at the table any more (it closed, or the bot stops)."""
        self.turns.stop(table)
        countdown, table.countdown = table.countdown, None
        cancel(countdown)

    # ------------------------------------------------------------------ a hand

    async def start_hand(self, table: Table) -> int | None:
        """Deal a hand if two or more seated players are in; returns its id."""
        async with table.lock:
            if table.closed or table.live is not None:
                return None
            players = table.eligible()
            if len(players) < 2 or not _person_dealt_in(table):
                table.outbox.redraw()
                return None
            if table.tournament is not None and not table.tournament.may_deal(table):
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
                # RULES 5.6: those who chose always to show never muck.
                always_show=[i for i, s in enumerate(players) if self._players.shows(s.user_id)],
            )
            after = rotation.dealt(len(players))
            hand_id = await self._store.hands.start(
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
            await self.turns.refill(table, players)
            for seat in players:
                table.seats[seat.user_id] = replace(seat, stack=0)
            live = LiveHand(hand_id, hand, tuple(s.user_id for s in players), commitment, salt)
            table.live = live
            table.log.clear()
            if rotation.starts_game:
                lang = table.config.lang
                table.outbox.say(
                    "game_starts",
                    game=game_name(self._texts, rotation.game, lang),
                    count=rotation.hands_left(len(players)),
                    after=game_name(self._texts, rotation.after, lang),
                )
            # The commitment goes out before any card is shown (fairness): in the hand's
            # message, which is shown before the players' own cards.
            table.outbox.redraw()
            for user_id in live.users:
                self._deal_private(table, live, user_id)
            await self.after_change(table)
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
        missing: Sequence[str] | None = None,
        update: bool = False,
    ) -> Outcome:
        """Apply a player's decision; returns the action taken and its amount, and with
        ``update`` the table's update that answers it (a click is answered by it).

        ``hand_id``/``seq`` come from a button: a button from an ended hand or an earlier
        betting state is refused rather than applied to a state its player never saw.
        ``name`` and ``lang`` are how the player goes now: the table names him so (his name is
        remembered with the action: a click enters the core once) and writes to him in that
        language. ``missing`` is what the bot lacks in the channel, as the click showed it
        (Discord permission names; None: not known): a table that can't be shown pauses, one
        that can again resumes.
        """
        table = self._open_tables.get(channel_id)
        if missing:
            self.turns.pause(table, BotLacksPermissions(missing))
        elif missing is not None:
            self.turns.resume(table)
        if name is not None:
            await self._players.remember(table.guild_id, user_id, name)
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
            if table.outbox.paused is not None:
                raise table.outbox.paused
            if live.hand.actor != seat:
                raise TableError("not_your_turn")
            if seq is not None and seq != live.seq:
                raise TableError("stale_button")
            legal = live.hand.legal()
            decision, shown_amount = _resolve(legal, action, amount)
            before = encode(live.hand)
            banking_since = live.banking_since
            live.hand.apply(decision, shown_amount if decision == "raise_to" else None)
            results = await self._commit(table, before)
            if banking_since is not None:
                await self.turns.spend(table, user_id, banking_since)
            taken = (legal.raise_kind or "raise") if decision == "raise_to" else decision
            if not update:
                return Outcome(taken, shown_amount)
            # Built under the lock: what the decision left, whatever comes after it.
            shown = results if results is not None else table.outbox.view()
            return Outcome(taken, shown_amount, shown, table.outbox.version)

    async def cards(self, channel_id: int, user_id: int, *, name: str, lang: str) -> PrivateView:
        """The player's own cards in the current hand (My cards); ``TableError`` if he has
        none. ``name`` and ``lang`` are how he goes now, for his picture."""
        table = self._open_tables.get(channel_id)
        live = table.live
        if live is None or live.seat_of(user_id) is None:
            raise TableError("no_cards")
        four_colour = await self._players.four_colour(user_id)
        return private_view(table, live, user_id, four_colour, name=name, lang=lang)

    def dm_failed(self, table: Table, hand_id: int, user_id: int) -> None:
        """A player's DMs are closed: the channel says so once a table session (every hand,
        it would be noise, and the player knows by then)."""
        live = table.live
        if live is None or live.hand_id != hand_id or user_id in table.dms_told:
            return
        table.dms_told.add(user_id)
        table.outbox.say("dm_closed", ping=user_id, mention=f"<@{user_id}>")

    async def _out_of_time(self, table: Table, hand_id: int, seq: int) -> None:
        """The actor's turn ran out: his time bank runs, if he has one; once it is empty too,
        RULES 6.1 acts for him. Nothing happens if he acted in the meantime."""
        async with table.lock:
            live = table.live
            if (
                live is None
                or live.hand_id != hand_id
                or live.seq != seq
                or table.outbox.paused is not None
            ):
                return
            if self.turns.draw_on_bank(table, live):
                return
            user_id = table.actor_id()
            assert user_id is not None
            bank = table.bank(user_id)
            before = encode(live.hand)
            live.hand.timeout()
            await self._commit(table, before)
            if bank:
                await self.turns.save(table, {user_id: 0.0})

    async def _commit(self, table: Table, before: bytes) -> ResultsView | None:
        """Save the decision just applied (settling the hand if it ended), then record it;
        the hand's results if it ended.

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
                await self._store.hands.save_action(live.hand_id, encode(live.hand))
        except BaseException:
            live.hand = decode(before)
            self.turns.restart(table)
            raise
        return await self.after_change(table)

    async def _settle(self, live: LiveHand) -> HandEnd:
        """Pay out the finished hand and count it in its players' stats (one transaction)."""
        hand = live.hand
        return await self._store.hands.settle(
            live.hand_id, encode(hand), list(hand.stacks), facts=hand_facts(hand)
        )

    async def after_change(self, table: Table, *, restoring: bool = False) -> ResultsView | None:
        """Announce new events, settle a finished hand, and ask for the table to be shown; the
        hand's results if it is over (and settled)."""
        live = table.live
        assert live is not None
        hand = live.hand
        new_events = hand.events[live.announced :]
        live.announced = len(hand.events)
        lang = table.config.lang
        for event in new_events:
            line = announce(
                event, self._texts, lang, table.seat_name, table.config.stakes, hand.variant
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
        self.turns.stop(table)
        live.deadline = live.banking_since = None
        if hand.is_over:
            return await self._finish(table)
        table.outbox.redraw()
        return None

    def _deal_private(self, table: Table, live: LiveHand, user_id: int) -> None:
        if is_bot(user_id):
            return  # a computer player is never sent a DM
        four_colour = self._players.deck(user_id)
        name, lang = table.name(user_id), table.lang_of(user_id)
        table.outbox.put(private_view(table, live, user_id, four_colour, name=name, lang=lang))

    async def _finish(self, table: Table) -> ResultsView | None:
        """The hand is over: settle it if no decision did (over when dealt), then wrap it up."""
        live = table.live
        assert live is not None
        if live.end is None:
            try:
                live.end = await self._settle(live)
            except Exception:
                # Nothing to roll back (no one decided anything): keep the hand and try again.
                log.warning("hand %s: settlement failed; trying again", live.hand_id, exc_info=True)
                self._tasks.spawn(self._settle_later(table, live))
                return None
        return await self._wrap_up(table, live, live.end)

    async def _settle_later(self, table: Table, live: LiveHand) -> None:
        for pause in pauses(SETTLE_RETRY_SECONDS):
            await self._clock.sleep(pause)
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

    async def _wrap_up(self, table: Table, live: LiveHand, end: HandEnd) -> ResultsView:
        hand = live.hand
        table.live = None
        remember(table.habits, hand, live.users)
        self.turns.stop(table)
        if table.tournament is not None:
            # RULES 11.3: at a tournament's table nobody sits out or leaves; its director takes
            # the players out, moves them and deals the next hand.
            last = table.log[-1] if table.log else ""
            results = results_view(table, live, end, self._texts, last)
            table.outbox.put(results)
            table.outbox.redraw()
            table.tournament.hand_ended(table, live, end)
            return results
        timed_out = {live.users[seat] for seat in hand.timed_out}
        fresh = {seat.user_id: seat for seat in await self._store.seating.seats(table.channel_id)}
        for user_id in list(fresh):
            seat = fresh[user_id]
            if seat.stack == 0:
                # Busted: he leaves, whether he asked to sit out or timed out (RULES 6.2 is
                # for players with chips to come back to).
                await self._store.seating.leave(table.channel_id, user_id)
                del fresh[user_id]
            elif user_id in timed_out and not seat.sitting_out:
                # RULES 6.2: out of time -> sitting out from the next hand.
                fresh[user_id] = await self._store.seating.set_sitting_out(
                    table.channel_id, user_id, True
                )
        table.seats = fresh
        # Computer players are company for people: with none seated, they go.
        await send_bots_home(self._store, table)
        # Scheduled first so the results can say when the next hand starts.
        self.schedule(table)
        last_action = table.log[-1] if table.log else ""
        odds = None
        if all_in_position(hand) is not None:
            # An exact count can be long (docs/performance.md): off the event loop.
            odds = await asyncio.to_thread(all_in_odds, hand, live.hand_id)
        results = results_view(table, live, end, self._texts, last_action, odds)
        table.outbox.put(results)
        for user_id in sorted(timed_out & set(fresh)):
            table.outbox.say("timed_out_sat_out", name=table.name(user_id))
        table.outbox.redraw()
        return results


def _person_dealt_in(table: Table) -> bool:
    """Computer players never play a hand among themselves at a cash table; in a
    tournament they are entrants like anyone, and play on whoever sits with them."""
    if table.tournament is not None:
        return True
    eligible = {seat.user_id for seat in table.eligible()}
    return any(user_id in eligible for user_id in humans(table))


def _countdown_seconds(table: Table) -> float:
    """A tournament with no person left is played out at once: nobody is waiting."""
    if table.tournament is not None and table.tournament.unattended():
        return 0.0
    return table.config.countdown_seconds


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

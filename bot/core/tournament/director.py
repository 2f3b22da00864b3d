"""The director of one running tournament (RULES 11): the levels at its tables, who goes out in
which place, balancing and breaking its tables, hand-for-hand on the bubble, and the payout.

Its tables are core tables like any other, each in a channel of its own (a thread), dealt by the
dealer; the director is each one's :class:`~bot.core.table.Director`. The dealer asks it before
every hand whether to deal (hand-for-hand may hold a table, 11.6) and has it set the level's
stakes (11.2); when a hand ends the dealer hands it over. The director notes the players out at
once, as the hand ends, while the table is surely still its own; then, under its lock and one
step at a time, it ranks them (11.4), moves players between tables that are between hands
(11.5), saves it all in one transaction, and deals on. Hands that end while a step is under way
wait for the next, which deals with all of them: no table deals meanwhile, so none is dealt
before it is balanced or broken. Every random choice draws from a ``Random`` seeded with the
tournament's seed and the hand that led to it, logged, so the draw can be repeated (11.5).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from random import Random

from bot.core.clock import Clock, pauses
from bot.core.dealer import Dealer
from bot.core.errors import TableError
from bot.core.open_tables import OpenTables
from bot.core.storage import HandEnd, RegistrationClosed, Store, Tournament
from bot.core.storage.house import is_bot
from bot.core.table import LiveHand, Table
from bot.core.tasks import Tasks
from bot.core.tournament.telling import tell_step
from bot.core.tournament.waiting import Out, Waiting
from bot.core.views import LevelClock
from engine.codec import decode
from engine.stakes import Stakes
from engine.tournament import (
    Break,
    Finish,
    Move,
    Structure,
    award,
    hand_for_hand,
    level_at,
    paid_places,
    places_after_reentry,
    plan_after_hand,
    prize_table,
    round_dealt,
    structure,
)

log = logging.getLogger(__name__)

# If the store refuses what happens between hands, it is tried again after these pauses.
RETRY_SECONDS = (1.0, 5.0, 15.0, 60.0)
# A level counted in time is saved this often (and between hands): a crash costs the level at
# most this much more time (RULES 11.8).
CLOCK_SAVE_SECONDS = 10.0


@dataclass(slots=True)
class Record:
    """What the director did, for the lobby and for checking it: the places, the rounds played
    hand for hand, the moves and breaks, and the seed of each draw."""

    finishes: list[Finish] = field(default_factory=list)
    hand_for_hand_rounds: int = 0
    bubbles: list[int] = field(default_factory=list)  # tables in play each time on the bubble
    moves: list[Move] = field(default_factory=list)
    breaks: list[int] = field(default_factory=list)
    draws: list[str] = field(default_factory=list)
    prizes: dict[int, int] = field(default_factory=dict)
    # (table, hand-for-hand round or None) of each hand dealt, in order
    dealt: list[tuple[int, int | None]] = field(default_factory=list)


class TournamentDirector:
    """One running tournament. Made by ``bot.core.tournament.Tournaments`` at the start or on
    a restart; ``on_finish`` is called once it has paid out."""

    def __init__(
        self,
        tournament: Tournament,
        tables: dict[int, Table],
        *,
        store: Store,
        dealer: Dealer,
        open_tables: OpenTables,
        clock: Clock,
        tasks: Tasks,
        players_left: set[int],
        on_finish: Callable[[TournamentDirector], Awaitable[None]],
        on_change: Callable[[TournamentDirector], Awaitable[None]] | None = None,
        hands_dealt: dict[int, int] | None = None,
        finishes: Sequence[Finish] = (),
    ) -> None:
        self.tournament = tournament
        self.structure: Structure = structure(tournament.structure)
        self.tables = tables  # number -> its core table
        self._numbers = {table.channel_id: number for number, table in tables.items()}
        self._store = store
        self._dealer = dealer
        self._open_tables = open_tables
        self._clock = clock
        self._tasks = tasks
        self._on_finish = on_finish
        self._on_change = on_change
        self.left = set(players_left)
        self.entrants = 0  # entries in all, set by whoever made it (the prize table's size)
        self.record = Record(finishes=list(finishes))
        self._lock = asyncio.Lock()  # held by one step between hands (or a late entry) at a time
        self._waiting = Waiting()  # players out, not ranked yet
        # (table, hand) of each hand over that no step has dealt with yet, in the order they
        # ended; (None, 0) after a restart, when the tables are planned again.
        self._ended: list[tuple[int | None, int]] = []
        self._hands_dealt = dict(hands_dealt or dict.fromkeys(tables, 0))
        self._levels: dict[int, int] = {}  # the level each table last dealt at
        self._elapsed = tournament.elapsed
        self._resumed_at = clock.now()
        self.hand_for_hand = False
        self._round: set[int] = set()  # tables that dealt in this hand-for-hand round
        self._due: set[int] = set()  # tables yet to deal their hand of the round
        self._opening = False  # a round is to open: every table counts down at once
        self.finished = False
        # Nothing is dealt: restored, its levels not read yet, or the store refused a step.
        self._held = False
        for table in tables.values():
            table.tournament = self
        if tournament.level_unit == "seconds":
            self._tasks.spawn(self._keep_clock())

    def resume(
        self, outs: Sequence[tuple[int, int, int, int]], playing: set[int], dealt: dict[int, int]
    ) -> None:
        """After a restart: ``outs`` (the hand he went out in, counted in the order the hands
        ended; table; player; chips he began that hand with) went out in hands the director had
        not dealt with, sorted; the tables ``playing`` have a hand in play; ``dealt``, the
        hands each table dealt since the last players out were ranked. A hand-for-hand round
        resumes where it was: those yet to deal in it deal, the others wait. Otherwise
        nothing is dealt until the players out have their places and the tables between hands
        are balanced."""
        staying = len(self.left) - len(outs)
        paid = paid_places(self.entrants)
        # Out on the bubble, hand for hand: they went out in one round, and tie as in one hand.
        in_round = hand_for_hand(len(self.left), paid, len(self.tables))
        # A round with players out in it goes on until every table has played its hand.
        self.hand_for_hand = in_round or hand_for_hand(staying, paid, len(self.tables))
        if staying == paid + 1:
            self.record.bubbles.append(len(self.tables))
        if in_round:
            # Every table even and none playing, with players out in the round waiting for
            # their places: its last hand had ended, the round is over.
            self._round = round_dealt(dealt, playing) or (set(self.tables) if outs else set())
            # Those yet to deal in it deal theirs, together.
            self._due = {
                number
                for number, table in self.tables.items()
                if number not in self._round and len(table.eligible()) > 1
            }
        else:
            # The bubble comes with these players out: a table with a hand in play is its round.
            self._round = set(self.tables) if self.hand_for_hand and playing else set()
        self.record.hand_for_hand_rounds += self.hand_for_hand  # the round it resumes
        # Even with nobody out, the tables are planned again (unless a round goes on): a crash
        # may have come between a hand's end and the moves it called for.
        self._held = True
        self._ended.append((None, 0))
        self._waiting.restored(outs, in_round)
        self._tasks.spawn(self._resume())

    async def _resume(self) -> None:
        async with self._lock:
            await self._restore_levels()
        self._held = False
        await self._work()

    # ------------------------------------------------------------------ the clock and levels

    def elapsed(self) -> int:
        """Seconds of play so far (RULES 11.8: a restart resumes from the saved figure)."""
        return self._elapsed + int(self._clock.now() - self._resumed_at)

    async def _keep_clock(self) -> None:
        """Save the seconds of play every few seconds while it runs (11.8): a restart resumes
        the level within that of where it stood, the time it was down not counted."""
        while not self.finished:
            await self._clock.sleep(CLOCK_SAVE_SECONDS)
            if self.finished:
                return
            try:
                await self._store.tournaments.set_elapsed(
                    self.tournament.tournament_id, self.elapsed()
                )
            except Exception:
                # The next save, or the next hand's end, writes it.
                log.warning("tournament %s: clock not saved", self.tournament.tournament_id)

    def level(self, number: int) -> int:
        """The level table ``number``'s next hand is dealt at (11.2)."""
        if self.tournament.level_unit == "hands":
            done = self._hands_dealt.get(number, 0)
            return level_at(done, self.tournament.level_length)
        return level_at(self.elapsed(), self.tournament.level_length)

    def next_level(self) -> tuple[int, int]:
        """The level the next hand is dealt at, and the seconds (or hands, at the table that
        has dealt most) until the one after it (11.2), for the lobby."""
        length = self.tournament.level_length
        if self.tournament.level_unit == "hands":
            done = max(self._hands_dealt.values(), default=0)
        else:
            done = self.elapsed()
        level = level_at(done, length)
        return level, level * length - done

    def level_clock(self, table: Table) -> LevelClock | None:
        number = self._numbers.get(table.channel_id)
        if number is None or self.finished:
            return None
        # The level its stakes are of: its last hand's, or before any the next one's.
        level = self._levels.get(number) or self.level(number)
        end = level * self.tournament.level_length
        if self.tournament.level_unit == "hands":
            return LevelClock(level, "hands", max(0, end - self._hands_dealt.get(number, 0)), None)
        left = max(0, end - self.elapsed())
        return LevelClock(level, "seconds", left, self._clock.now() + left if left else None)

    async def _restore_levels(self) -> None:
        """After a restart, the level each table last dealt at, read from its last hand: the
        thread was told of it, and is told of the next one only (11.2). Its stakes go back on
        the table, for its message until the next hand."""
        for number, table in self.tables.items():
            try:
                if table.live is not None:
                    stakes = table.live.hand.stakes
                else:
                    hand_id = await self._store.hands.last_at(table.channel_id)
                    if hand_id is None:
                        continue
                    stakes = decode((await self._store.hands.get(hand_id)).state).stakes
            except Exception:
                # Then the next level is told again, at worst.
                log.warning("table %s: its level was not read", table.channel_id, exc_info=True)
                continue
            level = self._level_of(stakes)
            if level is not None:
                self._levels[number] = level
                table.config = replace(table.config, stakes=stakes)

    def _level_of(self, stakes: Stakes) -> int | None:
        """The level of these stakes (every level's small bet is above the one before)."""
        for number in itertools.count(1):
            found = self.structure.level(number).stakes
            if found == stakes:
                return number
            if found.small_bet > stakes.small_bet:
                return None
        return None

    def seats(self) -> dict[int, list[int | None]]:
        """Every table's seats by number from 1, as ``engine.tournament`` takes them."""
        return {
            number: [
                next((s.user_id for s in table.seats.values() if s.position == p), None)
                for p in range(table.config.seats)
            ]
            for number, table in self.tables.items()
        }

    # ------------------------------------------------------------------ the dealer's hooks

    def may_deal(self, table: Table) -> bool:
        number = self._numbers.get(table.channel_id)
        if self.finished or number is None or self._held:
            return False
        if self.hand_for_hand:
            # 11.6: only its hand of the round, once the round is open (none deals before the
            # last one's players out are ranked and the tables planned).
            if number not in self._due:
                return False
            self._due.discard(number)
            self._round.add(number)
        elif self._ended or self._lock.locked():
            # A hand is over and the director is about to move players, or moving them: it
            # deals again when it is done.
            return False
        self.record.dealt.append(
            (number, self.record.hand_for_hand_rounds if self.hand_for_hand else None)
        )
        level = self.level(number)
        stakes = self.structure.level(level).stakes
        if table.config.stakes != stakes:
            table.config = replace(table.config, stakes=stakes)
        if self._levels.get(number) not in (None, level):
            table.outbox.say(
                "tournament_level",
                level=level,
                small=stakes.small_bet,
                big=stakes.big_bet,
                ante=stakes.ante,
                bring_in=stakes.bring_in,
            )
        self._levels[number] = level
        self._hands_dealt[number] = self._hands_dealt.get(number, 0) + 1
        return True

    def hand_ended(self, table: Table, live: LiveHand, end: HandEnd) -> None:
        # Noted now, not in the task: a table is never broken while it plays a hand, so it is
        # still this director's, and a step that runs first (breaking it, say) knows who is out.
        number = self._numbers[table.channel_id]
        hand = live.hand
        outs = [
            (number, order, live.users[seat], hand.starting_stacks[seat])
            for order, seat in enumerate(hand.dealing_order)
            if end.final_stacks[live.users[seat]] == 0
        ]
        self._waiting.hand_ended(self.hand_for_hand, outs)
        self._ended.append((number, live.hand_id))
        self._tasks.spawn(self._work())

    def unattended(self) -> bool:
        return all(is_bot(user_id) for user_id in self.left)

    # ------------------------------------------------------------------ between hands

    async def _work(self) -> None:
        """Deal with every hand over, one step at a time under the lock, then deal on. Hand for
        hand, a hand over while its round goes on only has its table shown anew: its players
        out wait for the round's last hand (11.4, 11.6). If the store refuses a step, nothing
        changed: every table is held and the step is tried again after a pause, without the
        lock, so the other tables' hands can end meanwhile."""
        async with self._lock:
            while self._ended and not self._held and not self.finished:
                if self._round_goes_on():
                    ended, self._ended = self._ended, []
                    for number, _ in ended:
                        if number in self.tables:
                            await self._refresh(self.tables[number])
                    continue
                try:
                    await self._step()
                except Exception:
                    log.warning(
                        "tournament %s: between hands failed; trying again",
                        self.tournament.tournament_id,
                        exc_info=True,
                    )
                    self._held = True
                    self._tasks.spawn(self._again())
                    return
        self._deal_on()

    def _round_goes_on(self) -> bool:
        """Hand for hand, whether the round goes on (11.6): while a table plays its hand, or
        one has yet to deal it. A hand over as it is dealt (every player all in from the
        antes) ends no round before the other tables have played theirs."""
        if not self.hand_for_hand:
            return False
        return bool(self._due) or any(t.live is not None for t in self.tables.values())

    async def _again(self) -> None:
        for pause in pauses(RETRY_SECONDS):
            await self._clock.sleep(pause)
            async with self._lock:
                try:
                    await self._step()
                    break
                except Exception:
                    log.warning("tournament %s: failed again", self.tournament.tournament_id)
        self._held = False
        # Hands that ended meanwhile, then the deal.
        await self._work()

    async def _step(self) -> None:
        """One step between hands, for every hand over so far: its draws are seeded with the
        last of them (11.5)."""
        taken = len(self._ended)
        await self._rank_and_move(self._ended[-1][1] if taken else 0)
        del self._ended[:taken]

    async def _rank_and_move(self, hand_id: int) -> None:
        """Rank the players out, plan the moves at every table between hands, save it all in
        one transaction, then show it. Nothing in memory changes before the store has it."""
        out, finishes = self._waiting.ranked(len(self.left))
        places = {user: f.place for f in finishes for user in f.players}
        left = self.left - set(places)
        if len(left) <= 1:
            await self._finish(places, out, finishes, left)
            return
        seats = self.seats()
        for o in out:
            seats[o.table] = [None if u == o.user_id else u for u in seats[o.table]]
        moves, breaking, draws = self._plan(seats, hand_id)
        channel = {n: t.channel_id for n, t in self.tables.items()}
        await self._store.tournaments.after_hand(
            self.tournament.tournament_id,
            out=places,
            moves=[
                (m.player, channel[m.from_table], channel[m.to_table], m.to_seat) for m in moves
            ],
            closing=[channel[n] for n in breaking],
            elapsed=self.elapsed(),
        )
        self._waiting.ranked_out(out)
        attended = not self.unattended()
        self.left = left
        if attended and self.unattended():
            # The last person is out: the countdowns under way give way to none.
            for table in self.tables.values():
                if table.live is None:
                    self._dealer.stop(table)
        self.record.finishes.extend(finishes)
        self.record.moves.extend(moves)
        self.record.breaks.extend(breaking)
        self.record.draws.extend(draws)
        tell_step(self.tables, out, places, moves, breaking)
        for number in breaking:
            table = self.tables.pop(number)
            del self._numbers[table.channel_id]
            self._dealer.stop(table)
            self._open_tables.remove(table)
        for table in self.tables.values():
            await self._refresh(table)
        was = self.hand_for_hand
        paid = paid_places(self.entrants)
        self.hand_for_hand = hand_for_hand(len(self.left), paid, len(self.tables))
        if len(self.left) == paid + 1:
            self.record.bubbles.append(len(self.tables))
        self._round, self._due, self._opening = set(), set(), False
        if self.hand_for_hand:
            # A round starts; while tables still play hands dealt before the bubble, the others
            # wait for them, and that is the round. Otherwise every table deals it at once.
            playing = any(t.live is not None for t in self.tables.values())
            self._round = set(self.tables) if playing else set()
            self._opening = not playing
            self.record.hand_for_hand_rounds += 1
            if not was:
                for table in self.tables.values():
                    table.outbox.say("tournament_hand_for_hand")
        if breaking and len(self.tables) == 1:
            (final,) = self.tables.values()
            final.outbox.say("tournament_final_table", count=len(self.left))
        # In a task of its own: a slow Discord holds no table (nothing is dealt under the lock).
        self._tasks.spawn(self._changed())

    async def _changed(self) -> None:
        """The lobby shows what changed. Its failure is only logged."""
        if self._on_change is None:
            return
        try:
            await self._on_change(self)
        except Exception:
            log.warning(
                "tournament %s: the lobby was not updated",
                self.tournament.tournament_id,
                exc_info=True,
            )

    def _plan(
        self, seats: dict[int, list[int | None]], hand_id: int
    ) -> tuple[list[Move], list[int], list[str]]:
        """Moves from every table between hands, the highest-numbered first (a break before
        any balancing), each drawn from its own logged seed (11.5)."""
        moves: list[Move] = []
        breaking: list[int] = []
        draws: list[str] = []
        for number in sorted(self.tables, reverse=True):
            if number not in seats or self.tables[number].live is not None:
                continue
            seed = f"{self.tournament.seed}:{hand_id}:{number}"
            plan = plan_after_hand(seats, number, Random(seed))
            steps = plan.moves if isinstance(plan, Break) else tuple(plan)
            if isinstance(plan, Break):
                breaking.append(number)
            if steps:
                tid = self.tournament.tournament_id
                log.info("tournament %s: draw %s moves %s", tid, seed, steps)
                draws.append(seed)
            for step in steps:
                moves.append(step)
                seats[step.from_table][seats[step.from_table].index(step.player)] = None
                seats[step.to_table][step.to_seat - 1] = step.player
            if isinstance(plan, Break):
                del seats[number]
        return moves, breaking, draws

    async def _refresh(self, table: Table) -> None:
        """The table's seats as the store has them now (stacks back, players moved)."""
        async with table.lock:
            try:
                seats = await self._store.seating.seats(table.channel_id)
            except Exception:
                # The next time between hands reads them again.
                log.warning("table %s: seats not read", table.channel_id, exc_info=True)
                return
            table.seats = {s.user_id: s for s in seats}
            table.outbox.redraw()

    def _deal_on(self) -> None:
        """Count down to the next hands, unless the director has work left (which deals on
        when done). Hand for hand, only the tables yet to deal in the round (11.6); a round
        that opens stops every table's own countdown and starts them all at once."""
        if self.finished or self._held or self._ended or self._lock.locked():
            return
        if not self.hand_for_hand:
            for table in self.tables.values():
                self._dealer.schedule(table)
            return
        if self._opening:
            self._opening = False
            self._due = {n for n, t in self.tables.items() if len(t.eligible()) > 1}
            for number in self._due:
                self._dealer.stop(self.tables[number])
        for number in sorted(self._due):
            self._dealer.schedule(self.tables[number])

    # ------------------------------------------------------------------ late entries

    async def enter(self, user_id: int) -> int:
        """A late registration or a re-entry (11.9): the player is seated with a starting stack
        as a moved player is (11.5): at the table with the fewest players (the lowest-numbered
        of equals), in a random empty seat drawn from a logged seed, and dealt in from its next
        hand. Returns the table's number. ``TableError`` when every seat is taken; the store's
        errors (``RegistrationClosed``, ``NotEnoughChips``) change nothing."""
        async with self._lock:
            if self.finished:
                raise RegistrationClosed(self.tournament.tournament_id)
            seats = self.seats()
            open_tables = {n: s for n, s in seats.items() if None in s}
            if not open_tables:
                raise TableError("tournament_no_seat")
            number = min(open_tables, key=lambda n: (sum(u is not None for u in seats[n]), n))
            seed = f"{self.tournament.seed}:enter:{user_id}:{self.entrants}"
            empty = [i for i, u in enumerate(seats[number], start=1) if u is None]
            seat = Random(seed).choice(empty)
            log.info(
                "tournament %s: draw %s seats %s at table %s seat %s",
                self.tournament.tournament_id,
                seed,
                user_id,
                number,
                seat,
            )
            table = self.tables[number]
            await self._store.tournaments.enter_late(
                self.tournament.tournament_id, user_id, table.channel_id, seat
            )
            self.record.draws.append(seed)
            self.entrants += 1
            self.left.add(user_id)
            self.record.finishes = places_after_reentry(self.record.finishes, user_id)
            await self._refresh(table)
        self._deal_on()
        self._tasks.spawn(self._changed())
        return number

    # ------------------------------------------------------------------ the end

    async def _finish(
        self, places: dict[int, int], out: list[Out], finishes: list[Finish], left: set[int]
    ) -> None:
        """One player left: he wins; the prizes are paid (11.7) and the tables close."""
        (winner,) = left
        places = places | {winner: 1}
        every = [*self.record.finishes, *finishes, Finish(1, (winner,))]
        pool = (await self._store.tournaments.get(self.tournament.tournament_id)).prize_pool
        prizes = award(
            [(f.place, f.players) for f in every],
            prize_table(pool, self.entrants, self.tournament.curve),
        )
        await self._store.tournaments.finish(
            self.tournament.tournament_id, places=places, prizes=prizes
        )
        self._waiting.ranked_out(out)
        self.record.finishes = every
        self.record.prizes = prizes
        self.finished = True
        self.left = set()
        tell_step(self.tables, out, places)
        for table in self.tables.values():
            if winner in table.seats:
                table.outbox.say("tournament_won", name=table.name(winner))
            self._dealer.stop(table)
            self._open_tables.remove(table)
        await self._on_finish(self)

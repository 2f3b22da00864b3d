"""A tournament of random players played to the end through the core, on a clock that moves only
when told, checking RULES 11's invariants as it goes (``tests/bot/test_tournaments.py``)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable
from typing import Any, Literal

from bot.core.house import House
from bot.core.storage import Store, Tournament
from bot.core.storage.house import is_bot
from bot.core.table import Table
from bot.core.tournament import Record, TournamentDirector
from bot.core.views import ButtonSpec
from engine.cards import FULL_DECK, Card
from engine.tournament import award, paid_places, prize_table
from tests.bot.fakes import GUILD, Lobby, ManualClock, screened

LOBBY = 77
BUY_IN = 100
COUNTDOWN = 5.0
TURN = 60.0


class TournamentRun:
    """``players`` random players in a sit-and-go of ``seats``-seat tables."""

    def __init__(
        self,
        store: Store,
        seed: int,
        *,
        players: int,
        seats: int,
        clock: ManualClock | None = None,
    ) -> None:
        self.store = store
        self.clock = ManualClock() if clock is None else clock
        # The tournaments' face: tests set what it shows (``on_show``) or how threads go.
        self.lobby = Lobby(on_make_thread=self._thread)
        self.house, self.screen = screened(store, self.clock, lobby=self.lobby)
        self.rng = random.Random(seed)
        self.users = list(range(1001, 1001 + players))
        self.seats = seats
        self.threads = itertools.count(5001)
        self.hands = 0
        self.audits = 0
        self.balanced_checks = 0
        self.director: TournamentDirector | None = None
        self.tournament: Tournament | None = None
        self.restarts = 0
        self.records: list[Record] = []  # each director's, the one playing now last
        # Applied to each house made, the one after a restart included (the bots' budget...).
        self.configure: Callable[[House], None] = lambda house: None

    def deck(self) -> list[Card]:
        """The next deck, from the run's seed: a run plays the same hands every time."""
        cards = list(FULL_DECK)
        self.rng.shuffle(cards)
        return cards

    async def _thread(self, tournament: Tournament, number: int) -> int:
        return next(self.threads)

    async def register_all(
        self,
        *,
        level_hands: int,
        level_unit: Literal["seconds", "hands"] = "hands",
        bots: int = 0,
        bot_style: str | None = None,
        **options: Any,
    ) -> TournamentDirector:
        """Create it (with ``bots`` computer players the house stakes) and register every
        user: the last one starts it. The levels last ``level_hands`` hands (or, with
        ``level_unit`` "seconds", that many seconds)."""
        tournament = await self.create(
            level_hands=level_hands,
            level_unit=level_unit,
            bots=bots,
            bot_style=bot_style,
            **options,
        )
        for user in self.users:
            await self.house.tournaments.register(GUILD, tournament.tournament_id, user)
        self.director = self.house.tournaments.directors[tournament.tournament_id]
        self.records.append(self.director.record)
        return self.director

    async def create(
        self,
        *,
        level_hands: int,
        level_unit: Literal["seconds", "hands"] = "hands",
        bots: int = 0,
        bot_style: str | None = None,
        **options: Any,
    ) -> Tournament:
        """The sit-and-go, starting once every user (and the ``bots``) has registered."""
        self.tournament = await self.house.tournaments.create(
            GUILD,
            LOBBY,
            self.users[0],
            game="stud",
            buy_in=BUY_IN,
            seats=self.seats,
            level_unit=level_unit,
            level_length=level_hands,
            start_entrants=len(self.users) + bots,
            turn_seconds=TURN,
            countdown_seconds=COUNTDOWN,
            seed=self.rng.randrange(2**62),
            bots=bots,
            bot_style=bot_style,
            **options,
        )
        return self.tournament

    async def crash_and_restart(self, down: float = 0.0) -> None:
        """The process dies (every task of the core stops where it was, no shutdown, nothing
        saved that wasn't), stays down ``down`` seconds, and a new one restores what the store
        holds."""
        assert self.tournament is not None
        # The dead process shows nothing more and starts no clock: its screen goes dark first.
        self.screen.working = False
        await self.house.tasks.stop()
        await self.clock.advance(down, self.house)
        self.house, self.screen = screened(self.store, self.clock, lobby=self.lobby)
        self.configure(self.house)
        await self.house.recovery.restore()
        if self.tournament.tournament_id not in self.house.tournaments.directors:
            # A start the crash cut short comes in a task of the restore's.
            await self.clock.until_idle(lambda: self.house.tasks)
        self.director = self.house.tournaments.directors[self.tournament.tournament_id]
        self.records.append(self.director.record)
        self.restarts += 1

    def tables(self) -> list[Table]:
        assert self.director is not None
        return list(self.director.tables.values())

    async def play(
        self,
        max_steps: int = 200_000,
        crashes: float = 0.0,
        until: Callable[[TournamentDirector], bool] = lambda director: director.finished,
        choose: Callable[[list[ButtonSpec]], ButtonSpec] | None = None,
    ) -> None:
        """Random decisions (or ``choose``'s) at every table until one player has every chip (or
        ``until``): the audit (the tournament's included) after every hand, balance whenever
        every table is between hands; after any decision, with probability ``crashes``, a crash
        and a restart. Computer players act by themselves, after their pause on the clock."""
        for _ in range(max_steps):
            director = self.director
            assert director is not None
            if director.finished or until(director):
                return
            acted = False
            for table in self.tables():
                live = table.live
                actor = table.actor_id()
                if live is None or actor is None or is_bot(actor):
                    continue
                buttons = table.buttons()
                spec = self.rng.choice(buttons) if choose is None else choose(buttons)
                await self.house.dealer.act(table.channel_id, actor, spec.action, spec.amount)
                acted = True
                ended = table.live is not live
                if self.rng.random() < crashes * (10 if ended else 1):
                    # Often right as a hand ends, before the director has dealt with it.
                    await self.crash_and_restart()
                    self.hands += ended
                    await self.clock.until_idle(lambda: self.house.tasks)
                    await self.store.audit()
                    self.audits += 1
                    break
                if ended:
                    self.hands += 1
                    await self.clock.until_idle(lambda: self.house.tasks)
                    await self.store.audit()
                    self.audits += 1
            if not acted:
                await self.clock.until_idle(lambda: self.house.tasks)
                if not director.finished and all(t.live is None for t in self.tables()):
                    self.check_balanced()
                await self.clock.advance(COUNTDOWN, self.house)
        raise AssertionError("the tournament never ended")

    def check_balanced(self) -> None:
        """RULES 11.5: between hands no table has two players more than another."""
        sizes = [len(t.seats) for t in self.tables()]
        assert max(sizes) - min(sizes) <= 1, sizes
        assert all(size <= self.seats for size in sizes), sizes
        self.balanced_checks += 1


def places_are_each_taken_once(places: dict[int, int]) -> None:
    """1..N each once, or tied: n players tied at place p take p..p+n-1 (RULES 11.4)."""
    counts = Counter(places.values())
    taken: list[int] = []
    for place, tied in sorted(counts.items()):
        taken.extend(range(place, place + tied))
    assert taken == list(range(1, len(places) + 1)), sorted(places.values())


# What a test's ``seeded`` fixture (tests/bot/conftest.py) makes of a run.
Seeded = Callable[[TournamentRun], TournamentRun]


async def check_the_end(run: TournamentRun, players: int) -> None:
    """What holds once a run has ended: places each once, the pool paid once as 11.7 shares
    it, the wallets, the tables closed, hand-for-hand rounds, the audits."""
    director = run.director
    assert director is not None and run.tournament is not None
    tid = run.tournament.tournament_id
    done = await run.store.tournaments.get(tid)
    assert (done.state, done.prize_pool) == ("finished", 0)
    entries = await run.store.tournaments.entries(tid)
    places = {e.user_id: e.place for e in entries}
    assert None not in places.values()
    places_are_each_taken_once({user: place for user, place in places.items() if place})
    # The pool, paid out once and in full, as RULES 11.7's table shares it (ties share).
    pool = BUY_IN * players
    expected = award(
        [(f.place, f.players) for f in director.record.finishes],
        prize_table(pool, players),
    )
    paid = {e.user_id: e.prize for e in entries if e.prize}
    assert paid == expected and sum(paid.values()) == pool
    assert len(paid) >= paid_places(players) or any(
        len(f.players) > 1 for f in director.record.finishes
    )
    wallets = {user: (await run.store.wallets.get(1, user)).balance for user in run.users}
    assert all(wallets[user] == 1000 - BUY_IN + paid.get(user, 0) for user in run.users)
    assert await run.store.tournaments.tables(tid) == []
    assert run.house.open_tables.find(5001) is None
    # Hand-for-hand on the bubble (11.6): in each round every table dealt once at most.
    for record in run.records:
        rounds = [(table, r) for table, r in record.dealt if r is not None]
        assert len(rounds) == len(set(rounds))
    # Played whenever the bubble came with more than one table (a hand that puts out two
    # players at once can skip it).
    bubble = any(tables > 1 for record in run.records for tables in record.bubbles)
    assert any(record.hand_for_hand_rounds for record in run.records) == bubble
    assert run.audits >= run.hands and run.balanced_checks > 0  # a crash audits as well

"""A table played with random decisions through the core, on a clock that moves only when told
(the ledger's and the export's tests replay what it stored)."""

from __future__ import annotations

import random
from collections import Counter, defaultdict

from bot.core.config import TableConfig
from bot.core.storage import Store
from engine.codec import decode
from engine.hand import StudHand
from engine.stakes import DEFAULT_STAKES
from tests.bot.fakes import CHANNEL, GUILD, TURN, ManualClock, screened

NAMES = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee", 5: "Eve"}
COUNTDOWN = 30.0


class Session:
    """A table played with random decisions, keeping its own account of every chip the
    players brought and took away, and of the hands dealt."""

    def __init__(self, store: Store, seed: int) -> None:
        self.store = store
        self.clock = ManualClock()
        self.manager, self.screen = screened(store, self.clock)
        self.rng = random.Random(seed)
        self.bought: Counter[int] = Counter()
        self.taken: Counter[int] = Counter()
        self.hand_ids: list[int] = []

    async def open(self) -> None:
        # Between two hands the countdown waits for the test: players sit and leave meanwhile.
        config = TableConfig(DEFAULT_STAKES, 6, 100, 1000, TURN, countdown_seconds=COUNTDOWN)
        await self.manager.seating.open(GUILD, CHANNEL, 1, config)

    async def sit(self, user_id: int, buy_in: int) -> None:
        await self.manager.seating.sit(CHANNEL, user_id, NAMES[user_id], buy_in)
        self.bought[user_id] += buy_in

    async def leave(self, user_id: int) -> None:
        chips = await self.manager.seating.leave(CHANNEL, user_id)
        assert chips is not None, "leave between hands"
        self.taken[user_id] += chips

    async def start(self) -> StudHand:
        """The countdown runs out: the next hand is dealt."""
        await self.clock.advance(COUNTDOWN, self.manager)
        live = self.manager.seating.get(CHANNEL).live
        assert live is not None
        self.hand_ids.append(live.hand_id)
        return live.hand

    async def play_hand(self) -> None:
        await self.start()
        table = self.manager.seating.get(CHANNEL)
        assert table.live is not None
        hand_id = table.live.hand_id
        while table.live is not None and table.live.hand_id == hand_id:
            actor = table.actor_id()
            assert actor is not None
            spec = self.rng.choice(table.buttons())
            await self.manager.dealer.act(CHANNEL, actor, spec.action, spec.amount)

    async def replay(self) -> tuple[dict[int, int], Counter[int]]:
        """Each player's chips won or lost and hands dealt, worked out again from the stored
        hands alone (their saved states replayed by the engine)."""
        net: dict[int, int] = defaultdict(int)
        hands: Counter[int] = Counter()
        for hand_id in self.hand_ids:
            record = await self.store.hands.get(hand_id)
            assert record.outcome == "settled"
            replayed = decode(record.state)
            assert replayed.is_over
            for player in record.players:
                seat = player.seat_index
                net[player.user_id] += replayed.stacks[seat] - replayed.starting_stacks[seat]
                hands[player.user_id] += 1
        return net, hands

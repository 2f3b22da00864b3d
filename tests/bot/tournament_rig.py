"""Hands dealt to order at a tournament's tables: a test says who wins a table's next hand, or
that its players tie, and its players put every chip in. For the edge cases of RULES 11.4-11.6
that random play reaches only by chance (``tests/bot/test_tournament_races.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core import dealer
from bot.core.table import Table
from engine.cards import FULL_DECK, Card
from engine.hand import StudHand
from tests.bot.tournament_run import TournamentRun

# Seven cards each, in the order they are dealt. The winner's four aces beat any of the others'
# hands, which have no pair, no straight and no flush; in a tie every player has the same
# ranks, no suit more than twice.
WINNER = "AAAAKQJ"
LOSER = "2346790"
TIED = "2468TQA"
TIE = None  # an outcome: nobody wins more than he put in


def _card(rank: str, suit: int) -> Card:
    return Card.parse(("T" if rank == "0" else rank) + "cdhs"[suit])


class Rig:
    """``next[table channel]``: the outcomes of that table's next hands, in order, each the
    user who wins it or ``TIE``. A table with none queued is dealt the run's deck."""

    def __init__(self, run: TournamentRun, monkeypatch: pytest.MonkeyPatch) -> None:
        self.next: dict[int, list[int | None]] = {}
        self._dealing: Table | None = None
        start_hand = run.house.dealer.start_hand

        async def dealing(table: Table) -> int | None:
            # The deal builds its hand before its first pause: the table is the one dealing.
            self._dealing = table
            return await start_hand(table)

        monkeypatch.setattr(run.house.dealer, "start_hand", dealing)
        monkeypatch.setattr(dealer, "StudHand", self._hand)

    def _hand(self, **kwargs: Any) -> StudHand:
        table = self._dealing
        queued = None if table is None else self.next.get(table.channel_id)
        if not queued:
            return StudHand(**kwargs)
        assert table is not None
        outcome = queued.pop(0)
        users = [seat.user_id for seat in table.eligible()]  # the hand's seats, in order
        assert len(users) == len(kwargs["stacks"]), "another table's deal"
        order = StudHand(**kwargs).dealing_order
        ranks = {seat: TIED if outcome is None else LOSER for seat in order}
        if outcome is not None:
            ranks[users.index(outcome)] = WINNER
        cards: list[Card] = []
        for street in range(7):
            for k, seat in enumerate(order):
                rank = ranks[seat][street]
                if rank == "A" and ranks[seat] == WINNER:
                    cards.append(_card(rank, street))  # the aces in four suits
                else:
                    cards.append(_card(rank, (k + street) % 4))
        cards += [card for card in FULL_DECK if card not in cards]
        return StudHand(**{**kwargs, "deck": cards})


async def all_in(run: TournamentRun, tables: list[Table], *, settle: bool = True) -> None:
    """Every player at ``tables`` raises whenever he can, or calls, or checks, until their hands
    are over: every chip goes in that can. After each round of decisions the core's tasks
    settle (``settle``), unless a test holds one of them on purpose."""
    while any(table.live is not None for table in tables):
        for table in tables:
            actor = table.actor_id()
            if table.live is None or actor is None:
                continue
            buttons = {spec.action: spec for spec in table.buttons()}
            for action in ("raise", "bet", "complete", "call", "bring_in", "check"):
                if action in buttons:
                    spec = buttons[action]
                    await run.house.dealer.act(table.channel_id, actor, action, spec.amount)
                    break
        if settle:
            await run.clock.until_idle(lambda: run.house.tasks)

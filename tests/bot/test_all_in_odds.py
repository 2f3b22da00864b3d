"""All-in chances in the core: a hand run out with two hands all in ends with each hand's chances,
worked out in a thread (never on the event loop), in the results and on their picture."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest

from bot.core.storage import Store
from tests.bot.fakes import CHANNEL, ManualClock, Screen, screened, seat_directly
from tests.engine.decks import stacked_deck


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


async def play_all_in(
    store: Store,
    clock: ManualClock,
    monkeypatch: pytest.MonkeyPatch,
    cards: dict[int, str],
    stacks: tuple[int, int] = (500, 20),
) -> Screen:
    """Heads-up to the end, player 1 raising whenever he may and the other calling or checking:
    with 20 chips for player 1 (the default), all in on 3rd street."""
    deck = stacked_deck(cards, dealer=1, seats=2)
    monkeypatch.setattr("bot.core.dealer.shuffled_deck", lambda: list(deck))
    await seat_directly(store, list(stacks))
    house, screen = screened(store, clock)
    await house.recovery.restore()
    await clock.advance(0, house)
    table = house.seating.get(CHANNEL)
    while table.live is not None:
        actor = table.actor_id()
        assert actor is not None
        legal = table.live.hand.legal()
        if actor == 1 and legal.raise_to:
            action = "raise"
        else:
            action = "call" if legal.call else "bring_in" if legal.bring_in else "check"
        await house.dealer.act(CHANNEL, actor, action)
    await asyncio.sleep(0)
    await house.recovery.shutdown()
    return screen


async def test_a_run_out_shows_each_hands_chances_worked_out_off_the_loop(
    store: Store, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []
    real = asyncio.to_thread

    async def watched(function: Callable[..., Any], /, *args: Any) -> Any:
        def run() -> Any:
            threads.append(threading.current_thread().name)
            return function(*args)

        return await real(run)

    monkeypatch.setattr("bot.core.dealer.asyncio.to_thread", watched)
    screen = await play_all_in(
        store, clock, monkeypatch, {0: "AsAh9dKc5s6hQc", 1: "2c3d4h7s8c9cJh"}
    )
    [results] = screen.results
    odds = results.odds
    assert odds is not None and not odds.exact and odds.street in (3, 4, 5)
    assert threads and threading.main_thread().name not in threads
    assert [chances.seat for chances in odds.seats] == [0, 1]
    assert sum(chances.win for chances in odds.seats) == pytest.approx(1)
    assert 0.6 < odds.seats[0].win < 0.99  # aces against three low cards of mixed suits
    assert results.labels.odds == odds
    line = results.lines[0]
    street = ("", "", "", "3rd", "4th", "5th")[odds.street]
    assert line.startswith(f"All in on {street} street, the chances were about: ")
    assert line.endswith("(an estimate).")


async def test_a_hand_bet_to_the_end_has_no_chances(
    store: Store, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Nobody all in: 500 chips each cover every bet of a heads-up hand.
    screen = await play_all_in(
        store, clock, monkeypatch, {0: "AsAhAdAcKsKhQs", 1: "2c3d4h7s8c9dJh"}, (500, 500)
    )
    [results] = screen.results
    assert results.odds is None and results.labels.odds is None
    assert not any("chances" in line for line in results.lines)

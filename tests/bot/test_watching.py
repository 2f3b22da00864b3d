"""A face's subscription: views in order, waited for when none has come, the oldest pictures
dropped first for a face far behind, closed once; and the pauses every retry grows by."""

from __future__ import annotations

import asyncio
import itertools

from bot.core.clock import pauses
from bot.core.watching import KEPT, Subscription


def _subscription(closed: list[Subscription[str]]) -> Subscription[str]:
    return Subscription[str](7, closed.append, lambda item: item.startswith("table"))


async def test_a_subscription_waits_for_the_next_view_and_hands_them_in_order() -> None:
    subscription = _subscription([])
    waiting = asyncio.ensure_future(anext(subscription))
    await asyncio.sleep(0)
    assert not waiting.done()
    subscription.offer("table 1")
    subscription.offer("line")
    assert await waiting == "table 1"
    assert await anext(subscription) == "line"
    assert subscription.pending() == []


def test_a_face_far_behind_loses_its_oldest_pictures_not_its_lines() -> None:
    subscription = _subscription([])
    subscription.offer("line 0")
    for number in range(KEPT + 2):
        subscription.offer(f"table {number}")
    kept = subscription.pending()
    assert kept[0] == "line 0" and len(kept) == KEPT
    assert kept[1] == "table 3" and kept[-1] == f"table {KEPT + 1}"


def test_closing_twice_closes_once() -> None:
    closed: list[Subscription[str]] = []
    subscription = _subscription(closed)
    subscription.close()
    subscription.close()
    assert closed == [subscription]


def test_pauses_follow_the_schedule_then_keep_its_last() -> None:
    assert list(itertools.islice(pauses((0.5, 1.0, 2.0)), 6)) == [0.5, 1.0, 2.0, 2.0, 2.0, 2.0]

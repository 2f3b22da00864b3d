"""Playing through the socket: every request is the core's single entry a click or command
makes, refused with the same words; and no socket ever gets a down card not its own player's
before it is shown, through random hands of all three games."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.core import dealer
from bot.core.games import HI_LO, RAZZ_GAME, STUD
from engine import events as ev
from engine.cards import Card, shuffled_deck
from tests.activity.pages import WAIT, Page, Rig, activity_rig
from tests.e2e.fake_discord import JSON
from tests.texts import TEXTS


@pytest.fixture
async def rig(tmp_path: Path):  # type: ignore[no-untyped-def]
    # A second between any two messages: these pages never meet the rate limit.
    seconds = itertools.count()
    async with activity_rig(tmp_path, clock=lambda: float(next(seconds))) as made:
        yield made


def _refusal(key: str, **params: object) -> str:
    return TEXTS.t("en", key, **params)


def _act(hand: JSON, spec: JSON) -> JSON:
    return {
        "type": "act",
        "action": spec["action"],
        "amount": spec["amount"],
        "hand_id": hand["hand_id"],
        "seq": hand["seq"],
    }


async def test_every_request_goes_through_the_cores_entry_with_its_refusals(rig: Rig) -> None:
    ann, bob, cat = rig.user("ann"), rig.user("bob"), rig.user("cat")
    a, b, c = await rig.page(ann), await rig.page(bob), await rig.page(cat)
    # No table: a page opens one, as /table open would; a second can't.
    assert (await a.request({"type": "open"}))["type"] == "done"
    refused = await b.request({"type": "open"})
    assert refused["reason"] == TEXTS.t("en", "table_exists")
    await a.until(lambda f: f["type"] == "table")
    # No hand yet, not seated: nothing to act on or leave (a hand's action as a stale click).
    hand_less = {"type": "act", "action": "fold", "amount": None, "hand_id": "1", "seq": 0}
    assert (await c.request(hand_less))["reason"] == _refusal("old_button")
    assert (await c.request({"type": "leave"}))["reason"] == _refusal("not_seated")
    assert (await c.request({"type": "my_cards"}))["reason"] == _refusal("no_cards")
    # More chips than the wallet holds: the store's refusal, worded.
    wallet = await rig.store.wallets.balance(rig.fake.guild_id, cat)
    too_many = await c.request({"type": "sit", "chips": wallet + 1})
    unexpected = _refusal("unexpected", error_id="@").split("@")[0]
    assert too_many["type"] == "refused" and not too_many["reason"].startswith(unexpected)
    assert cat not in rig.house.seating.get(rig.channel).seats
    assert (await c.request({"type": "sit", "chips": 1_000_000}))["reason"] == _refusal(
        "buy_in_range", min=GAME_MIN, max=GAME_MAX
    )
    sat = await a.request({"type": "sit", "chips": 200})
    assert sat["type"] == "done" and sat["stack"] == 200
    assert (await a.request({"type": "sit", "chips": 200}))["reason"] == _refusal("already_seated")
    assert (await b.request({"type": "sit", "chips": None}))["type"] == "done"
    hand = (await a.until(lambda f: f["type"] == "table" and f["view"]["hand"]))["view"]["hand"]
    actor = hand["users"][hand["public"]["actor"]]
    mover, waiter = (a, b) if actor == str(ann) else (b, a)
    spec = hand["buttons"][0]
    # Out of turn, from a stale betting state, from an earlier hand, not at the table: refused.
    assert (await waiter.request(_act(hand, spec)))["reason"] == _refusal("not_your_turn")
    stale = {**_act(hand, spec), "seq": hand["seq"] + 1}
    assert (await mover.request(stale))["reason"] == _refusal("stale_button")
    old = {**_act(hand, spec), "hand_id": str(int(hand["hand_id"]) + 1)}
    assert (await mover.request(old))["reason"] == _refusal("old_button")
    assert (await c.request(_act(hand, spec)))["reason"] == _refusal("not_seated")
    # My cards: his own, on his own socket.
    dealt = [f for f in mover.frames if f["type"] == "cards"]
    assert (await mover.request({"type": "my_cards"}))["type"] == "done"
    cards = [f for f in mover.frames if f["type"] == "cards"]
    assert len(cards) == len(dealt) + 1 and cards[-1]["view"]["user_id"] == str(mover.user_id)
    # The action, taken; the table moves on for everyone.
    done = await mover.request(_act(hand, spec))
    assert done["type"] == "done" and done["action"] in (spec["action"], "raise")
    await c.until(
        lambda f: (
            f["type"] == "table"
            and f["view"]["hand"] is not None
            and f["view"]["hand"]["seq"] > hand["seq"]
        )
    )
    # Sitting out and leaving, as /sitout and /leave do.
    assert (await a.request({"type": "sit_out", "out": True}))["type"] == "done"
    assert (await a.request({"type": "sit_out", "out": True}))["reason"] == _refusal(
        "already_sitting_out"
    )
    left = await a.request({"type": "leave"})
    assert left["type"] == "done" and left["chips"] is None  # after the hand he is in


GAME_MIN, GAME_MAX = 100, 1000  # tests.activity.pages.GAME's buy-in limits


def _seeded(seed: int) -> Any:
    rng = random.Random(seed)

    def deck() -> list[Card]:
        cards = sorted(shuffled_deck())
        rng.shuffle(cards)
        return cards

    return deck


async def _dealt(rig: Rig, seen: dict[str, Any]) -> Any:
    """The hand dealt after those ``seen``, or None once two players can't be dealt in."""
    table = rig.house.seating.get(rig.channel)
    async with asyncio.timeout(WAIT):
        while True:
            live = table.live
            if live is not None and str(live.hand_id) not in seen:
                return live
            if live is None and len(table.eligible()) < 2:
                return None
            await asyncio.sleep(0.01)


async def test_no_socket_gets_a_down_card_not_its_own_before_it_is_shown(
    rig: Rig, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two players and a spectator, each on a socket, through seeded random hands of Stud, Razz
    and Stud Hi-Lo, every kind of action taken through a socket: every frame each socket got is
    checked against the hands' down cards."""
    monkeypatch.setattr(dealer, "shuffled_deck", _seeded(7))
    rng = random.Random(7)
    ann, bob, eve = rig.user("ann"), rig.user("bob"), rig.user("eve")
    pages = {ann: await rig.page(ann), bob: await rig.page(bob)}
    spectator = await rig.page(eve)
    hands: dict[str, Any] = {}  # hand id -> the engine's hand, and who sat where
    kinds: set[str] = set()
    for game in (STUD, RAZZ_GAME, HI_LO):
        await rig.open_table(game)
        for user, page in pages.items():
            assert (await page.request({"type": "sit", "chips": 150}))["type"] == "done", user
        for number in range(3):
            live = await _dealt(rig, hands)
            if live is None:
                break  # a player has no chips left
            hands[str(live.hand_id)] = live
            if number == 2:  # no hand after this one: the table closes
                for page in pages.values():
                    await page.request({"type": "sit_out", "out": True})
            while live.hand.actor is not None:
                actor = live.users[live.hand.actor]
                page = pages[actor]
                view = await page.until(
                    lambda f: (
                        f["type"] == "table"
                        and (h := f["view"]["hand"]) is not None
                        and h["hand_id"] == str(live.hand_id)  # noqa: B023
                        and h["seq"] == live.seq  # noqa: B023
                        and h["buttons"]
                    )
                )
                hand = view["view"]["hand"]
                # A kind of action not taken yet first, so every kind goes through the socket.
                fresh = [b for b in hand["buttons"] if b["action"] not in kinds]
                spec = rng.choice(fresh or hand["buttons"])
                kinds.add(spec["action"])
                answer = await page.request(_act(hand, spec))
                assert answer["type"] == "done", answer
            await spectator.until(
                lambda f: f["type"] == "results" and f["view"]["hand_id"] == str(live.hand_id)  # noqa: B023
            )
        for page in pages.values():
            await page.request({"type": "leave"})
        await rig.house.seating.close(rig.channel, 1, can_manage=True)
        await spectator.until(lambda f: f["type"] == "closed")
    assert len(hands) >= 6
    assert kinds == {"fold", "check", "call", "bring_in", "complete", "bet", "raise"}
    for page in [*pages.values(), spectator]:
        _assert_private(page, hands)


def _assert_private(page: Page, hands: dict[str, Any]) -> None:
    for text, frame in zip(page.texts, page.frames, strict=True):
        if frame["type"] == "cards":
            assert frame["view"]["user_id"] == str(page.user_id)
            continue
        view = frame.get("view") or {}
        hand_id = view.get("hand_id") or (view.get("hand") or {}).get("hand_id")
        if hand_id is None:
            continue
        live = hands[hand_id]
        shown = {
            (event.seat, str(card))
            for event in live.hand.events
            if isinstance(event, ev.HandShown)
            for card in event.cards
        }
        tokens = set(_strings(json.loads(text)))
        for seat, user_id in enumerate(live.users):
            if user_id == page.user_id:
                continue
            for card in live.hand.down_cards(seat):
                if str(card) in tokens:
                    assert frame["type"] == "results" and (seat, str(card)) in shown, (
                        page.user_id,
                        frame["type"],
                        card,
                    )


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []

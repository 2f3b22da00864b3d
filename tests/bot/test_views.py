"""Down cards reach only private views, by construction: every view the core builds of
random hands of all three games, at every decision and at the showdown, is searched for anyone's
down card; a public one holds none unless the hand showed it, a private one none but his own."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.core.config import TableConfig
from bot.core.games import HI_LO, RAZZ_GAME, STUD
from bot.core.house import House
from bot.core.outbox import Effect, Line
from bot.core.showing import table_view
from bot.core.storage import Store
from bot.core.table import Table
from bot.core.views import PrivateView, ResultsView, TableView
from engine import events as ev
from engine.cards import Card
from engine.stakes import DEFAULT_STAKES
from tests.bot.fakes import CHANNEL, GUILD, TURN, ManualClock, Screen, screened
from words import Words

HANDS_PER_GAME = 25


def contents(value: object) -> Iterator[Card | str]:
    """Every card and every piece of text in a view, however deep."""
    if isinstance(value, Card | str):
        yield value
    elif isinstance(value, Words):
        return  # the language's fixed words: no card in them
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from contents(getattr(value, field.name))
    elif isinstance(value, tuple | list | frozenset | set):
        for item in value:
            yield from contents(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from contents(key)
            yield from contents(item)


def leaked(view: object, secret: set[Card]) -> set[Card]:
    """The cards of ``secret`` the view holds, as cards or written out."""
    found: set[Card] = set()
    for item in contents(view):
        if isinstance(item, Card):
            found |= {item} & secret
        else:
            found |= {card for card in secret if card.pretty in item}
    return found


def down_cards(table: Table) -> dict[int, set[Card]]:
    """Each dealt-in player's down cards in the hand in play, by user id."""
    live = table.live
    assert live is not None
    return {
        user_id: set(live.hand.down_cards(seat))
        for seat, user_id in enumerate(live.users)
        if seat in live.hand.dealing_order
    }


async def play(house: House, screen: Screen, game: str, rng: random.Random) -> None:
    players = rng.randint(2, 6)
    config = TableConfig(DEFAULT_STAKES, 8, 20, 1000, TURN, 0, game=game, time_bank=0)
    await house.seating.open(GUILD, CHANNEL, 1, config)
    for user_id in range(1, players + 1):
        # Short stacks too: all-ins and side pots, where hands are shown early.
        await house.seating.sit(CHANNEL, user_id, f"p{user_id}", rng.choice((20, 45, 300)))
    table = house.seating.get(CHANNEL)
    clock = house.clock
    assert isinstance(clock, ManualClock)
    for _ in range(HANDS_PER_GAME):
        await clock.advance(0, house)
        if table.live is None:
            break  # a player left with everything
        hand_id = table.live.hand_id
        secret: dict[int, set[Card]] = {}
        seen = len(screen.effects)
        while table.live is not None and table.live.hand_id == hand_id:
            secret = down_cards(table)
            view = table_view(table, house.texts, clock.now())
            assert view is not None and view.hand is not None
            everyone = set().union(*secret.values())
            assert not leaked(view, everyone), "a live hand's view holds a down card"
            actor = table.actor_id()
            assert actor is not None
            spec = rng.choice(table.buttons())
            await house.dealer.act(CHANNEL, actor, spec.action, spec.amount)
        await clock.advance(0, house)
        check_delivered(this_hand(screen.effects[seen:], hand_id), secret, shown(screen))
        for user_id in list(table.seats):
            if table.seats[user_id].sitting_out:
                await house.seating.set_sitting_out(CHANNEL, user_id, False)


def this_hand(effects: list[Effect], hand_id: int) -> list[Effect]:
    """What was sent of hand ``hand_id``, up to its results (the next hand may follow)."""
    end = next(
        i for i, e in enumerate(effects) if isinstance(e, ResultsView) and e.hand_id == hand_id
    )
    return [e for e in effects[: end + 1] if not isinstance(e, PrivateView) or e.hand_id == hand_id]


def shown(screen: Screen) -> set[Card]:
    """The cards the last finished hand showed at its showdown."""
    results = screen.results[-1]
    return {card for seat in results.public.seats if seat.shown for card in seat.shown.cards}


def check_delivered(effects: list[Effect], secret: dict[int, set[Card]], open_: set[Card]) -> None:
    """What one hand sent: channel views hold no card it didn't show; DMs only their own."""
    everyone = set().union(*secret.values())
    for effect in effects:
        if isinstance(effect, PrivateView):
            others = everyone - secret[effect.user_id]
            assert not leaked(effect, others), "a player's DM holds another's down card"
        elif isinstance(effect, Line | TableView | ResultsView):
            assert not leaked(effect, everyone - open_), f"{type(effect).__name__} leaks"


@pytest.mark.parametrize("game", [STUD, RAZZ_GAME, HI_LO])
async def test_no_public_view_holds_a_down_card_nobody_showed(game: str, tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "stud.db")
    house, screen = screened(store, ManualClock())
    try:
        await play(house, screen, game, random.Random(f"views-{game}"))
        assert screen.results, "no hand was played to its end"
        assert any(isinstance(e, PrivateView) for e in screen.effects)
        assert any(seat.shown for r in screen.results for seat in r.public.seats)
    finally:
        await house.recovery.shutdown()
        await store.close()


def test_the_search_finds_a_card_written_out_or_held() -> None:
    """The check itself: a card anywhere in a view, as a card or in its text, is found."""
    ace, king = Card.parse("As"), Card.parse("Kh")
    assert leaked(Line(f"p1 shows {ace.pretty}"), {ace, king}) == {ace}
    assert leaked(ev.HandShown(0, (king,), (king,), "high card King"), {ace, king}) == {king}
    assert not leaked(Line("p1 checks"), {ace, king})

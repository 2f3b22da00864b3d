"""Which game a table deals: single games, the mixed rotation, across a restart."""

from __future__ import annotations

import pytest

from bot.core.config import TableConfig
from bot.core.errors import TableError
from bot.core.games import HI_LO, MIXED, RAZZ_GAME, ROTATION, STUD, Rotation
from bot.core.house import House
from bot.core.settings import GameDefaults
from bot.core.showing import next_game
from bot.core.storage import Store
from engine import RAZZ, STUD_HI_LO, STUD_HIGH
from engine.stakes import DEFAULT_STAKES
from tests.bot.fakes import CHANNEL, GUILD, TURN, ManualClock, screened
from tests.texts import TEXTS


def test_one_game_never_changes() -> None:
    rotation = Rotation.for_game(RAZZ_GAME)
    for players in (2, 5, 8):
        rotation = rotation.dealt(players)
        assert rotation.game == RAZZ_GAME and not rotation.starts_game
    assert rotation.variant is RAZZ


def test_the_default_rotation_is_one_orbit_fixed_when_the_game_starts() -> None:
    """As many hands as players were dealt into the game's first hand, even if players come and
    go meanwhile; then the next game, and round again."""
    rotation = Rotation.for_game(MIXED)
    dealt = []
    for players in (3, 5, 2, 4, 4, 4, 4, 2, 2, 6):
        dealt.append((rotation.game, rotation.starts_game))
        rotation = rotation.dealt(players)
    assert dealt == [
        (STUD, True),
        (STUD, False),
        (STUD, False),  # 3 hands of stud: 3 players were dealt into its first
        (RAZZ_GAME, True),
        (RAZZ_GAME, False),
        (RAZZ_GAME, False),
        (RAZZ_GAME, False),  # 4 of Razz
        (HI_LO, True),
        (HI_LO, False),  # 2 of Hi-Lo
        (STUD, True),
    ]


def test_a_fixed_number_of_hands_per_game() -> None:
    rotation = Rotation.for_game(MIXED, every=2)
    games = []
    for _ in range(7):
        games.append(rotation.game)
        rotation = rotation.dealt(8)
    assert games == [STUD, STUD, RAZZ_GAME, RAZZ_GAME, HI_LO, HI_LO, STUD]
    assert rotation.hands_left(8) == 1 and rotation.after == RAZZ_GAME


def test_a_rotation_survives_its_saved_form_and_refuses_a_broken_one() -> None:
    rotation = Rotation.for_game(MIXED, every=3).dealt(4)
    assert Rotation.from_dict(rotation.to_dict()) == rotation
    for broken in (
        {"games": ["poker"], "every": None, "index": 0, "left": None},
        {"games": list(ROTATION), "every": None, "index": 3, "left": None},
        {"games": list(ROTATION), "every": None, "index": 0, "left": 0},
    ):
        with pytest.raises(ValueError):
            Rotation.from_dict(broken)


def test_hands_per_game_is_only_for_a_mixed_table() -> None:
    defaults = GameDefaults()
    with pytest.raises(TableError) as refused:
        TableConfig.from_options(defaults, "en", game=RAZZ_GAME, hands_per_game=4)
    assert refused.value.key == "rotate_not_mixed"
    mixed = TableConfig.from_options(defaults, "en", game=MIXED, hands_per_game=4)
    assert mixed.rotation() == Rotation(ROTATION, 4)


async def fold_hand(manager: House) -> None:
    """The bring-in is posted and everyone else folds: the hand ends."""
    table = manager.seating.get(CHANNEL)
    while table.live is not None:
        actor = table.actor_id()
        assert actor is not None
        legal = table.live.hand.legal()
        await manager.dealer.act(
            CHANNEL, actor, "bring_in" if legal.bring_in is not None else "fold"
        )


def mixed(every: int | None = None) -> TableConfig:
    return TableConfig(DEFAULT_STAKES, 8, 100, 1000, TURN, 0, game=MIXED, hands_per_game=every)


async def test_a_mixed_table_deals_each_game_in_turn_and_says_so(store: Store) -> None:
    """One orbit of each game (two players: two hands), the channel told
    when the game changes and what comes next."""
    clock = ManualClock()
    manager, screen = screened(store, clock)
    await manager.seating.open(GUILD, CHANNEL, 1, mixed())
    for user_id in (1, 2):
        await manager.seating.sit(CHANNEL, user_id, f"p{user_id}", 500)
    variants = []
    for _ in range(7):
        await clock.advance(0, manager)
        live = manager.seating.get(CHANNEL).live
        assert live is not None
        variants.append(live.hand.variant)
        await fold_hand(manager)
    assert variants == [STUD_HIGH] * 2 + [RAZZ] * 2 + [STUD_HI_LO] * 2 + [STUD_HIGH]
    changes = [line for line in screen.lines if " now, for " in line]
    assert changes == [
        "Seven Card Stud now, for 2 hands; then Razz.",
        "Razz now, for 2 hands; then Stud Hi-Lo.",
        "Stud Hi-Lo now, for 2 hands; then Seven Card Stud.",
        "Seven Card Stud now, for 2 hands; then Razz.",
    ]
    table = manager.seating.get(CHANNEL)
    assert next_game(table, TEXTS, "en") == "Razz after 1 more hand"
    await manager.recovery.shutdown()


async def test_a_restart_carries_on_the_rotation_where_it_was(store: Store) -> None:
    clock = ManualClock()
    manager, _ = screened(store, clock)
    await manager.seating.open(GUILD, CHANNEL, 1, mixed(every=3))
    for user_id in (1, 2):
        await manager.seating.sit(CHANNEL, user_id, f"p{user_id}", 500)
    for _ in range(4):  # three of stud, one of Razz; the fifth hand is dealt and in play
        await clock.advance(0, manager)
        await fold_hand(manager)
    await clock.advance(0, manager)
    before = manager.seating.get(CHANNEL)
    assert before.live is not None and before.live.hand.variant is RAZZ
    assert next_game(before, TEXTS, "en") == "Stud Hi-Lo after 1 more hand"
    await manager.recovery.shutdown()

    restarted, screen = screened(store, clock)
    await restarted.recovery.restore()
    table = restarted.seating.get(CHANNEL)
    assert table.live is not None and table.live.hand.variant is RAZZ
    assert next_game(table, TEXTS, "en") == "Stud Hi-Lo after 1 more hand"
    variants = []
    await fold_hand(restarted)
    for _ in range(4):
        await clock.advance(0, restarted)
        live = restarted.seating.get(CHANNEL).live
        assert live is not None
        variants.append(live.hand.variant)
        await fold_hand(restarted)
    assert variants == [RAZZ, STUD_HI_LO, STUD_HI_LO, STUD_HI_LO]
    # The restored hand was not a new game; the next game is announced once, when it starts.
    assert [line for line in screen.lines if " now, for " in line] == [
        "Stud Hi-Lo now, for 3 hands; then Seven Card Stud."
    ]
    await restarted.recovery.shutdown()


async def test_a_single_game_table_deals_its_game_and_is_saved_with_it(store: Store) -> None:
    clock = ManualClock()
    manager, _ = screened(store, clock)
    config = TableConfig(DEFAULT_STAKES, 8, 100, 1000, TURN, 0, game=HI_LO)
    await manager.seating.open(GUILD, CHANNEL, 1, config)
    for user_id in (1, 2):
        await manager.seating.sit(CHANNEL, user_id, f"p{user_id}", 500)
    await clock.advance(0, manager)
    table = manager.seating.get(CHANNEL)
    assert table.live is not None and table.live.hand.variant is STUD_HI_LO
    assert next_game(table, TEXTS, "en") is None
    saved = await store.seating.table(CHANNEL)
    assert saved is not None and saved.settings["game"] == HI_LO
    await manager.recovery.shutdown()

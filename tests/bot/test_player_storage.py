"""The players' table (migration 5): names per server and each user's deck."""

from __future__ import annotations

import pytest

from bot.core.storage import Store
from bot.core.storage.migrations import MIGRATIONS
from tests.bot.fakes import GUILD
from tests.databases import Location, migrate_to

OTHER_GUILD = GUILD + 1


async def test_names_are_kept_per_server_and_the_latest_wins(store: Store) -> None:
    await store.players.save_name(GUILD, 7, "Ann")
    await store.players.save_name(OTHER_GUILD, 7, "Annie")
    await store.players.save_name(GUILD, 8, "Bob")
    await store.players.save_name(GUILD, 7, "Ann B.")
    assert await store.players.names(GUILD, [7, 8, 9]) == {7: "Ann B.", 8: "Bob"}
    assert await store.players.names(OTHER_GUILD, [7, 8]) == {7: "Annie"}
    assert await store.players.names(GUILD, []) == {}
    with pytest.raises(ValueError):
        await store.players.save_name(GUILD, 7, "")
    assert await store.players.names(GUILD, [7]) == {7: "Ann B."}


async def test_the_deck_is_two_colour_until_a_player_chooses(store: Store) -> None:
    assert await store.players.four_colour(7) is False
    await store.players.set_four_colour(7, True)
    assert (
        await store.players.four_colour(7) is True and await store.players.four_colour(8) is False
    )
    await store.players.set_four_colour(7, False)
    assert await store.players.four_colour(7) is False


async def test_the_players_migration_is_number_5() -> None:
    # After the meta table (migration 4); later ones come after it.
    assert "CREATE TABLE player_names" in MIGRATIONS[4].sqlite


async def test_a_database_from_before_the_players_table_gets_it(
    empty_database: Location,
) -> None:
    database = empty_database
    assert await migrate_to(database, 4) == 4
    store = await Store.open(database)
    try:
        assert await store.players.names(GUILD, [7]) == {} and not await store.players.four_colour(
            7
        )
        await store.players.save_name(GUILD, 7, "Ann")
        assert await store.players.names(GUILD, [7]) == {7: "Ann"}
    finally:
        await store.close()


async def test_showing_every_hand_is_chosen_apart_from_the_deck(store: Store) -> None:
    """RULES 5.6: a player mucks a hand that can't win unless he chose always to show."""
    assert await store.players.preferences(7) == (False, False)
    await store.players.set_always_show(7, True)
    assert await store.players.preferences(7) == (False, True)
    await store.players.set_four_colour(7, True)
    assert await store.players.preferences(7) == (True, True)
    await store.players.set_always_show(7, False)
    assert await store.players.preferences(7) == (True, False)
    assert await store.players.four_colour(7) is True
    assert await store.players.preferences(8) == (False, False)

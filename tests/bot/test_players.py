"""Players as the bot last saw them and their own deck, in the core."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.archive import Archive
from bot.core.config import TableConfig
from bot.core.storage import Store
from engine.stakes import DEFAULT_STAKES
from tests.bot.fakes import CHANNEL, GUILD, TURN, ManualClock, new_house, screened
from tests.texts import TEXTS


async def test_a_restored_table_names_its_players_as_they_were_last_seen(
    store: Store, tmp_path: Path
) -> None:
    """Restart mid-hand: seats, the rebuilt log and results use the saved names."""
    clock = ManualClock()
    manager, _ = screened(store, clock)
    config = TableConfig(DEFAULT_STAKES, 8, 100, 1000, TURN, 0, lang="ru", four_colour=True)
    await manager.seating.open(GUILD, CHANNEL, 1, config)
    await manager.seating.sit(CHANNEL, 1, "Оля", 500)
    await manager.seating.sit(CHANNEL, 2, "Борис", 500)
    # A later name (he acted under it) replaces the one he sat with.
    await manager.players.seen(GUILD, 2, "Боря")
    await clock.advance(0, manager)
    table = manager.seating.get(CHANNEL)
    assert table.live is not None and table.name(2) == "Боря"
    actor = table.actor_id()
    assert actor is not None
    await manager.dealer.act(CHANNEL, actor, "bring_in")
    await manager.recovery.shutdown()

    fresh, screen = screened(store, clock)
    assert await fresh.recovery.restore() == [table.live.hand_id]
    restored = fresh.seating.get(CHANNEL)
    assert restored.config.lang == "ru" and restored.config.four_colour
    assert {restored.name(1), restored.name(2)} == {"Оля", "Боря"}
    assert any("Боря" in line or "Оля" in line for line in restored.log)
    assert not any("Player" in line for line in [*restored.log, *screen.lines])
    assert restored.live is not None
    hand_id = restored.live.hand_id
    while restored.live is not None and restored.live.hand_id == hand_id:
        actor = restored.actor_id()
        assert actor is not None
        legal = restored.live.hand.legal()
        await fresh.dealer.act(CHANNEL, actor, "check" if legal.check else "call")
    history = await Archive(store, TEXTS).history(
        GUILD, 1, hand_id, viewer_name="Оля", channel_name=lambda channel: "#stud", lang="ru"
    )
    assert {name for name, _ in history.net} == {"Оля", "Боря"}
    assert "Боря" in history.text and "Player" not in history.text
    await fresh.recovery.shutdown()


async def test_a_name_is_written_only_when_it_changes(store: Store) -> None:
    manager = new_house(store, ManualClock())
    writes: list[str] = []
    save = store.players.save_name

    async def counting(guild_id: int, user_id: int, name: str) -> None:
        writes.append(name)
        await save(guild_id, user_id, name)

    store.players.save_name = counting  # type: ignore[method-assign]
    for name in ("Ann", "Ann", "Ann B.", "Ann B."):
        await manager.players.seen(GUILD, 7, name)
    assert writes == ["Ann", "Ann B."]
    assert await store.players.names(GUILD, [7]) == {7: "Ann B."}


async def test_the_players_deck_choice_is_remembered(store: Store) -> None:
    manager = new_house(store, ManualClock())
    assert await manager.players.four_colour(7) is False
    await manager.players.set_four_colour(7, True)
    assert await new_house(store, ManualClock()).players.four_colour(7) is True


async def test_a_new_name_reaches_his_seats_in_that_server_only(store: Store) -> None:
    """The same Discord user in two servers: what he is called in one leaves the other alone,
    and a table closed and opened again in his server still hears of it."""
    manager, _ = screened(store, ManualClock())
    config = TableConfig(DEFAULT_STAKES, 8, 100, 1000, TURN, 0)
    other_guild, other_channel = GUILD + 1, CHANNEL + 1
    await store.wallets.grant(other_guild, 7, 1000, reason="test", by=1)
    for guild, channel in ((GUILD, CHANNEL), (other_guild, other_channel)):
        await manager.seating.open(guild, channel, 1, config)
        await manager.seating.sit(channel, 7, "Ann", 500)
    await manager.players.seen(GUILD, 7, "Ann B.")
    assert manager.seating.get(CHANNEL).name(7) == "Ann B."
    assert manager.seating.get(other_channel).name(7) == "Ann"
    await manager.seating.close(CHANNEL, 1, can_manage=True)
    await manager.players.seen(GUILD, 7, "Ann C.")  # no table left in that server
    await manager.seating.open(GUILD, CHANNEL, 1, config)
    await manager.seating.sit(CHANNEL, 7, "Ann", 500)
    await manager.players.seen(GUILD, 7, "Ann D.")
    assert manager.seating.get(CHANNEL).name(7) == "Ann D."
    assert manager.seating.get(other_channel).name(7) == "Ann"
    await manager.recovery.shutdown()


async def test_a_name_that_cannot_be_saved_still_shows_and_fails_nothing(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The database refusing a new name costs a warning: his table shows it all the same, and
    the command or action that brought it goes on."""
    manager, _ = screened(store, ManualClock())
    config = TableConfig(DEFAULT_STAKES, 8, 100, 1000, TURN, 0)
    await manager.seating.open(GUILD, CHANNEL, 1, config)
    await manager.seating.sit(CHANNEL, 1, "Ann", 500)

    async def refused(*args: object) -> None:
        raise OSError("the database is gone")

    monkeypatch.setattr(store.players, "save_name", refused)
    await manager.players.remember(GUILD, 1, "Annie")
    assert manager.seating.get(CHANNEL).name(1) == "Annie"
    assert "could not save a player's name" in caplog.text

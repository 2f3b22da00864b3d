"""Bulk export for trackers: a player's last hands or his hands at one table
as one PokerStars file, hands three blank lines apart, and their reveals in a file apart."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core import archive as archive_module
from bot.core.archive import Archive, Export
from bot.core.errors import TableError
from bot.core.storage import Store
from engine.codec import decode
from engine.fairness import verify, visible_cards
from tests.bot.fakes import CHANNEL, GUILD
from tests.bot.session import Session
from tests.engine.pokerstars_parser import parse_histories
from tests.texts import TEXTS
from words import EN

ANN, BOB, CY = 1, 2, 3
OTHER_CHANNEL = CHANNEL + 1


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "stud.db")
    yield opened
    await opened.close()


async def played(store: Store, hands: int, seed: int = 1) -> Session:
    """Ann, Bob and Cy at one table for ``hands`` hands of random play."""
    session = Session(store, seed)
    await session.open()
    for user_id in (ANN, BOB, CY):
        await store.wallets.grant(GUILD, user_id, 1000, reason="chips for the test", by=0)
        await session.sit(user_id, 1000)
    for _ in range(hands):
        await session.play_hand()
        for user_id in (ANN, BOB, CY):  # whoever busted buys in again
            if user_id not in {seat.user_id for seat in await store.seating.seats(CHANNEL)}:
                await session.sit(user_id, 100)
    return session


async def export(store: Store, **kwargs: object) -> Export:
    return await Archive(store, TEXTS).export(
        GUILD,
        ANN,
        viewer_name="Ann",
        channel_name=lambda channel: f"#table-{channel}",
        lang=EN,
        **kwargs,  # type: ignore[arg-type]
    )


async def check_export(store: Store, found: Export, hand_ids: list[int]) -> None:
    """The file reads back, hand by hand, to the stored hands: Ann's own copy of each, her
    chips as the store settled them, every reveal matching the commitment of its hand."""
    assert list(found.hand_ids) == hand_ids
    parsed = parse_histories(found.text)
    assert [int(hand.hand_id) for hand in parsed] == hand_ids
    blocks = found.reveal.split("Hand #")[1:]
    assert [int(block.split("\n", 1)[0]) for block in blocks] == hand_ids
    assert found.reveal.endswith("\n" + TEXTS.t(EN, "verify_howto") + "\n")  # how to check, once
    net = 0
    for hand_id, text, block in zip(hand_ids, parsed, blocks, strict=True):
        record = await store.hands.get(hand_id)
        hand = decode(record.state)
        seat = next(p.seat_index for p in record.players if p.user_id == ANN)
        assert text.names[seat] == "Ann"
        assert text.final_stacks() == dict(enumerate(hand.stacks))
        net += hand.stacks[seat] - hand.starting_stacks[seat]
        # Her copy: her own down cards, nobody else's before the showdown.
        seen = {card for cards in text.seen.values() for card in cards}
        assert set(hand.down_cards(seat)[:2]) <= seen
        assert seen <= visible_cards(hand, seat)
        commitment = re.search(r"Commitment: (\w+)", block)
        reveal = re.search(r"Reveal: (.+)", block)
        assert commitment and reveal and commitment[1] == record.commitment
        assert verify(record.commitment, reveal[1])
        assert f"{hand.down_cards(seat)[0]}:" in reveal[1]  # her own cards are shown to her
    assert found.net == net


async def test_the_last_hands_are_one_file_oldest_first_with_the_reveals_apart(
    store: Store,
) -> None:
    session = await played(store, hands=5)
    found = await export(store, last=3)
    await check_export(store, found, session.hand_ids[-3:])
    assert not found.more
    # Asking for more than there are gives them all.
    everything = await export(store, last=100)
    await check_export(store, everything, session.hand_ids)
    # The history file holds hands only: no reveal, no commitment in it.
    assert "Commitment" not in everything.text and "Reveal" not in everything.text


async def test_the_session_is_the_channels_latest_table(store: Store) -> None:
    first = await played(store, hands=2)
    await first.manager.seating.close(CHANNEL, ANN, can_manage=False)
    # After the close, the session is still the table that closed.
    await check_export(store, await export(store, session_channel=CHANNEL), first.hand_ids)
    second = await played(store, hands=3, seed=2)
    found = await export(store, session_channel=CHANNEL)
    await check_export(store, found, second.hand_ids)
    assert set(found.hand_ids).isdisjoint(first.hand_ids)
    # The last hands span both tables.
    await check_export(store, await export(store, last=5), first.hand_ids + second.hand_ids)


async def test_a_long_session_gives_its_latest_hands_and_says_there_are_more(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = await played(store, hands=4)
    monkeypatch.setattr(archive_module, "MAX_SESSION_HANDS", 3)
    found = await export(store, session_channel=CHANNEL)
    assert found.more
    await check_export(store, found, session.hand_ids[-3:])


async def test_a_session_read_a_page_at_a_time_is_the_same_file(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = await played(store, hands=5)
    monkeypatch.setattr(archive_module, "SESSION_PAGE", 2)
    whole = await export(store, session_channel=CHANNEL)
    await check_export(store, whole, session.hand_ids)
    assert not whole.more
    monkeypatch.setattr(archive_module, "MAX_SESSION_HANDS", 4)
    cut = await export(store, session_channel=CHANNEL)
    await check_export(store, cut, session.hand_ids[-4:])
    assert cut.more
    monkeypatch.setattr(archive_module, "MAX_SESSION_HANDS", 5)
    assert not (await export(store, session_channel=CHANNEL)).more


async def test_nothing_to_export_is_told_clearly(store: Store) -> None:
    with pytest.raises(TableError) as nothing:
        await export(store, last=10)
    assert nothing.value.key == "no_history"
    with pytest.raises(TableError) as no_table:
        await export(store, session_channel=OTHER_CHANNEL)
    assert no_table.value.key == "no_table"
    session = Session(store, seed=4)
    await session.open()
    await session.sit(BOB, 500)
    await session.sit(CY, 500)
    await session.play_hand()
    with pytest.raises(TableError) as not_his:
        await export(store, session_channel=CHANNEL)
    assert not_his.value.key == "no_session_history"
    await session.manager.recovery.shutdown()


async def test_settled_hands_for_keeps_to_the_guild_the_table_and_the_settled_hands(
    store: Store,
) -> None:
    session = await played(store, hands=3)
    await session.start()  # a hand in progress has no history yet
    live = session.hand_ids.pop()
    newest_first = list(reversed(session.hand_ids))
    hands = await store.hands.settled_for(ANN, guild_id=GUILD, limit=10)
    assert [h.hand_id for h in hands] == newest_first and live not in newest_first
    assert [h.hand_id for h in await store.hands.settled_for(ANN, guild_id=GUILD, limit=2)] == (
        newest_first[:2]
    )
    assert await store.hands.settled_for(ANN, guild_id=GUILD + 1, limit=10) == []
    at_table = await store.hands.settled_for(ANN, guild_id=GUILD, limit=10, channel_id=CHANNEL)
    assert [h.hand_id for h in at_table] == newest_first
    assert (
        await store.hands.settled_for(ANN, guild_id=GUILD + 1, limit=10, channel_id=CHANNEL) == []
    )
    assert (
        await store.hands.settled_for(ANN, guild_id=GUILD, limit=10, channel_id=OTHER_CHANNEL) == []
    )
    # The next page: the hands below the last one given.
    for channel in (None, CHANNEL):
        below = await store.hands.settled_for(
            ANN, guild_id=GUILD, limit=10, channel_id=channel, before=newest_first[0]
        )
        assert [h.hand_id for h in below] == newest_first[1:]
    # Voided: the hand never ended at the table, so it has no history.
    await store.hands.void(live, reason="test")
    assert live not in [
        h.hand_id for h in await store.hands.settled_for(ANN, guild_id=GUILD, limit=10)
    ]
    with pytest.raises(TableError) as voided:
        await Archive(store, TEXTS).history(
            GUILD, ANN, live, viewer_name="Ann", channel_name=lambda _: "stud", lang=EN
        )
    assert voided.value.key == "history_voided"
    assert TEXTS.t(EN, "history_voided", hand_id=live).startswith(f"Hand #{live} was voided")
    with pytest.raises(ValueError, match="limit"):
        await store.hands.settled_for(ANN, guild_id=GUILD, limit=0)
    await session.manager.recovery.shutdown()

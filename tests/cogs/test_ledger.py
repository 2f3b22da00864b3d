# ruff: noqa: RUF001  (Russian text is meant to be Cyrillic)
"""/table ledger and the ledger posted when a table closes, on the fake Discord."""

from __future__ import annotations

import discord
import pytest

import render
from render import LedgerSheet
from tests.cogs.world import (
    World,
    live_table,
    member,
    open_and_seat,
    play_out_with_buttons,
    refused,
    spy_drawing,
)


def ledger_posts(world: World) -> list[discord.Message]:
    return [
        m
        for m in world.channel.history()
        if any(a.filename == "ledger.png" for a in m.attachments) and not m.flags.ephemeral
    ]


async def test_table_ledger_shows_each_player_privately_with_a_picture(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = spy_drawing(monkeypatch, render.ledger_png)
    ann, bob = world.players[:2]
    refused(await ann.slash(world.channel, "table ledger"), "There is no table in this channel")
    await open_and_seat(world)
    await play_out_with_buttons(world)
    result = await bob.slash(world.channel, "table ledger")
    assert result.ephemeral and result.response is not None
    (embed,) = result.response.embeds
    assert embed.title == "Table ledger" and embed.image.url == "attachment://ledger.png"
    (picture,) = result.response.attachments
    assert picture.filename == "ledger.png" and (await picture.read()).startswith(b"\x89PNG")
    record = await world.bot.store.reports.table_ledger(world.channel.id)
    assert record is not None and record.hands == 1
    text = embed.description or ""
    assert text.startswith("Open since <t:") and "1 hand played." in text
    names = {ann.id: "ann", bob.id: "bob"}
    for entry in record.entries:
        assert (
            f"**{names[entry.user_id]}**: bought in {entry.bought_in:,}, cashed out 0, on the table"
            f" {entry.on_table:,}; net **{entry.net:+,}** in 1 hand"
        ) in text
    assert sum(entry.net for entry in record.entries) == 0 and "net +0." in text
    ((sheet,), _) = calls[-1]
    assert isinstance(sheet, LedgerSheet) and sheet.title == "Table ledger · #stud"
    assert {row.name for row in sheet.rows} == {"ann", "bob"}
    assert not ledger_posts(world), "the channel sees the ledger when the table closes"


async def test_closing_posts_the_ledger_in_the_tables_language(world: World) -> None:
    ann, bob = world.players[:2]
    result = await ann.slash(world.channel, "table open", language="ru")
    assert result.response is not None
    for player in (ann, bob):
        await player.slash(world.channel, "sit", buy_in=400)
    await world.env.advance_time(world.bot.settings.game.countdown_seconds + 1)
    table = live_table(world)
    while table.live is not None:  # the buttons are in Russian: typed commands play it out
        legal = table.live.hand.legal()
        command = "check" if legal.check else "call" if legal.call is not None else "bringin"
        result = await member(world, table.actor_id() or 0).slash(world.channel, command)
        assert result.ephemeral, result
    closed = await ann.slash(world.channel, "table close")
    assert closed.response is not None and "The table is closed" in closed.response.content
    await world.env.settle()
    (post,) = ledger_posts(world)
    history = world.channel.history()
    closing = next(i for i, m in enumerate(history) if m.content.startswith("Стол закрыт"))
    assert history.index(post) == closing + 1
    (embed,) = post.embeds
    assert embed.title == "Итоги стола" and embed.image.url == "attachment://ledger.png"
    text = embed.description or ""
    assert text.startswith("Открыт с <t:") and " по <t:" in text
    # Everyone was cashed out: all 800 chips left the table, and the nets add up to nothing.
    assert "Всего: внесено 800, выведено 800, на столе 0; итог +0." in text
    wallets = [await world.bot.store.wallets.get(world.guild_id, p.id) for p in (ann, bob)]
    assert sum(w.balance for w in wallets) == 2000 and all(w.seated == 0 for w in wallets)
    # Asked for after the close, the ledger is the closed table's, to the player in English.
    again = await bob.slash(world.channel, "table ledger")
    assert again.response is not None
    (embed,) = again.response.embeds
    assert (embed.description or "").startswith("Open from <t:")
    await world.bot.store.audit()

"""What the cog tests share: a real StudBot on the fake Discord (the fixtures are in
``conftest.py``), and the moves players make on it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.__main__ import open_store
from bot.core.settings import GameDefaults, Settings
from bot.core.table import Table
from bot.edge.client import StudBot
from bot.edge.drawing import Drawing, InProcessDrawing
from bot.edge.presenter import DiscordPresenter
from tests.e2e.members import Channel, Member, Result, Server
from words import Texts


@dataclass
class World:
    env: Server
    bot: StudBot
    guild_id: int
    channel: Channel
    players: list[Member]
    admin: Member
    allowed_bugs: int = 0  # unexpected errors a test provokes on purpose

    @property
    def users(self) -> dict[int, Member]:
        return {member.id: member for member in [*self.players, self.admin]}


def make_settings(tmp_path: Path, **game: int) -> Settings:
    return Settings(
        token="test-token-never-used",
        database_path=str(tmp_path / "stud.db"),
        game=GameDefaults(**{"countdown_seconds": 30, **game}),
    )


async def make_bot(settings: Settings, server: Server, drawing: Drawing | None = None) -> StudBot:
    """The bot on a store of its own and the server's clock; its pictures drawn in this process
    unless ``drawing`` says otherwise (the tests of the drawing process hand in a real one).
    Texts of its own, as main() makes them: syncing makes its messages mention this test's
    command ids, which no other test sees."""
    drawing = drawing if drawing is not None else InProcessDrawing()
    store = await open_store(settings)
    return StudBot(settings, store, Texts(), clock=server.clock, drawing=drawing)


async def stop_like_a_crash(bot: StudBot) -> None:
    """The old process stops: its timers end and its database closes; nothing is told to
    Discord or saved beyond what already was."""
    await bot.house.recovery.shutdown()
    await bot.store.close()


def live_table(world: World) -> Table:
    return world.bot.house.seating.get(world.channel.id)


def components(message: discord.Message) -> list[Any]:
    """Every component of a message, nested ones included (a hand's message is a container)."""
    found: list[Any] = []
    todo: list[Any] = list(message.components)
    while todo:
        component = todo.pop(0)
        found.append(component)
        todo[:0] = getattr(component, "children", [])
    return found


def action_buttons(message: discord.Message) -> list[Any]:
    return [c for c in components(message) if getattr(c, "custom_id", "").startswith("stud:a:")]


def table_message(world: World) -> discord.Message:
    """The newest channel message carrying action buttons."""
    for message in reversed(world.channel.history()):
        if action_buttons(message):
            return message
    raise AssertionError("no table message with buttons")


def labels(message: discord.Message) -> list[str]:
    return [button.label or "" for button in action_buttons(message)]


def stored_buttons(stored: Any) -> list[str]:
    """The custom ids of the buttons of a message as the fake Discord stores it (raw
    components)."""
    ids: list[str] = []
    todo: list[Any] = list(stored["components"])
    while todo:
        component = todo.pop(0)
        if "custom_id" in component:
            ids.append(component["custom_id"])
        todo[:0] = component.get("components", [])
    return ids


def message_text(message: discord.Message) -> str:
    """What a message says: its content, its embeds and its text displays."""
    parts = [message.content, *(str(embed.to_dict()) for embed in message.embeds)]
    parts += [c.content for c in components(message) if isinstance(c, discord.TextDisplay)]
    return "\n".join(parts)


def member(world: World, user_id: int) -> Member:
    return next(p for p in [*world.players, world.admin] if p.id == user_id)


def passive_label(names: list[str]) -> str:
    """Check if possible, else call, else bring in: a hand that reaches showdown."""
    for prefix in ("Check", "Call", "Bring in"):
        for name in names:
            if name.startswith(prefix):
                return name
    raise AssertionError(f"no passive action in {names}")


async def open_and_seat(world: World, count: int = 2, **options: int | str) -> None:
    opener = world.players[0]
    result = await opener.slash(world.channel, "table open", **options)
    assert result.response is not None and result.ephemeral
    for player in world.players[:count]:
        result = await player.slash(world.channel, "sit")
        assert result.ephemeral, result
    await world.env.advance_time(world.bot.settings.game.countdown_seconds + 1)
    assert live_table(world).live is not None


async def play_out_with_buttons(world: World) -> None:
    table = live_table(world)
    while table.live is not None:
        actor = table.actor_id()
        assert actor is not None
        message = table_message(world)
        result = await member(world, actor).click(message, label=passive_label(labels(message)))
        assert result.acknowledged and not result.ephemeral, result


def channel_text(message: discord.Message) -> str:
    """Everything a channel message shows as text: content, embeds, text displays and
    attachment names."""
    parts = [message_text(message)]
    parts.extend(attachment.filename for attachment in message.attachments)
    return "\n".join(parts)


def refused(result: Result, text: str) -> None:
    """The interaction got one ephemeral reply containing ``text``."""
    # A refused click has a silent acknowledgement, then the refusal as a followup.
    reply = result.followups[0] if result.followups else result.response
    assert reply is not None, result
    assert reply.ephemeral, reply
    assert text in reply.content, reply.content


def spy_drawing(
    monkeypatch: pytest.MonkeyPatch, *functions: Callable[..., bytes]
) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    """The arguments of every picture the presenter draws with one of ``functions`` (the drawing
    itself runs in another process, where a monkeypatched function would never be seen)."""
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    real = DiscordPresenter._draw

    async def spy(self: DiscordPresenter, draw: Any, *args: Any, **kwargs: Any) -> Any:
        if draw in functions:
            calls.append((args, kwargs))
        return await real(self, draw, *args, **kwargs)

    monkeypatch.setattr(DiscordPresenter, "_draw", spy)
    return calls

"""Clicks answered with the table's update itself: one request a click instead of two.

Discord lets a click's interaction be answered by editing the message it was on (callback
type 7, UPDATE_MESSAGE). The router registers the click here, makes its one call into the core
and waits a moment; the presenter, delivering the table's next update, claims the click and sends
that update as its answer. A click nobody claims in time (the update is slow, or there is none)
is acknowledged on its own, well within Discord's 3 seconds, and the update goes as an edit.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Final

import discord

# How long a click waits for its update to answer it before it is acknowledged on its own: an
# update slower than this (Discord failing, a busy drawing process) goes as an edit.
CLAIM_SECONDS: Final = 0.3


@dataclass(eq=False)
class PendingClick:
    interaction: discord.Interaction
    claimed: bool = False  # the presenter is answering it with the update
    abandoned: bool = False  # acknowledged on its own: the presenter must not answer it
    done: asyncio.Event = field(default_factory=asyncio.Event)


class Clicks:
    def __init__(self) -> None:
        self._waiting: dict[int, list[PendingClick]] = {}  # channel id -> clicks, oldest first

    def expect(self, channel_id: int, interaction: discord.Interaction) -> PendingClick:
        click = PendingClick(interaction)
        self._waiting.setdefault(channel_id, []).append(click)
        return click

    def forget(self, channel_id: int, click: PendingClick) -> None:
        waiting = self._waiting.get(channel_id, [])
        if click in waiting:
            waiting.remove(click)
        if not waiting:
            self._waiting.pop(channel_id, None)

    def claim(self, channel_id: int, message_id: int | None) -> PendingClick | None:
        """The oldest click waiting on the table's message ``message_id``, now the presenter's
        to answer (it calls :meth:`answered` once it has)."""
        for click in self._waiting.get(channel_id, []):
            message = click.interaction.message
            if not click.abandoned and message is not None and message.id == message_id:
                click.claimed = True
                self.forget(channel_id, click)
                return click
        return None

    @staticmethod
    def answered(click: PendingClick) -> None:
        click.done.set()

    async def watch(
        self, channel_id: int, click: PendingClick, acknowledge: Callable[[], Awaitable[object]]
    ) -> None:
        """Return once the click is answered: by its update, or, when nobody has claimed it
        within ``CLAIM_SECONDS`` of its arrival, by ``acknowledge`` (then it is abandoned)."""
        try:
            await asyncio.wait_for(asyncio.shield(click.done.wait()), CLAIM_SECONDS)
        except TimeoutError:
            if click.claimed:
                await click.done.wait()  # being answered now: its request is under way
                return
            click.abandoned = True
            self.forget(channel_id, click)
            await acknowledge()
            click.done.set()

    def drop(self, channel_id: int, click: PendingClick) -> None:
        """The click will be answered otherwise (refused): nobody is to claim it."""
        if not click.claimed and not click.abandoned:
            click.abandoned = True
            self.forget(channel_id, click)
            click.done.set()

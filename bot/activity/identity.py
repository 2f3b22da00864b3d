"""Who is at the page, proven by Discord: the OAuth2 code the Embedded App SDK's ``authorize``
gave the page is exchanged for an access token with the application's secret, the token names
the user (``/users/@me``), and the bot's own token asks Discord whether that user is in that
Activity instance and where the instance runs (``/applications/{id}/activity-instances/{id}``).
Nothing the page says about itself is taken on trust."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import aiohttp

log = logging.getLogger(__name__)


class NotProven(Exception):
    """Discord did not confirm who the page is or where: ``key`` words it, ``status`` is the
    HTTP status the page is answered with."""

    def __init__(self, key: str, status: int) -> None:
        super().__init__(key)
        self.key = key
        self.status = status


@dataclass(frozen=True, slots=True)
class Identity:
    """A user Discord vouched for, in an Activity instance it runs in a guild channel."""

    user_id: int
    name: str
    locale: str
    access_token: str
    instance_id: str
    channel_id: int
    guild_id: int | None


@dataclass(frozen=True, slots=True)
class DiscordApi:
    """Discord's HTTP API as the web server needs it. ``base`` is the API's address (the bot's
    own: tests point both at a fake Discord)."""

    session: aiohttp.ClientSession
    base: str
    client_id: int
    client_secret: str
    bot_token: str

    async def prove(self, code: str, instance_id: str, channel_id: int) -> Identity:
        """The user behind ``code``, checked to be in ``instance_id`` running in
        ``channel_id``; :class:`NotProven` otherwise."""
        token = await self._exchange(code)
        user = await self._get("/users/@me", f"Bearer {token}", "activity_bad_code", 401)
        user_id = int(user["id"])
        instance = await self._get(
            f"/applications/{self.client_id}/activity-instances/{instance_id}",
            f"Bot {self.bot_token}",
            "activity_not_in_instance",
            403,
        )
        location = instance.get("location") or {}
        if str(user_id) not in (instance.get("users") or ()):
            raise NotProven("activity_not_in_instance", 403)
        if str(location.get("channel_id")) != str(channel_id) or location.get("kind") != "gc":
            # A DM's or another channel's instance: the table is a server channel's.
            raise NotProven("activity_wrong_channel", 403)
        guild = location.get("guild_id")
        return Identity(
            user_id,
            str(user.get("global_name") or user.get("username") or user_id),
            str(user.get("locale") or ""),
            token,
            instance_id,
            channel_id,
            None if guild is None else int(guild),
        )

    async def _exchange(self, code: str) -> str:
        form = {
            "client_id": str(self.client_id),
            "client_secret": self.client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        async with self.session.post(f"{self.base}/oauth2/token", data=form) as response:
            if response.status >= 500:
                raise NotProven("activity_discord_down", 503)
            body: dict[str, Any] = await response.json(content_type=None)
        if response.status != 200 or "access_token" not in body:
            raise NotProven("activity_bad_code", 401)
        return str(body["access_token"])

    async def _get(self, path: str, authorization: str, refused: str, status: int) -> Any:
        headers = {"Authorization": authorization}
        async with self.session.get(f"{self.base}{path}", headers=headers) as response:
            if response.status >= 500:
                raise NotProven("activity_discord_down", 503)
            if response.status != 200:
                raise NotProven(refused, status)
            return await response.json(content_type=None)

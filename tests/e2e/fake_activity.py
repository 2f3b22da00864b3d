"""The fake Discord's part for an app's Activity, as Discord documents it: the OAuth2 token
endpoint (docs/topics/oauth2: a form body, the authorization code exchanged for a bearer
token), ``/users/@me`` with that bearer token (not the bot's), the Activity instances
(docs/resources/application, "Get Application Activity Instance", with the bot's token) and
the LAUNCH_ACTIVITY interaction callback (type 12, for apps with Activities enabled), which
starts an instance in the interaction's channel.

Tests play the Embedded App SDK's part with :func:`authorize` (the code ``authorize`` gives
the page) and :func:`start_instance`.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any, Final

from aiohttp import web

if TYPE_CHECKING:
    from tests.e2e.fake_discord import FakeDiscord

LAUNCH_ACTIVITY: Final = 12
# Interactions an app may answer by launching its Activity: a command's or a component's.
LAUNCHABLE: Final = frozenset({2, 3})


def _json(data: object, status: int = 200) -> web.Response:
    return web.json_response(data, status=status)


def authorize(fake: FakeDiscord, user_id: int) -> str:
    """The code the SDK's ``authorize`` gives a page ``user_id`` is at (used once)."""
    code = secrets.token_hex(8)
    fake.oauth_codes[code] = user_id
    return code


def start_instance(fake: FakeDiscord, channel_id: int, *users: int) -> str:
    """An instance of the Activity running in ``channel_id`` with ``users`` in it."""
    guild_id = fake._channel_guild.get(channel_id, fake.guild_id)
    instance_id = f"i-{fake.snowflake()}-gc-{guild_id}-{channel_id}"
    fake.activity_instances[instance_id] = (channel_id, set(users))
    return instance_id


def activity_answer(
    fake: FakeDiscord, method: str, parts: list[str], body: Any, authorization: str
) -> web.Response | None:
    """Discord's answer to an Activity request, or None for any other request."""
    if method == "POST" and parts == ["oauth2", "token"]:
        return _token(fake, body)
    if method == "GET" and parts == ["users", "@me"] and authorization.startswith("Bearer "):
        user_id = fake.access_tokens.get(authorization.removeprefix("Bearer "))
        if user_id is None:
            return _json({"message": "401: Unauthorized", "code": 0}, 401)
        user = fake.users[user_id]
        return _json({**user, "locale": user.get("locale", "en-US")})
    if method == "GET" and len(parts) == 4 and parts[2] == "activity-instances":
        if not authorization.startswith("Bot "):
            return _json({"message": "401: Unauthorized", "code": 0}, 401)
        found = fake.activity_instances.get(parts[3])
        if parts[1] != str(fake.app_id) or found is None:
            return _json({"message": "404: Not Found", "code": 0}, 404)
        channel_id, users = found
        guild_id = fake._channel_guild.get(channel_id, fake.guild_id)
        return _json(
            {
                "application_id": str(fake.app_id),
                "instance_id": parts[3],
                "launch_id": str(fake.snowflake()),
                "location": {
                    "id": f"gc-{guild_id}-{channel_id}",
                    "kind": "gc",
                    "channel_id": str(channel_id),
                    "guild_id": str(guild_id),
                },
                "users": [str(user) for user in sorted(users)],
            }
        )
    return None


def _token(fake: FakeDiscord, form: Any) -> web.Response:
    if not isinstance(form, dict) or form.get("client_id") != str(fake.app_id):
        return _json({"error": "invalid_client"}, 401)
    if form.get("client_secret") != fake.client_secret:
        return _json({"error": "invalid_client"}, 401)
    if form.get("grant_type") != "authorization_code":
        return _json({"error": "unsupported_grant_type"}, 400)
    user_id = fake.oauth_codes.pop(str(form.get("code")), None)
    if user_id is None:
        return _json({"error": "invalid_grant", "error_description": 'Invalid "code"'}, 400)
    token = secrets.token_hex(16)
    fake.access_tokens[token] = user_id
    return _json(
        {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": 604800,
            "refresh_token": secrets.token_hex(16),
            "scope": "identify",
        }
    )


def launch_refused(fake: FakeDiscord, kind: int, interaction_kind: int) -> web.Response | None:
    """Discord's refusal of a LAUNCH_ACTIVITY answer it would not take."""
    if kind != LAUNCH_ACTIVITY:
        return None
    if not fake.activities:
        return _json({"message": "Activities are not enabled for this app", "code": 50035}, 400)
    if interaction_kind not in LAUNCHABLE:
        return _json({"message": "Invalid interaction response type", "code": 50035}, 400)
    return None


def launched(fake: FakeDiscord, kind: int, channel_id: int, user_id: int) -> str | None:
    """The instance a LAUNCH_ACTIVITY answer started (None for any other answer)."""
    return start_instance(fake, channel_id, user_id) if kind == LAUNCH_ACTIVITY else None

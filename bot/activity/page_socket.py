"""One page's WebSocket once its session is known: the table of its channel pushed as it changes,
and the page's requests, each one call into the core's single entry for it (the same a click or
a command makes, with the same refusals).

A socket watches through the core's port (``House.subscribe``) as its own user: it is handed the
public views and his own cards only, so nothing it could send holds another player's down card.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from aiohttp import web

from bot.activity.identity import Identity
from bot.activity.wire import dumps, frame
from bot.core.config import TableConfig
from bot.core.errors import TableError, error_id, refusal
from bot.core.house import House
from bot.core.outbox import Line
from bot.core.settings import GameDefaults
from bot.core.views import PrivateView, ResultsView, TableView
from words import Texts

log = logging.getLogger(__name__)

MESSAGE_BYTES: Final = 4096  # a page message is a few dozen bytes; more is not a page's
ACTIONS: Final = ("fold", "check", "call", "bring_in", "complete", "bet", "raise")
BUTTON_WORDS: Final = (*(f"btn_{name}" for name in ACTIONS), "btn_cards")
TABLE_WORDS: Final = (
    *(f"game_{game}" for game in ("stud", "razz", "hilo", "mixed")),
    *(f"street_{street}" for street in (3, 4, 5, 6, 7, "showdown")),
    "stakes",
)
COMMAND: Final = re.compile(r"\{cmd_(\w+)\}")


@dataclass(frozen=True, slots=True)
class Session:
    """A page's proof of who it is: made at ``/api/token``, good for one user in one Activity
    instance in one channel; ``lang`` is his own language (his Discord locale's)."""

    token: str
    identity: Identity
    lang: str
    made: float


@dataclass(frozen=True, slots=True)
class Rate:
    """How many messages a socket may send: ``burst`` at once, then ``per_second``."""

    burst: int = 10
    per_second: float = 5.0  # a player clicks far less; more is a script


class Bucket:
    """At most ``rate.burst`` messages at once, then ``rate.per_second``; ``clock`` in
    seconds."""

    def __init__(self, clock: Callable[[], float], rate: Rate) -> None:
        self._clock = clock
        self._rate = rate
        self._tokens = float(rate.burst)
        self._at = clock()

    def take(self) -> bool:
        now = self._clock()
        rate = self._rate
        self._tokens = min(float(rate.burst), self._tokens + (now - self._at) * rate.per_second)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


class BadMessage(Exception):
    """A page message the protocol has no place for; ``key`` words why."""

    def __init__(self, key: str = "activity_bad_message") -> None:
        super().__init__(key)
        self.key = key


@dataclass
class PageSocket:
    ws: web.WebSocketResponse
    session: Session
    house: House
    texts: Texts
    game: GameDefaults  # what a table opened from the page is opened with, as /table open's
    clock: Callable[[], float]  # monotonic seconds, for the rate limit
    rate: Rate

    def __post_init__(self) -> None:
        self._sending = asyncio.Lock()
        self._bucket = Bucket(self.clock, self.rate)
        self._words_lang: str | None = None
        identity = self.session.identity
        self.user_id, self.channel_id = identity.user_id, identity.channel_id

    async def run(self) -> None:
        """Watch the table and answer the page until it goes."""
        watching = asyncio.create_task(self._watch(), name=f"activity-{self.channel_id}")
        try:
            async for message in self.ws:
                if message.type is web.WSMsgType.TEXT:
                    await self._request(message.data)
                elif message.type is web.WSMsgType.BINARY:
                    await self._error("activity_bad_message")
        finally:
            watching.cancel()
            await asyncio.gather(watching, return_exceptions=True)

    # ------------------------------------------------------------------ the table, pushed

    async def _watch(self) -> None:
        told_none = False
        while True:
            try:
                subscription = self.house.subscribe(self.channel_id, self.user_id)
            except TableError:
                if not told_none:
                    await self._welcome(self.session.lang)
                    await self._send({"type": "no_table", "can_open": self._can_open()})
                    told_none = True
                await self.house.table_opened(self.channel_id)
                continue
            told_none = False
            try:
                # Every view the table hands over; the iteration ends when it closes.
                async for item in subscription:
                    await self._show(item)
            finally:
                subscription.close()
            await self._send({"type": "closed"})

    async def _show(self, item: object) -> None:
        match item:
            case TableView(lang=lang):
                await self._welcome(lang)
                await self._send_text(frame(item, self.house.clock.now()))
            case ResultsView() | PrivateView():
                await self._send_text(frame(item, self.house.clock.now()))
            case Line(text=text):
                await self._send({"type": "line", "text": text})

    async def _welcome(self, lang: str) -> None:
        """The page's words, once for each language they change to."""
        if lang == self._words_lang:
            return
        self._words_lang = lang
        identity = self.session.identity
        await self._send(
            {
                "type": "welcome",
                "user_id": str(identity.user_id),
                "channel_id": str(identity.channel_id),
                "lang": lang,
                "words": page_words(self.texts, lang),
            }
        )

    def _can_open(self) -> bool:
        return self.session.identity.guild_id is not None

    # ------------------------------------------------------------------ the page's requests

    async def _request(self, data: str) -> None:
        if len(data.encode()) > MESSAGE_BYTES:
            await self._error("activity_too_big")
            return
        if not self._bucket.take():
            await self._error("activity_too_many")
            return
        try:
            message = _parse(data)
        except BadMessage as bad:
            await self._error(bad.key)
            return
        number = message["id"]
        try:
            done = await self._do(message)
        except Exception as error:
            await self._send({"type": "refused", "id": number, "reason": self._reason(error)})
            return
        await self._send({"type": "done", "id": number, **done})

    async def _do(self, message: dict[str, Any]) -> dict[str, Any]:
        """What a request asks of the core, through the entry a click or command uses."""
        channel, user, lang = self.channel_id, self.user_id, self.session.lang
        identity = self.session.identity
        match message["type"]:
            case "act":
                outcome = await self.house.dealer.act(
                    channel,
                    user,
                    message["action"],
                    message["amount"],
                    hand_id=message["hand_id"],
                    seq=message["seq"],
                    lang=lang,
                )
                return {"action": outcome.action, "amount": outcome.amount}
            case "sit":
                seat = await self.house.seating.sit(
                    channel, user, identity.name, message["chips"], lang
                )
                return {"position": seat.position, "stack": seat.stack}
            case "leave":
                return {"chips": await self.house.seating.leave(channel, user)}
            case "sit_out":
                await self.house.seating.set_sitting_out(channel, user, message["out"])
                return {}
            case "open":
                if identity.guild_id is None:
                    raise TableError("guild_only")
                config = TableConfig.from_options(self.game, lang)
                await self.house.seating.open(identity.guild_id, channel, user, config)
                return {}
            case _:  # my_cards
                cards = await self.house.dealer.cards(channel, user, name=identity.name, lang=lang)
                await self._send_text(frame(cards, self.house.clock.now()))
                return {}

    def _reason(self, error: Exception) -> str:
        lang = self.session.lang
        if (worded := refusal(error, self.texts, lang)) is not None:
            return worded
        ident = error_id()
        log.error("unexpected error %s in an Activity request", ident, exc_info=error)
        return self.texts.t(lang, "unexpected", error_id=ident)

    # ------------------------------------------------------------------ sending

    async def _error(self, key: str) -> None:
        await self._send({"type": "error", "reason": self.texts.t(self.session.lang, key)})

    async def _send(self, message: dict[str, Any]) -> None:
        await self._send_text(dumps(message))

    async def _send_text(self, text: str) -> None:
        async with self._sending:
            if not self.ws.closed:
                await self.ws.send_str(text)


def _parse(data: str) -> dict[str, Any]:
    """A page request, checked field by field; :class:`BadMessage` for anything else."""
    try:
        message = json.loads(data)
    except ValueError:
        raise BadMessage() from None
    if not isinstance(message, dict) or not _is_int(message.get("id")):
        raise BadMessage()
    kind = message.get("type")
    if kind == "act":
        amount = message.get("amount")
        hand_id = message.get("hand_id")
        if (
            message.get("action") not in ACTIONS
            or not (amount is None or _is_int(amount))
            or not _is_int(message.get("seq"))
            or not (isinstance(hand_id, str) and hand_id.isdigit() and len(hand_id) < 20)
        ):
            raise BadMessage()
        return {**message, "amount": amount, "hand_id": int(hand_id)}
    if kind == "sit":
        chips = message.get("chips")
        if not (chips is None or _is_int(chips)):
            raise BadMessage()
        return {**message, "chips": chips}
    if kind == "sit_out":
        if not isinstance(message.get("out"), bool):
            raise BadMessage()
        return message
    if kind in ("leave", "open", "my_cards"):
        return message
    raise BadMessage()


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53


@lru_cache(maxsize=16)
def page_words(texts: Texts, lang: str) -> dict[str, str]:
    """Every word the page shows, in ``lang``: the ``activity_`` messages, the buttons' and
    the table's own (games, streets, stakes). Templates, their placeholders for the page to
    fill, except a command's, named as typed in ``lang`` ("/hand verify")."""
    catalogue = texts.catalogue(lang)
    keys = [key for key in catalogue.template if key.startswith("activity_")]
    words = {key: catalogue.raw(key) for key in (*keys, *BUTTON_WORDS, *TABLE_WORDS)}
    for key, text in words.items():
        for command in COMMAND.findall(text):
            text = text.replace(
                f"{{cmd_{command}}}", texts.slash_command(command.replace("_", " "), lang)
            )
        words[key] = text
    return words

"""Finished hands as players ask for them: PokerStars histories and the fairness check.

A history file holds nothing but hands, which is what trackers read; each hand's fairness
reveal goes in a file of its own beside it.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from bot.core.errors import TableError
from bot.core.games import game_of
from bot.core.replay import replay_frames
from bot.core.storage import HandNotFound, HandRecord, Store
from bot.core.table import fallback_name
from engine.codec import decode
from engine.fairness import public_reveal, verify
from engine.hand import StudHand
from engine.history import join_histories, write_history
from render.replay import Frame
from words import Texts


@dataclass(frozen=True, slots=True)
class Verification:
    hand_id: int
    commitment: str
    matches: bool
    reveal_file: str  # the reveal text, for the player to check by himself


# /history session gives at most this many of the latest hands: a day's long session, in a file
# Discord takes (about 2 KB a hand, and as much again for the reveals).
MAX_SESSION_HANDS: Final = 500
# Hands read from the store at a time for /history session: as many as /history last:N reads.
SESSION_PAGE: Final = 100
# Hands written between two yields to the event loop (each takes about a millisecond).
HANDS_PER_SLICE: Final = 25


@dataclass(frozen=True, slots=True)
class History:
    hand_id: int
    game: str  # the game's key ("razz"), as bot.core.games names it
    text: str  # PokerStars format, the viewer's own copy
    reveal: str  # the deck reveal for the viewer, a file apart from the history
    net: tuple[tuple[str, int], ...]  # (name, chips won or lost) per player


@dataclass(frozen=True, slots=True)
class Replay:
    """A hand's replay for one viewer: its frames, for ``render.replay.replay_gif``."""

    hand_id: int
    game: str  # the game's key ("razz")
    frames: tuple[Frame, ...]


@dataclass(frozen=True, slots=True)
class Export:
    """Several of a player's hands: one PokerStars file and one file of their reveals."""

    hand_ids: tuple[int, ...]  # oldest first, as the file has them
    text: str
    reveal: str
    net: int  # the player's chips won (+) or lost (-) over these hands
    more: bool  # he has more hands than these where they were taken from
    games: tuple[tuple[str, int], ...]  # (game key, hands of it), in the order first played


def _viewer_seat(record: HandRecord, user_id: int) -> int | None:
    return next((p.seat_index for p in record.players if p.user_id == user_id), None)


def _reveal_text(
    record: HandRecord, hand: StudHand, viewer: int | None, texts: Texts, lang: str
) -> str:
    """The fairness reveal for one viewer: what he saw in clear, every other card hashed."""
    reveal = public_reveal(hand, record.salt, viewer)
    head = texts.t(lang, "verify_file", commitment=record.commitment, reveal=reveal)
    return f"{head}{texts.t(lang, 'verify_howto')}\n"


def _reveal_entry(
    record: HandRecord, hand: StudHand, viewer: int | None, texts: Texts, lang: str
) -> str:
    """One hand's part of an export's reveal file: its number, commitment and reveal."""
    reveal = public_reveal(hand, record.salt, viewer)
    head = texts.t(lang, "export_reveal_hand", hand_id=record.hand_id)
    file = texts.t(lang, "verify_file", commitment=record.commitment, reveal=reveal)
    return f"{head}\n{file}"


def _copy(
    record: HandRecord,
    hand: StudHand,
    viewer: int | None,
    names: Callable[[int], str],
    channel_name: Callable[[int], str],
) -> str:
    """The viewer's PokerStars copy of one finished hand."""
    return write_history(
        hand.events,
        viewer_seat=viewer,
        hand_id=record.hand_id,
        table_name=channel_name(record.channel_id),
        names={p.seat_index: names(p.user_id) for p in record.players},
        started_at=record.started_at,
    )


class Archive:
    def __init__(self, store: Store, texts: Texts) -> None:
        self.store = store
        self.texts = texts

    async def _finished(self, guild_id: int, hand_id: int) -> HandRecord:
        record = await self.store.hands.get(hand_id)
        if record.guild_id != guild_id:
            raise HandNotFound(hand_id)
        if record.is_live:
            raise TableError("verify_live", hand_id=hand_id)
        return record

    async def verify(self, guild_id: int, user_id: int, hand_id: int, lang: str) -> Verification:
        record = await self._finished(guild_id, hand_id)
        hand = decode(record.state)
        viewer = _viewer_seat(record, user_id)
        reveal = public_reveal(hand, record.salt, viewer)
        return Verification(
            hand_id,
            record.commitment,
            verify(record.commitment, reveal),
            _reveal_text(record, hand, viewer, self.texts, lang),
        )

    async def history(
        self,
        guild_id: int,
        user_id: int,
        hand_id: int | None,
        *,
        viewer_name: str,
        channel_name: Callable[[int], str],
        lang: str,
    ) -> History:
        """The viewer's copy of a hand (his last one when ``hand_id`` is None).

        Players are named as the bot last saw them on the server, the viewer by ``viewer_name``
        (his name now); ``channel_name`` names the channel the hand was played in. The reveal
        is worded in ``lang``.
        """
        record = await self._settled(guild_id, user_id, hand_id)
        names = await self._names(guild_id, [record], user_id, viewer_name)
        hand = decode(record.state)
        viewer = _viewer_seat(record, user_id)
        text = _copy(record, hand, viewer, names, channel_name)
        net = tuple(
            (names(p.user_id), p.final_stack - p.starting_stack)
            for p in record.players
            if p.final_stack is not None
        )
        return History(
            record.hand_id,
            game_of(hand.variant),
            text,
            _reveal_text(record, hand, viewer, self.texts, lang),
            net,
        )

    async def replay(
        self,
        guild_id: int,
        user_id: int,
        hand_id: int | None,
        *,
        viewer_name: str,
        lang: str,
        four_colour: bool,
    ) -> Replay:
        """A finished hand (his last one when ``hand_id`` is None) played again for the viewer:
        his own cards if he played it, and only what the table saw of everyone else's."""
        record = await self._settled(guild_id, user_id, hand_id)
        names = await self._names(guild_id, [record], user_id, viewer_name)
        hand = decode(record.state)
        by_seat = {p.seat_index: names(p.user_id) for p in record.players}
        frames = replay_frames(
            hand,
            viewer=_viewer_seat(record, user_id),
            names=[by_seat.get(seat, "") for seat in range(hand.seats)],
            hand_id=record.hand_id,
            texts=self.texts,
            lang=lang,
            four_colour=four_colour,
        )
        return Replay(record.hand_id, game_of(hand.variant), frames)

    async def _settled(self, guild_id: int, user_id: int, hand_id: int | None) -> HandRecord:
        """The finished, settled hand asked for: his last one when ``hand_id`` is None."""
        if hand_id is None:
            # While he plays a hand, "my last hand" is the one before it, which has a history.
            last = await self.store.hands.last_for(user_id, guild_id=guild_id, finished=True)
            if last is None:
                raise TableError("no_history")
            hand_id = last.hand_id
        record = await self._finished(guild_id, hand_id)
        if record.outcome == "voided":
            # It never ended at the table (its chips went back), so there is no history to write.
            raise TableError("history_voided", hand_id=hand_id)
        return record

    async def export(
        self,
        guild_id: int,
        user_id: int,
        *,
        last: int | None = None,
        session_channel: int | None = None,
        viewer_name: str,
        channel_name: Callable[[int], str],
        lang: str,
    ) -> Export:
        """The viewer's ``last`` settled hands on the server, or his hands at
        ``session_channel``'s table since it opened (the last table there, once it closed; at
        most :data:`MAX_SESSION_HANDS`, the latest), as one file in the order they were played.
        """
        if (last is None) == (session_channel is None):
            raise ValueError("export either the last hands or a session")
        if session_channel is None:
            assert last is not None
            records = await self.store.hands.settled_for(user_id, guild_id=guild_id, limit=last)
            more = False
            if not records:
                raise TableError("no_history")
        else:
            records = await self._session_hands(guild_id, user_id, session_channel)
            more = len(records) > MAX_SESSION_HANDS
            records = records[:MAX_SESSION_HANDS]
            if not records:
                had_table = await self.store.reports.table_ledger(session_channel) is not None
                raise TableError("no_session_history" if had_table else "no_table")
        records.reverse()
        names = await self._names(guild_id, records, user_id, viewer_name)
        texts: list[str] = []
        reveals: list[str] = []
        net = 0
        games: Counter[str] = Counter()
        for count, record in enumerate(records, 1):
            hand = decode(record.state)
            games[game_of(hand.variant)] += 1
            viewer = _viewer_seat(record, user_id)
            texts.append(_copy(record, hand, viewer, names, channel_name))
            reveals.append(_reveal_entry(record, hand, viewer, self.texts, lang))
            net += sum(
                (p.final_stack or 0) - p.starting_stack
                for p in record.players
                if p.user_id == user_id
            )
            if count % HANDS_PER_SLICE == 0:
                # Hundreds of hands take a while to write: let the tables play meanwhile.
                await asyncio.sleep(0)
        reveal = "\n".join(reveals) + "\n" + self.texts.t(lang, "verify_howto") + "\n"
        return Export(
            tuple(r.hand_id for r in records),
            join_histories(texts),
            reveal,
            net,
            more,
            tuple(games.items()),
        )

    async def _session_hands(
        self, guild_id: int, user_id: int, channel_id: int
    ) -> list[HandRecord]:
        """His hands at the channel's table, newest first, one more than
        :data:`MAX_SESSION_HANDS` if there are: a page at a time, so that each read stays
        short and the tables play on between them."""
        records: list[HandRecord] = []
        while len(records) <= MAX_SESSION_HANDS:
            wanted = min(SESSION_PAGE, MAX_SESSION_HANDS + 1 - len(records))
            page = await self.store.hands.settled_for(
                user_id,
                guild_id=guild_id,
                limit=wanted,
                channel_id=channel_id,
                before=records[-1].hand_id if records else None,
            )
            records += page
            if len(page) < wanted:
                break
        return records

    async def _names(
        self, guild_id: int, records: Sequence[HandRecord], user_id: int, viewer_name: str
    ) -> Callable[[int], str]:
        """How the hands name each player: as the bot last saw him, the viewer as he is now."""
        players = {p.user_id for record in records for p in record.players}
        names = await self.store.players.names(guild_id, players)
        names[user_id] = viewer_name
        return lambda player: names.get(player) or fallback_name(player)

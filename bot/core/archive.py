"""Finished hands as players ask for them: PokerStars histories and the fairness check."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.core.errors import TableError
from bot.core.i18n import t
from bot.core.storage import HandNotFound, HandRecord, Store
from bot.core.tables import fallback_name, public_reveal
from engine.fairness import verify
from engine.hand import StudHand
from engine.history import write_history


@dataclass(frozen=True, slots=True)
class Verification:
    hand_id: int
    commitment: str
    matches: bool
    reveal_file: str  # the reveal text, for the player to check by himself


@dataclass(frozen=True, slots=True)
class History:
    hand_id: int
    text: str  # PokerStars format, the viewer's own copy
    net: tuple[tuple[str, int], ...]  # (name, chips won or lost) per player


def _viewer_seat(record: HandRecord, user_id: int) -> int | None:
    return next((p.seat_index for p in record.players if p.user_id == user_id), None)


def _reveal_text(record: HandRecord, hand: StudHand, viewer: int | None, lang: str) -> str:
    """The fairness reveal for one viewer: what he saw in clear, every other card hashed."""
    reveal = public_reveal(hand, record.salt, viewer)
    head = t(lang, "verify_file", commitment=record.commitment, reveal=reveal)
    return f"{head}{t(lang, 'verify_howto')}\n"


class Archive:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def _finished(self, guild_id: int, hand_id: int) -> HandRecord:
        record = await self.store.get_hand(hand_id)
        if record.guild_id != guild_id:
            raise HandNotFound(hand_id)
        if record.is_live:
            raise TableError("verify_live", hand_id=hand_id)
        return record

    async def verify(self, guild_id: int, user_id: int, hand_id: int, lang: str) -> Verification:
        record = await self._finished(guild_id, hand_id)
        hand = StudHand.from_dict(record.state)
        viewer = _viewer_seat(record, user_id)
        reveal = public_reveal(hand, record.salt, viewer)
        return Verification(
            hand_id,
            record.commitment,
            verify(record.commitment, reveal),
            _reveal_text(record, hand, viewer, lang),
        )

    async def history(
        self,
        guild_id: int,
        user_id: int,
        hand_id: int | None,
        *,
        viewer_name: str,
        channel_name: Callable[[int], str],
    ) -> History:
        """The viewer's copy of a hand (his last one when ``hand_id`` is None).

        Players are named as the bot last saw them on the server, the viewer by ``viewer_name``
        (his name now); ``channel_name`` names the channel the hand was played in.
        """
        if hand_id is None:
            # While he plays a hand, "my last hand" is the one before it, which has a history.
            last = await self.store.last_hand_for(user_id, guild_id=guild_id, finished=True)
            if last is None:
                raise TableError("no_history")
            hand_id = last.hand_id
        record = await self._finished(guild_id, hand_id)
        hand = StudHand.from_dict(record.state)
        names = await self.store.names(guild_id, (p.user_id for p in record.players))
        names[user_id] = viewer_name
        seat_names = {
            p.seat_index: names.get(p.user_id) or fallback_name(p.user_id) for p in record.players
        }
        viewer = _viewer_seat(record, user_id)
        text = write_history(
            hand.events,
            viewer_seat=viewer,
            hand_id=record.hand_id,
            table_name=channel_name(record.channel_id),
            names=seat_names,
            started_at=record.started_at,
            reveal=_reveal_text(record, hand, viewer, "en"),
        )
        net = tuple(
            (seat_names[p.seat_index], p.final_stack - p.starting_stack)
            for p in record.players
            if p.final_stack is not None
        )
        return History(record.hand_id, text, net)

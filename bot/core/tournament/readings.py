"""What the desk reads off a tournament, apart from its moves: whether late registration is open
(RULES 11.9), the places the store holds (11.4), its tables' settings and the lobby's figures of
a running one (11.2)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.core.config import TableConfig
from bot.core.settings import DEFAULT_TIME_BANK
from bot.core.storage import HandRecord, Store, Tournament, TournamentEntry
from bot.core.table import Table
from bot.core.tournament.director import TournamentDirector
from engine.codec import decode
from engine.tournament import Finish, structure
from words import EN


def late_open(director: TournamentDirector) -> bool:
    """Late registration (and re-entry, if allowed) is open until the end of the level the
    organiser named (11.9): while the next hands are dealt at it or before."""
    late = director.tournament.late_level
    return late is not None and not director.finished and director.next_level()[0] <= late


def finishes_of(entries: Sequence[TournamentEntry]) -> list[Finish]:
    """The places the store holds, ties together in the order of ``entries`` (see
    ``in_dealing_order`` for 11.4's)."""
    by_place: dict[int, list[int]] = {}
    for entry in entries:
        if entry.place is not None:
            by_place.setdefault(entry.place, []).append(entry.user_id)
    return [Finish(place, tuple(users)) for place, users in sorted(by_place.items(), reverse=True)]


def dealt_position(hand: HandRecord, user_id: int) -> int:
    """The player's place in the hand's dealing order (RULES 1.4): 0 for the seat left of its
    dealer, as the director counts it when the hand ends."""
    seat = next(p.seat_index for p in hand.players if p.user_id == user_id)
    return decode(hand.state).dealing_order.index(seat)


async def restored_outs(
    store: Store, tournament_id: int, tables: dict[int, Table], live: dict[int, HandRecord]
) -> list[tuple[int, int, int, int]]:
    """After a restart, those out in hands the director had not dealt with (a seat with no
    chips and no hand in play): (hand, table, player, chips he began it with), ``hand``
    counting the hands they went out in by the order they ended, sorted so, then in the
    dealing order (1.4) at the lowest-numbered table: the director's ranking when each hand
    ended (11.4)."""
    found: list[tuple[tuple[datetime, int], int, int, int, int]] = []
    for number, table in tables.items():
        record = live.get(table.channel_id)
        playing = set() if record is None else {p.user_id for p in record.players}
        for seat in table.seats.values():
            if seat.stack > 0 or seat.user_id in playing:
                continue
            hand = await store.hands.last_for(
                seat.user_id, finished=True, tournament_id=tournament_id
            )
            if hand is None:  # no hand at all: he began none with chips
                found.append(((datetime.min.replace(tzinfo=UTC), 0), number, 0, seat.user_id, 0))
                continue
            assert hand.ended_at is not None  # a finished hand
            began = next(p.starting_stack for p in hand.players if p.user_id == seat.user_id)
            order = dealt_position(hand, seat.user_id)
            found.append(((hand.ended_at, hand.hand_id), number, order, seat.user_id, began))
    ended = sorted({out[0] for out in found})
    return [
        (ended.index(hand), number, user, began) for hand, number, _, user, began in sorted(found)
    ]


async def dealt_since_bubble(
    store: Store, tournament_id: int, tables: dict[int, Table], entries: Sequence[TournamentEntry]
) -> dict[int, int]:
    """The hands each table has dealt since the last players out were ranked (the bubble, when
    hand-for-hand is on, 11.6): the hands that ended (those players' last) before then are
    counted out."""
    places = [e.place for e in entries if e.place is not None]
    since = None
    for entry in entries:
        if places and entry.place == min(places):
            hand = await store.hands.last_for(
                entry.user_id, finished=True, tournament_id=tournament_id
            )
            if hand is not None and hand.ended_at is not None:
                since = hand.ended_at if since is None else max(since, hand.ended_at)
    return {
        number: await store.tournaments.hands_dealt(table.channel_id, since=since)
        for number, table in tables.items()
    }


async def in_dealing_order(
    store: Store, tournament_id: int, finishes: Sequence[Finish]
) -> list[Finish]:
    """``finishes`` with each tie's players in 11.4's order (the odd chip goes to the first):
    table by table, the lowest-numbered first, each in the dealing order of the hand he went
    out in, as the store holds it. A restart knows the ties from the store alone, whose entries
    are in the order of registration."""
    channels: list[int] | None = None
    ordered: list[Finish] = []
    for finish in finishes:
        if len(finish.players) > 1:
            if channels is None:
                channels = await store.tournaments.threads(tournament_id)  # by table number
            keys: dict[int, tuple[int, int]] = {}
            for user in finish.players:
                hand = await store.hands.last_for(user, finished=True, tournament_id=tournament_id)
                # A player with a place went out in a hand at one of its tables: always found.
                assert hand is not None, (tournament_id, user)
                keys[user] = (channels.index(hand.channel_id), dealt_position(hand, user))
            finish = Finish(finish.place, tuple(sorted(finish.players, key=keys.__getitem__)))
        ordered.append(finish)
    return ordered


def table_config(tournament: Tournament) -> TableConfig:
    """Its tables' settings, at level 1's stakes (the director sets each hand's)."""
    settings: dict[str, Any] = tournament.settings
    return TableConfig(
        stakes=structure(tournament.structure).level(1).stakes,
        seats=tournament.seats,
        min_buy_in=1,
        max_buy_in=1,
        turn_seconds=settings.get("turn_seconds", 60),
        countdown_seconds=settings.get("countdown_seconds", 10),
        lang=settings.get("lang", EN),
        game=tournament.game,
        time_bank=settings.get("time_bank", DEFAULT_TIME_BANK),
    )


def running_figures(director: TournamentDirector | None) -> dict[str, Any]:
    """The lobby's figures from a running tournament's director: the stacks at its tables
    as it last read them, the level and what is left of it (11.2)."""
    if director is None or director.finished:
        return {}
    level, to_next = director.next_level()
    late = late_open(director)
    stacks: list[tuple[int, int, int]] = []
    for number, table in sorted(director.tables.items()):
        # A hand in play shows each player's chips as it began: its bets are not yet won.
        began = (
            {}
            if table.live is None
            else dict(zip(table.live.users, table.live.hand.starting_stacks, strict=True))
        )
        stacks.extend(
            (number, seat.user_id, began.get(seat.user_id, seat.stack))
            for seat in sorted(table.seats.values(), key=lambda s: s.position)
        )
    return {
        "stacks": tuple(stacks),
        "level": level,
        "stakes": director.structure.level(level).stakes,
        "level_unit": director.tournament.level_unit,
        "to_next_level": to_next,
        "late_until": director.tournament.late_level if late else None,
        "reentry": late and director.tournament.reentry,
    }

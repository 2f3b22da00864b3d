"""Hands: dealing one, saving its state after each action, ending it (settled or voided), and
reading hands back (restart recovery, /history).

Owns the ``hands`` and ``hand_seats`` tables and the ledger rows of chips entering a hand
(``hand_start``) and leaving it (``hand_result``, ``hand_void``). The seats the chips come from
and go back to are seating's; ``HandRecords`` (``store.hands``) puts the two together in one
transaction. Every function runs inside a transaction its caller opened.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.core.storage import reports, seating, wallets
from bot.core.storage.backend import Backend, Connection, Row
from bot.core.storage.common import (
    Move,
    aware,
    is_int,
    log,
    one,
    parse_ts,
    required_ts,
    ts,
    utcnow,
)
from bot.core.storage.errors import ChipsNotConserved, HandInProgress, HandNotFound, HandNotLive
from bot.core.storage.guilds import Guilds
from bot.core.storage.models import HandEnd, HandFacts, HandPlayer, HandRecord

NO_HAND_ABOVE = 2**63 - 1  # above every hand id (both databases' ids are 64-bit)

# In this order: to_hands reads them by position.
_HAND_COLUMNS = """
    hands.id, hands.state, hands.version, hands.commitment, hands.salt, hands.started_at,
    hands.updated_at, hands.ended_at, hands.outcome, tables.channel_id, tables.guild_id
"""


@dataclass(frozen=True, slots=True)
class Ending:
    """A hand ended inside the current transaction: its players in engine seat order, the
    stacks they brought in and those they leave with."""

    hand_id: int
    table_id: int
    guild_id: int
    users: tuple[int, ...]
    starting: tuple[int, ...]
    finals: tuple[int, ...]

    def stacks(self) -> list[tuple[int, int]]:
        """``(user_id, final stack)`` per player."""
        return list(zip(self.users, self.finals, strict=True))

    def nets(self) -> list[tuple[int, int]]:
        """``(user_id, chips won or lost)`` per player."""
        return [
            (user_id, final - start)
            for user_id, start, final in zip(self.users, self.starting, self.finals, strict=True)
        ]

    def result(self, cashed_out: dict[int, int]) -> HandEnd:
        return HandEnd(self.hand_id, dict(self.stacks()), dict(self.nets()), cashed_out)


def check_state(state: object) -> None:
    if not isinstance(state, bytes) or not state:
        raise ValueError("a hand's state is the bytes engine.codec.encode wrote")


def check_players(players: Sequence[tuple[int, int]]) -> None:
    users = [user_id for user_id, _ in players]
    if len(set(users)) != len(users) or len(users) < 2:
        raise ValueError("a hand needs at least two different players")
    if any(not is_int(stack) or stack < 0 for _, stack in players):
        raise ValueError("stacks must be whole numbers of chips, not negative")


def check_final_stacks(final_stacks: Sequence[int]) -> None:
    if any(not is_int(stack) or stack < 0 for stack in final_stacks):
        raise ValueError("final stacks must be whole numbers of chips, not negative")


async def require_live(db: Connection, hand_id: int) -> Row:
    """The hand's row with its table's guild and channel; ``HandNotFound``, ``HandNotLive``."""
    found = await one(
        db,
        "SELECT hands.*, tables.guild_id, tables.channel_id FROM hands"
        " JOIN tables ON tables.id = hands.table_id WHERE hands.id = ?",
        (hand_id,),
    )
    if found is None:
        raise HandNotFound(hand_id)
    if found["ended_at"] is not None:
        raise HandNotLive(hand_id)
    return found


async def insert(
    db: Connection, table: Row, state: bytes, *, commitment: str, salt: str, now: datetime
) -> int:
    """A new hand at the table, with no players yet (``deal_in``); returns its id."""
    rows = await db.all(
        "INSERT INTO hands (table_id, state, commitment, salt, started_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
        (table["id"], state, commitment, salt, ts(now), ts(now)),
    )
    return int(rows[0]["id"])


async def deal_in(
    db: Connection, table: Row, hand_id: int, players: Sequence[tuple[int, int]], now: datetime
) -> None:
    """Record the players (engine seat order), the stacks their seats gave the hand and where
    those seats are (a restart moves the dealer on from there, RULES 1.4)."""
    await db.run_many(
        "INSERT INTO hand_seats (hand_id, seat_index, user_id, starting_stack, position)"
        " VALUES (?, ?, ?, ?,"
        " (SELECT position FROM seats WHERE table_id = ? AND seats.user_id = ?))",
        [
            (hand_id, index, user_id, stack, table["id"], user_id)
            for index, (user_id, stack) in enumerate(players)
        ],
    )
    await log(
        db,
        now,
        *(
            Move(
                table["guild_id"],
                user_id,
                "hand_start",
                reason=f"dealt into hand #{hand_id}",
                seat_delta=-stack,
                hand_delta=stack,
                table_id=table["id"],
                hand_id=hand_id,
            )
            for user_id, stack in players
        ),
    )


async def save_action(db: Connection, hand_id: int, state: bytes, now: datetime) -> int | None:
    """Replace a live hand's state; returns its new version, None if it isn't live."""
    rows = await db.all(
        "UPDATE hands SET state = ?, version = version + 1, updated_at = ?"
        " WHERE id = ? AND ended_at IS NULL RETURNING version",
        (state, ts(now), hand_id),
    )
    return int(rows[0]["version"]) if rows else None


async def end(
    db: Connection,
    hand_id: int,
    state: bytes | None,
    final_stacks: Sequence[int] | None,
    void_reason: str,
    now: datetime,
) -> Ending:
    """Close a live hand: settled with ``final_stacks`` (engine seat order), or voided (None:
    everyone gets his starting stack back). Writes its final stacks and the ledger rows of
    the chips leaving it; putting them back on the seats is the caller's next step.
    ``HandNotFound``, ``HandNotLive``, ``ChipsNotConserved``."""
    hand = await require_live(db, hand_id)
    players = await db.all(
        "SELECT seat_index, user_id, starting_stack FROM hand_seats"
        " WHERE hand_id = ? ORDER BY seat_index",
        (hand_id,),
    )
    starting = [int(p["starting_stack"]) for p in players]
    if final_stacks is None:
        finals = starting
    elif len(final_stacks) != len(players):
        raise ValueError(
            f"hand #{hand_id} has {len(players)} seats, not {len(final_stacks)} stacks"
        )
    else:
        finals = list(final_stacks)
    if sum(finals) != sum(starting):
        raise ChipsNotConserved(hand_id, sum(finals), sum(starting))
    ended = await db.run(
        "UPDATE hands SET state = coalesce(?, state), updated_at = ?, ended_at = ?,"
        " outcome = ? WHERE id = ? AND ended_at IS NULL",
        (state, ts(now), ts(now), "voided" if final_stacks is None else "settled", hand_id),
    )
    if ended != 1:
        raise HandNotLive(hand_id)
    ending = Ending(
        hand_id,
        int(hand["table_id"]),
        int(hand["guild_id"]),
        tuple(int(p["user_id"]) for p in players),
        tuple(starting),
        tuple(finals),
    )
    await db.run_many(
        "UPDATE hand_seats SET final_stack = ? WHERE hand_id = ? AND user_id = ?",
        [(final, hand_id, user_id) for user_id, final in ending.stacks()],
    )
    await log(
        db,
        now,
        *(
            Move(
                ending.guild_id,
                user_id,
                "hand_void" if final_stacks is None else "hand_result",
                reason=void_reason or f"result of hand #{hand_id}: {final - start:+,}",
                seat_delta=final,
                hand_delta=-final,
                table_id=ending.table_id,
                hand_id=hand_id,
            )
            for user_id, start, final in zip(ending.users, starting, finals, strict=True)
        ),
    )
    return ending


async def dealt_at(db: Connection, channel_id: int, since: datetime | None) -> int:
    """Hands dealt at the channel's open table so far (levels counted in hands, 11.2), or since
    ``since`` (a round of hand-for-hand play, 11.6)."""
    found = await one(
        db,
        "SELECT count(hands.id) AS n FROM tables LEFT JOIN hands ON hands.table_id = tables.id"
        " AND hands.started_at > ? WHERE tables.channel_id = ? AND tables.closed_at IS NULL",
        ("" if since is None else ts(since), channel_id),  # every stored time is after ""
    )
    return 0 if found is None else int(found["n"])


async def last_at(db: Connection, channel_id: int) -> int | None:
    """The latest hand dealt at the channel's open table."""
    found = await one(
        db,
        "SELECT max(hands.id) AS id FROM tables JOIN hands ON hands.table_id = tables.id"
        " WHERE tables.channel_id = ? AND tables.closed_at IS NULL",
        (channel_id,),
    )
    return None if found is None or found["id"] is None else int(found["id"])


async def live(db: Connection) -> list[HandRecord]:
    """Every hand in progress with its last committed state."""
    rows = await db.all(
        f"SELECT {_HAND_COLUMNS} FROM hands JOIN tables ON tables.id = hands.table_id"
        " WHERE hands.ended_at IS NULL ORDER BY hands.id"
    )
    return await to_hands(db, rows)


async def get(db: Connection, hand_id: int) -> HandRecord:
    """``HandNotFound``."""
    rows = await db.all(
        f"SELECT {_HAND_COLUMNS} FROM hands JOIN tables ON tables.id = hands.table_id"
        " WHERE hands.id = ?",
        (hand_id,),
    )
    if not rows:
        raise HandNotFound(hand_id)
    return (await to_hands(db, rows))[0]


async def last_for(
    db: Connection, user_id: int, guild_id: int | None, finished: bool, tournament_id: int | None
) -> HandRecord | None:
    """The latest hand the player was dealt into (in that guild, at that tournament's tables,
    if given; one that has ended, if ``finished``)."""
    rows = await db.all(
        f"SELECT {_HAND_COLUMNS} FROM hand_seats"
        " JOIN hands ON hands.id = hand_seats.hand_id"
        " JOIN tables ON tables.id = hands.table_id"
        " WHERE hand_seats.user_id = :user"
        " AND (CAST(:guild AS BIGINT) IS NULL OR tables.guild_id = :guild)"
        " AND (CAST(:tournament AS BIGINT) IS NULL OR tables.tournament_id = :tournament)"
        " AND (NOT :finished OR hands.ended_at IS NOT NULL)"
        # The same order as hands.id, but the one hand_seats_by_user is kept in: the walk stops
        # at the first match instead of sorting all of a player's hands (SQLite doesn't see that
        # the two are equal).
        " ORDER BY hand_seats.hand_id DESC LIMIT 1",
        {"user": user_id, "guild": guild_id, "finished": finished, "tournament": tournament_id},
    )
    hands = await to_hands(db, rows)
    return hands[0] if hands else None


async def settled_in_guild(
    db: Connection, user_id: int, guild_id: int, below: int, limit: int
) -> list[HandRecord]:
    """The player's latest ``limit`` settled hands in the guild numbered below ``below``,
    newest first."""
    rows = await db.all(
        f"SELECT {_HAND_COLUMNS} FROM hand_seats"
        " JOIN hands ON hands.id = hand_seats.hand_id"
        " JOIN tables ON tables.id = hands.table_id"
        " WHERE hand_seats.user_id = ? AND hand_seats.hand_id < ?"
        " AND tables.guild_id = ? AND hands.outcome = 'settled'"
        " ORDER BY hand_seats.hand_id DESC LIMIT ?",  # as in last_for
        (user_id, below, guild_id, limit),
    )
    return await to_hands(db, rows)


async def settled_at_table(
    db: Connection, user_id: int, table: Row, below: int, limit: int
) -> list[HandRecord]:
    """The same at one table."""
    rows = await db.all(
        f"SELECT {_HAND_COLUMNS} FROM hand_seats"
        " JOIN hands ON hands.id = hand_seats.hand_id"
        " JOIN tables ON tables.id = hands.table_id"
        " WHERE hand_seats.user_id = ? AND hands.table_id = ? AND hands.id < ?"
        " AND hands.outcome = 'settled'"
        " ORDER BY hands.id DESC LIMIT ?",
        (user_id, table["id"], below, limit),
    )
    return await to_hands(db, rows)


async def to_hands(db: Connection, rows: Iterable[Row]) -> list[HandRecord]:
    # /history session reads hundreds of hands and thousands of seats through here, so the rows
    # are read by position, and both drivers' integers are ints already.
    rows = list(rows)
    if not rows:
        return []
    ids = [row[0] for row in rows]
    marks = ", ".join("?" * len(ids))
    players: dict[int, list[HandPlayer]] = {hand_id: [] for hand_id in ids}
    for hand_id, seat_index, user_id, starting, final, position in await db.all(
        "SELECT hand_id, seat_index, user_id, starting_stack, final_stack, position"
        f" FROM hand_seats WHERE hand_id IN ({marks}) ORDER BY hand_id, seat_index",
        ids,
    ):
        players[hand_id].append(HandPlayer(seat_index, user_id, starting, final, position))
    return [
        HandRecord(
            hand_id=hand_id,
            channel_id=channel_id,
            guild_id=guild_id,
            state=bytes(state),
            version=version,
            commitment=commitment,
            salt=salt,
            players=tuple(players[hand_id]),
            started_at=required_ts(started_at),
            updated_at=required_ts(updated_at),
            ended_at=parse_ts(ended_at),
            outcome=outcome,
        )
        for (
            hand_id,
            state,
            version,
            commitment,
            salt,
            started_at,
            updated_at,
            ended_at,
            outcome,
            channel_id,
            guild_id,
        ) in rows
    ]


class HandRecords:
    """``store.hands``: a hand from its deal to its settlement, and the hands played."""

    def __init__(self, backend: Backend, guilds: Guilds) -> None:
        self._backend = backend
        self._guilds = guilds  # the server of each hand: its writes lock that server only

    async def start(
        self,
        channel_id: int,
        players: Sequence[tuple[int, int]],
        state: bytes,
        *,
        commitment: str,
        salt: str,
        settings: Mapping[str, Any] | None = None,
        now: datetime | None = None,
    ) -> int:
        """Record a new hand and move the players' stacks into it, in one transaction.

        ``players[i] = (user_id, stack)`` for engine seat ``i``: the stacks the StudHand was
        built with, which must equal those seats' current stacks (else ``SeatsChanged``).
        ``state`` is the hand saved before any action (``engine.codec.encode``; the store never
        reads inside it). ``settings``, if given, replace the table's (what changes with each
        hand dealt, as a mixed game's rotation, is saved with that hand). Returns the hand id.
        ``NoTable``, ``HandInProgress``, ``SeatsChanged``.
        """
        check_players(players)
        now = aware(now)
        check_state(state)
        async with self._backend.write(await self._guilds.of_channel(channel_id)) as db:
            table = await seating.require_table(db, channel_id)
            if await seating.live_hand(db, table["id"]) is not None:
                raise HandInProgress(channel_id)
            hand_id = await insert(db, table, state, commitment=commitment, salt=salt, now=now)
            await seating.take_stacks(db, table, players)
            if settings is not None:
                await seating.set_settings(db, table, settings)
            await deal_in(db, table, hand_id, players, now)
        return hand_id

    async def save_action(self, hand_id: int, state: bytes) -> int:
        """Replace the hand's saved state after one action (one transaction); returns the new
        version. ``HandNotFound``, ``HandNotLive``."""
        check_state(state)
        # One statement is a transaction of its own: the busiest write of a table costs one
        # trip to the database instead of three.
        async with self._backend.single() as db:
            version = await save_action(db, hand_id, state, utcnow())
        if version is None:
            # Nothing matched: say why. A hand that exists never comes back to life once ended.
            async with self._backend.read() as db:
                await require_live(db, hand_id)
            raise AssertionError(f"hand #{hand_id} is live but its state was not saved")
        return version

    async def settle(
        self,
        hand_id: int,
        state: bytes,
        final_stacks: Sequence[int],
        *,
        facts: HandFacts | None = None,
        now: datetime | None = None,
    ) -> HandEnd:
        """End the hand: ``final_stacks[i]`` (engine seat order) go back on the seats, seats
        marked leaving are cashed out, and the hand is closed, all in one transaction.

        With ``facts`` (the tables always give them), the same transaction counts the hand in
        its players' stats, in the guild's current season, for the day, week and month of
        ``now`` and the whole season; a hand settled without them (a state the engine can't
        replay, as storage tests write) counts in no stats.

        Exactly once: a hand that already ended raises ``HandNotLive`` and pays nothing.
        ``ChipsNotConserved`` if the final stacks don't add up to the chips that entered."""
        check_final_stacks(final_stacks)
        check_state(state)
        if facts is not None:
            reports.check_facts(facts, len(final_stacks))
        return await self._end(hand_id, state, list(final_stacks), "", facts, aware(now))

    async def void(self, hand_id: int, *, reason: str) -> HandEnd:
        """End the hand giving every player back his starting stack (e.g. a state that can't
        be restored); it counts in no stats. ``HandNotFound``, ``HandNotLive``."""
        return await self._end(hand_id, None, None, reason.strip() or "hand voided", None, utcnow())

    async def last_at(self, channel_id: int) -> int | None:
        """The latest hand dealt at the channel's open table: after a restart, its dealer moves
        on from there (RULES 1.4), and a tournament table's level is read from it (11.2)."""
        async with self._backend.read() as db:
            return await last_at(db, channel_id)

    async def live(self) -> list[HandRecord]:
        """Every hand in progress with its last committed state (restart recovery)."""
        async with self._backend.read() as db:
            return await live(db)

    async def get(self, hand_id: int) -> HandRecord:
        """``HandNotFound``."""
        async with self._backend.read() as db:
            return await get(db, hand_id)

    async def last_for(
        self,
        user_id: int,
        *,
        guild_id: int | None = None,
        finished: bool = False,
        tournament_id: int | None = None,
    ) -> HandRecord | None:
        """The latest hand the player was dealt into (in that guild, at that tournament's
        tables, if given; one that has ended, if ``finished``)."""
        async with self._backend.read() as db:
            return await last_for(db, user_id, guild_id, finished, tournament_id)

    async def settled_for(
        self,
        user_id: int,
        *,
        guild_id: int,
        limit: int,
        channel_id: int | None = None,
        before: int | None = None,
    ) -> list[HandRecord]:
        """The player's latest ``limit`` settled hands in the guild, newest first; with
        ``channel_id``, only those at that channel's latest table (as ``table_ledger`` finds
        it); with ``before``, only hands numbered below it (the next page, after a page whose
        last hand was ``before``). Voided hands never ended at the table, so they have no
        history to give."""
        if not is_int(limit) or limit < 1:
            raise ValueError(f"limit must be a positive whole number, not {limit!r}")
        below = NO_HAND_ABOVE if before is None else before
        async with self._backend.report() as db:
            if channel_id is None:
                return await settled_in_guild(db, user_id, guild_id, below, limit)
            table = await seating.latest_table_row(db, channel_id)
            if table is None or table["guild_id"] != guild_id:
                return []
            return await settled_at_table(db, user_id, table, below, limit)

    async def _end(
        self,
        hand_id: int,
        state: bytes | None,
        final_stacks: list[int] | None,
        void_reason: str,
        facts: HandFacts | None,
        now: datetime,
    ) -> HandEnd:
        """Settle (``final_stacks`` given) or void (None) a live hand in one transaction: the
        hand ends, its stacks go back on the seats, the wallets count the results, the stats
        count the hand, and the players leaving are cashed out."""
        async with self._backend.write(await self._guilds.of_hand(hand_id)) as db:
            ending = await end(db, hand_id, state, final_stacks, void_reason, now)
            table = await seating.table_by_id(db, ending.table_id)
            await seating.return_stacks(db, table, hand_id, ending.stacks())
            nets = ending.nets()
            # A tournament's chips are not the wallets' and its hands count in no cash stats
            # (RULES 11.1).
            if table["tournament_id"] is None:
                await wallets.add_results(db, ending.guild_id, nets)
                if facts is not None:
                    await reports.count_hand(db, ending.guild_id, hand_id, facts, nets, now)
            cashed_out = await seating.cash_out_leaving(db, table, now)
        return ending.result(cashed_out)

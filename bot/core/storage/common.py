"""What the domain modules share: the ledger row every move of chips appends, the checks of an
amount, and how times are stored."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.core.storage.backend import Connection, Params, Row
from bot.core.storage.errors import InvalidAmount

MAX_AMOUNT = 1_000_000_000  # per grant or buy-in; keeps every sum far from 64-bit overflow


@dataclass(frozen=True, slots=True)
class Move:
    """One ledger row: chips leaving one place and entering another (or minted, for grants)."""

    guild_id: int
    user_id: int
    kind: str
    reason: str
    minted: int = 0
    wallet_delta: int = 0
    seat_delta: int = 0
    hand_delta: int = 0
    table_id: int | None = None
    hand_id: int | None = None
    actor_id: int | None = None
    pool_delta: int = 0  # chips entering (or leaving) a tournament's prize pool
    tournament_id: int | None = None


async def log(db: Connection, now: datetime, *moves: Move) -> None:
    """Append ledger rows (one round trip for any number of them)."""
    await db.insert_many(
        "INSERT INTO ledger (created_at, guild_id, user_id, kind, minted, wallet_delta,"
        " seat_delta, hand_delta, table_id, hand_id, reason, actor_id, pool_delta,"
        " tournament_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                ts(now),
                move.guild_id,
                move.user_id,
                move.kind,
                move.minted,
                move.wallet_delta,
                move.seat_delta,
                move.hand_delta,
                move.table_id,
                move.hand_id,
                move.reason,
                move.actor_id,
                move.pool_delta,
                move.tournament_id,
            )
            for move in moves
        ],
    )


async def one(db: Connection, sql: str, params: Params = ()) -> Row | None:
    """The first row the query returns, if any."""
    rows = await db.all(sql, params)
    return rows[0] if rows else None


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_amount(value: object, *, allow_zero: bool = False) -> bool:
    lowest = 0 if allow_zero else 1
    return isinstance(value, int) and not isinstance(value, bool) and lowest <= value <= MAX_AMOUNT


def check_amount(amount: object) -> None:
    if not is_amount(amount):
        raise InvalidAmount(amount, MAX_AMOUNT)


def utcnow() -> datetime:
    return datetime.now(UTC)


def aware(now: datetime | None) -> datetime:
    if now is None:
        return utcnow()
    if now.tzinfo is None:
        raise ValueError("times must be timezone-aware")
    return now.astimezone(UTC)


def ts(moment: datetime) -> str:
    # Fixed width, always UTC: text order is time order, so SQL can compare stored times.
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_ts(text: str | None) -> datetime | None:
    return None if text is None else required_ts(text)


def required_ts(text: str) -> datetime:
    # What ts wrote, read fifty times faster than strptime does: /history session reads three
    # per hand, of hundreds of hands.
    moment = datetime.fromisoformat(text)
    if moment.utcoffset() != timedelta(0):
        raise ValueError(f"not a stored time: {text!r}")
    return moment

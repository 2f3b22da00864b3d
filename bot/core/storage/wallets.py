"""Wallets and seasons: the chips a player holds in a guild away from the tables, and the
guild's current season.

Owns the ``wallets`` and ``seasons`` tables and the ledger rows that mint or burn chips
(``starting_grant``, ``daily_grant``, ``admin_grant``, ``admin_take``, ``season_reset``). A
wallet also counts its player's chips at the tables (``seated``): seating and hands move them
with ``to_seat``, ``from_seat`` and ``add_results``, inside their own transactions. Every
function runs inside a write or read transaction its caller opened; those that change a wallet
expect it to exist (``ensure`` first). ``Wallets`` (``store.wallets``, at the end) opens them.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Protocol

from bot.core.storage.backend import Backend, Connection, Row
from bot.core.storage.common import (
    Move,
    aware,
    check_amount,
    log,
    one,
    parse_ts,
    required_ts,
    ts,
    utcnow,
)
from bot.core.storage.errors import AuditFailed, DailyNotReady, NotEnoughChips, NothingToTake
from bot.core.storage.models import ChipsTaken, DailyClaim, Season, SeasonReset, Wallet

# A daily claim continues the streak if made within a day of the moment it became possible.
STREAK_GRACE = timedelta(hours=24)


async def ensure(
    db: Connection, guild_id: int, user_id: int, now: datetime, starting_balance: int
) -> None:
    """Create the player's wallet, if he has none, with the starting balance (a ledger grant).
    The house (user 0) and its computer players (below 0) start empty: their chips come only
    from admins and the house (``house.py``), and the audit says so."""
    if user_id <= 0:
        starting_balance = 0
    created = await db.run(
        "INSERT OR IGNORE INTO wallets (guild_id, user_id, balance, seated, total, created_at)"
        " VALUES (?, ?, ?, 0, ?, ?)",
        (guild_id, user_id, starting_balance, starting_balance, ts(now)),
    )
    if created and starting_balance:
        await log(
            db,
            now,
            Move(
                guild_id,
                user_id,
                "starting_grant",
                reason="starting balance",
                minted=starting_balance,
                wallet_delta=starting_balance,
            ),
        )


async def row(db: Connection, guild_id: int, user_id: int) -> Row:
    found = await one(
        db, "SELECT * FROM wallets WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    assert found is not None, "the wallet is created earlier in the same transaction"
    return found


def to_wallet(row: Row, now: datetime, daily_cooldown: timedelta) -> Wallet:
    last = parse_ts(row["last_daily_at"])
    ready_at = None if last is None else last + daily_cooldown
    return Wallet(
        int(row["guild_id"]),
        int(row["user_id"]),
        int(row["balance"]),
        int(row["seated"]),
        ready_at if ready_at is not None and ready_at > now else None,
    )


async def claim_daily(
    db: Connection,
    guild_id: int,
    user_id: int,
    now: datetime,
    *,
    amount: int,
    cooldown: timedelta,
) -> DailyClaim:
    """Add the daily grant unless inside the cooldown (``DailyNotReady``)."""
    rows = await db.all(
        # SET reads the row as it was: the streak looks at the previous claim.
        "UPDATE wallets SET balance = balance + :amount, total = total + :amount,"
        " daily_streak = CASE WHEN last_daily_at >= :streak_if_after"
        " THEN daily_streak + 1 ELSE 1 END,"
        " last_daily_at = :now"
        " WHERE guild_id = :guild AND user_id = :user"
        " AND (last_daily_at IS NULL OR last_daily_at <= :ready_if_before)"
        " RETURNING balance, daily_streak",
        {
            "amount": amount,
            "now": ts(now),
            "guild": guild_id,
            "user": user_id,
            "ready_if_before": ts(now - cooldown),
            "streak_if_after": ts(now - cooldown - STREAK_GRACE),
        },
    )
    if not rows:
        wallet = await row(db, guild_id, user_id)
        last = parse_ts(wallet["last_daily_at"])
        assert last is not None
        raise DailyNotReady(
            retry_at=last + cooldown,
            now=now,
            streak=int(wallet["daily_streak"]),
            streak_until=last + cooldown + STREAK_GRACE,
        )
    await log(
        db,
        now,
        Move(
            guild_id,
            user_id,
            "daily_grant",
            reason="daily chips",
            minted=amount,
            wallet_delta=amount,
        ),
    )
    return DailyClaim(
        balance=int(rows[0]["balance"]),
        streak=int(rows[0]["daily_streak"]),
        next_at=now + cooldown,
        streak_until=now + cooldown + STREAK_GRACE,
    )


async def grant(
    db: Connection, guild_id: int, user_id: int, amount: int, *, reason: str, by: int, now: datetime
) -> int:
    """An admin's grant; returns the new balance."""
    rows = await db.all(
        "UPDATE wallets SET balance = balance + :amount, total = total + :amount"
        " WHERE guild_id = :guild AND user_id = :user RETURNING balance",
        {"amount": amount, "guild": guild_id, "user": user_id},
    )
    await log(
        db,
        now,
        Move(
            guild_id,
            user_id,
            "admin_grant",
            reason=reason.strip() or "granted by an admin",
            minted=amount,
            wallet_delta=amount,
            actor_id=by,
        ),
    )
    return int(rows[0]["balance"])


async def take(
    db: Connection, guild_id: int, user_id: int, amount: int, *, reason: str, by: int, now: datetime
) -> ChipsTaken:
    """Burn up to ``amount`` chips of the wallet (``NothingToTake`` for an empty one)."""
    wallet = await row(db, guild_id, user_id)
    taken = min(amount, int(wallet["balance"]))
    if taken == 0:
        raise NothingToTake(user_id)
    rows = await db.all(
        "UPDATE wallets SET balance = balance - :taken, total = total - :taken"
        " WHERE guild_id = :guild AND user_id = :user AND balance >= :taken"
        " RETURNING balance",
        {"taken": taken, "guild": guild_id, "user": user_id},
    )
    assert rows, "the wallet was read in this transaction"
    await log(
        db,
        now,
        Move(
            guild_id,
            user_id,
            "admin_take",
            reason=reason.strip() or "taken by an admin",
            minted=-taken,
            wallet_delta=-taken,
            actor_id=by,
        ),
    )
    return ChipsTaken(taken, int(rows[0]["balance"]))


async def season(db: Connection, guild_id: int) -> Season:
    found = await one(db, "SELECT season, started_at FROM seasons WHERE guild_id = ?", (guild_id,))
    if found is None:
        return Season(1, None)
    return Season(int(found["season"]), required_ts(found["started_at"]))


async def reset_season(
    db: Connection, guild_id: int, *, by: int, now: datetime, starting_balance: int
) -> SeasonReset:
    """Start the guild's next season: every wallet back to ``starting_balance``, the difference
    logged (minted or burned)."""
    number = (await season(db, guild_id)).number + 1
    await db.run(
        "INSERT INTO seasons (guild_id, season, started_at) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE"
        " SET season = excluded.season, started_at = excluded.started_at",
        (guild_id, number, ts(now)),
    )
    # People's wallets only: the house's chips (user 0) and its computer players' (below) are
    # what admins put in, not a season's.
    wallets = await db.all(
        "SELECT user_id, balance FROM wallets WHERE guild_id = ? AND balance != ? AND user_id > 0"
        " ORDER BY user_id",
        (guild_id, starting_balance),
    )
    await db.run(
        "UPDATE wallets SET balance = :start, total = :start + seated"
        " WHERE guild_id = :guild AND balance != :start AND user_id > 0",
        {"start": starting_balance, "guild": guild_id},
    )
    changes = [
        (int(wallet["user_id"]), starting_balance - int(wallet["balance"])) for wallet in wallets
    ]
    if changes:
        await log(
            db,
            now,
            *(
                Move(
                    guild_id,
                    user_id,
                    "season_reset",
                    reason=f"season {number} starts",
                    minted=change,
                    wallet_delta=change,
                    actor_id=by,
                )
                for user_id, change in changes
            ),
        )
    return SeasonReset(
        season=number,
        wallets=len(changes),
        granted=sum(change for _, change in changes if change > 0),
        burned=-sum(change for _, change in changes if change < 0),
    )


async def to_seat(db: Connection, guild_id: int, user_id: int, amount: int) -> None:
    """Count ``amount`` chips of the wallet as seated (a buy-in); ``NotEnoughChips``."""
    moved = await db.run(
        "UPDATE wallets SET balance = balance - :amount, seated = seated + :amount"
        " WHERE guild_id = :guild AND user_id = :user AND balance >= :amount",
        {"amount": amount, "guild": guild_id, "user": user_id},
    )
    if moved != 1:
        wallet = await row(db, guild_id, user_id)
        raise NotEnoughChips(needed=amount, available=int(wallet["balance"]))


async def from_seat(db: Connection, guild_id: int, user_id: int, stack: int) -> None:
    """Put a seat's ``stack`` back in the wallet (a cash-out)."""
    await db.run(
        "UPDATE wallets SET balance = balance + :stack, seated = seated - :stack"
        " WHERE guild_id = :guild AND user_id = :user",
        {"stack": stack, "guild": guild_id, "user": user_id},
    )


async def add_results(db: Connection, guild_id: int, nets: Iterable[tuple[int, int]]) -> None:
    """Add each ``(user_id, net)`` of a settled hand to his seated chips and his total."""
    await db.run_many(
        "UPDATE wallets SET seated = seated + :net, total = total + :net"
        " WHERE guild_id = :guild AND user_id = :user",
        [{"net": net, "guild": guild_id, "user": user_id} for user_id, net in nets],
    )


async def spend(db: Connection, guild_id: int, user_id: int, amount: int) -> None:
    """Take ``amount`` chips out of the wallet for a tournament's buy-in; ``NotEnoughChips``."""
    moved = await db.run(
        "UPDATE wallets SET balance = balance - :amount, total = total - :amount"
        " WHERE guild_id = :guild AND user_id = :user AND balance >= :amount",
        {"amount": amount, "guild": guild_id, "user": user_id},
    )
    if moved != 1:
        wallet = await row(db, guild_id, user_id)
        raise NotEnoughChips(needed=amount, available=int(wallet["balance"]))


async def receive(db: Connection, guild_id: int, user_id: int, amount: int) -> None:
    """Put ``amount`` chips into the wallet: a tournament's prize, or its buy-in back."""
    changed = await db.run(
        "UPDATE wallets SET balance = balance + :amount, total = total + :amount"
        " WHERE guild_id = :guild AND user_id = :user",
        {"amount": amount, "guild": guild_id, "user": user_id},
    )
    if changed != 1:
        raise AuditFailed(f"no wallet of player {user_id} on server {guild_id} to pay into")


class Economy(Protocol):
    """The store's economy, read when each call runs (``Store`` has them)."""

    starting_balance: int
    daily_amount: int
    daily_cooldown: timedelta


class Wallets:
    """``store.wallets``: a player's chips in a guild, the daily grant, admins' grants and
    takes, and the guild's seasons."""

    def __init__(self, backend: Backend, settings: Economy) -> None:
        self._backend = backend
        self._settings = settings

    async def get(self, guild_id: int, user_id: int) -> Wallet:
        """The player's wallet, created on first use with the starting balance (a ledger grant)."""
        now = utcnow()
        async with self._backend.write(guild_id) as db:
            await ensure(db, guild_id, user_id, now, self._settings.starting_balance)
            found = await row(db, guild_id, user_id)
        return to_wallet(found, now, self._settings.daily_cooldown)

    async def balance(self, guild_id: int, user_id: int) -> int:
        """Chips in the wallet (not counting seats); creates the wallet like ``get()``."""
        return (await self.get(guild_id, user_id)).balance

    async def claim_daily(
        self, guild_id: int, user_id: int, now: datetime | None = None
    ) -> DailyClaim:
        """Add the daily grant; ``DailyNotReady`` inside the cooldown.

        A claim made within :data:`STREAK_GRACE` of the moment it became possible
        continues the streak of days in a row; a later one starts it again at 1."""
        now = aware(now)
        async with self._backend.write(guild_id) as db:
            await ensure(db, guild_id, user_id, now, self._settings.starting_balance)
            return await claim_daily(
                db,
                guild_id,
                user_id,
                now,
                amount=self._settings.daily_amount,
                cooldown=self._settings.daily_cooldown,
            )

    async def grant(self, guild_id: int, user_id: int, amount: int, *, reason: str, by: int) -> int:
        """An admin's grant of ``amount`` (1..MAX_AMOUNT) chips; returns the new balance."""
        check_amount(amount)
        now = utcnow()
        async with self._backend.write(guild_id) as db:
            await ensure(db, guild_id, user_id, now, self._settings.starting_balance)
            return await grant(db, guild_id, user_id, amount, reason=reason, by=by, now=now)

    async def take(
        self, guild_id: int, user_id: int, amount: int, *, reason: str, by: int
    ) -> ChipsTaken:
        """An admin takes up to ``amount`` (1..MAX_AMOUNT) chips out of the wallet, all it has
        if that is less, burning them (a logged ``admin_take``); what the player has at tables
        is never touched. ``NothingToTake`` for an empty wallet."""
        check_amount(amount)
        now = utcnow()
        async with self._backend.write(guild_id) as db:
            await ensure(db, guild_id, user_id, now, self._settings.starting_balance)
            return await take(db, guild_id, user_id, amount, reason=reason, by=by, now=now)

    async def season(self, guild_id: int) -> Season:
        """The guild's current season (the first until ``reset_season``)."""
        async with self._backend.read() as db:
            return await season(db, guild_id)

    async def reset_season(
        self, guild_id: int, *, by: int, now: datetime | None = None
    ) -> SeasonReset:
        """Start the guild's next season: every wallet of the guild back to the starting chips
        (the difference logged as a ``season_reset``, minted or burned), chips at tables
        untouched. Stats and leaderboards count from zero in the new season; the old one's stay
        under its number."""
        now = aware(now)
        async with self._backend.write(guild_id) as db:
            return await reset_season(
                db, guild_id, by=by, now=now, starting_balance=self._settings.starting_balance
            )

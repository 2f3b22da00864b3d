"""Tournaments (RULES 11): creating one, registering and unregistering, cancelling, starting it at
its tables, moving players between them, and paying the prizes.

Owns the ``tournaments``, ``tournament_entries`` and ``tournament_registrations`` tables (the last
a row per entry made or given back, a freeroll's only trace), the tournament columns of ``tables``
(``tournament_id``, ``table_number``) and the ledger rows of a prize pool (``tournament_buy_in``,
``tournament_refund``, ``tournament_prize``). A buy-in is wallet chips moved into the pool; the
pool leaves it once, paid out or given back. Tournament chips are not wallet chips (11.1): a
tournament's seats get their stacks without a ledger row, and its chips add up in an audit of
its own (``audit.py``). A computer player's buy-in is staked by the house (``house.py``) and
goes into the pool in the same transaction; what the pool pays it goes straight back to the
house. Every function runs inside a transaction its caller opened; a tournament is passed as
its row (``require``). ``TournamentRecords`` (``store.tournaments``, at the end) opens them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

from bot.core.storage import hands, house, seating, wallets
from bot.core.storage.backend import Backend, Connection, Row
from bot.core.storage.common import (
    MAX_AMOUNT,
    Move,
    aware,
    check_amount,
    is_amount,
    is_int,
    log,
    one,
    parse_ts,
    required_ts,
    ts,
    utcnow,
)
from bot.core.storage.errors import (
    AlreadyRegistered,
    AuditFailed,
    HouseCannotCover,
    InvalidTableConfig,
    NoTournament,
    NotRegistered,
    RegistrationClosed,
    TournamentStarted,
)
from bot.core.storage.guilds import Guilds
from bot.core.storage.models import Tournament, TournamentEntry, TournamentTable
from bot.core.storage.wallets import Economy

ACTIVE = ("registering", "running")
# A table's seats by number from 1, as ``engine.tournament`` deals them: a player or None.
Seats = Sequence[int | None]
# (player, channel he leaves, channel he goes to, seat number from 1 there)
Relocation = tuple[int, int, int, int]


async def create(db: Connection, tournament: Mapping[str, object], now: datetime) -> int:
    """A new tournament, registering; ``tournament`` holds its columns. Returns its id."""
    columns = list(tournament)
    rows = await db.all(
        f"INSERT INTO tournaments ({', '.join(columns)}, state, created_at)"
        f" VALUES ({', '.join('?' * len(columns))}, 'registering', ?) RETURNING id",
        [*tournament.values(), ts(now)],
    )
    return int(rows[0]["id"])


async def require(db: Connection, tournament_id: int, guild_id: int | None = None) -> Row:
    """The tournament's row (of that guild, if given); ``NoTournament``."""
    found = await one(db, "SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
    if found is None or (guild_id is not None and found["guild_id"] != guild_id):
        raise NoTournament(tournament_id)
    return found


async def active(db: Connection) -> list[Tournament]:
    """Every tournament registering or running (restart recovery)."""
    rows = await db.all(
        "SELECT * FROM tournaments WHERE state IN ('registering', 'running') ORDER BY id"
    )
    return [to_tournament(row) for row in rows]


async def entry(db: Connection, tournament: Row, user_id: int) -> Row | None:
    return await one(
        db,
        "SELECT * FROM tournament_entries WHERE tournament_id = ? AND user_id = ?",
        (tournament["id"], user_id),
    )


async def _entrants(db: Connection, tournament: Row) -> int:
    found = await one(
        db,
        "SELECT count(*) AS n FROM tournament_entries WHERE tournament_id = ?",
        (tournament["id"],),
    )
    assert found is not None
    return int(found["n"])


async def entries(db: Connection, tournament_id: int) -> list[TournamentEntry]:
    """Its players in the order they first registered."""
    rows = await db.all(
        "SELECT * FROM tournament_entries WHERE tournament_id = ? ORDER BY registered_at, user_id",
        (tournament_id,),
    )
    return [to_entry(row) for row in rows]


async def tables(db: Connection, tournament_id: int) -> list[TournamentTable]:
    """Its open tables by number."""
    rows = await db.all(
        "SELECT table_number, channel_id FROM tables"
        " WHERE tournament_id = ? AND closed_at IS NULL ORDER BY table_number",
        (tournament_id,),
    )
    return [TournamentTable(int(row["table_number"]), int(row["channel_id"])) for row in rows]


async def _pay_in(
    db: Connection, tournament: Row, user_id: int, now: datetime, starting_balance: int
) -> None:
    """Move the buy-in from the player's wallet into the prize pool (nothing in a freeroll);
    a computer player's, from the house through its own wallet."""
    guild_id, buy_in = int(tournament["guild_id"]), int(tournament["buy_in"])
    bot = house.is_bot(user_id)
    # A computer player's wallet is only a way through: it starts empty.
    await wallets.ensure(db, guild_id, user_id, now, 0 if bot else starting_balance)
    if buy_in == 0:
        return
    if bot:
        reason = f"staked a computer player in tournament #{tournament['id']}"
        await house.stake(db, guild_id, user_id, buy_in, now, reason)
    await wallets.spend(db, guild_id, user_id, buy_in)
    await _pool(db, tournament, buy_in)
    await log(
        db,
        now,
        Move(
            guild_id,
            user_id,
            "tournament_buy_in",
            reason=f"bought into tournament #{tournament['id']}",
            wallet_delta=-buy_in,
            pool_delta=buy_in,
            tournament_id=int(tournament["id"]),
        ),
    )


async def _pay_out(
    db: Connection, tournament: Row, user_id: int, amount: int, kind: str, now: datetime
) -> None:
    """Move ``amount`` of the prize pool into the player's wallet."""
    if amount == 0:
        return
    guild_id = int(tournament["guild_id"])
    await wallets.receive(db, guild_id, user_id, amount)
    await _pool(db, tournament, -amount)
    what = "prize" if kind == "tournament_prize" else "buy-in back"
    await log(
        db,
        now,
        Move(
            guild_id,
            user_id,
            kind,
            reason=f"{what} of tournament #{tournament['id']}",
            wallet_delta=amount,
            pool_delta=-amount,
            tournament_id=int(tournament["id"]),
        ),
    )
    if house.is_bot(user_id):
        await house.give_back(
            db, guild_id, user_id, now, f"{what} of tournament #{tournament['id']}"
        )


async def _pool(db: Connection, tournament: Row, delta: int) -> None:
    changed = await db.run(
        "UPDATE tournaments SET prize_pool = prize_pool + ? WHERE id = ? AND prize_pool + ? >= 0",
        (delta, tournament["id"], delta),
    )
    if changed != 1:
        raise AuditFailed(f"tournament #{tournament['id']}: its prize pool would go below 0")


async def _trace(
    db: Connection, tournament: Row, user_id: int, entries: int, now: datetime
) -> None:
    """Write down entries made (or given back, negative) for the audit to count."""
    await db.run(
        "INSERT INTO tournament_registrations (tournament_id, user_id, entries, created_at)"
        " VALUES (?, ?, ?, ?)",
        (tournament["id"], user_id, entries, ts(now)),
    )


async def register(
    db: Connection, tournament: Row, user_id: int, now: datetime, starting_balance: int
) -> None:
    """Enter a registering tournament, paying the buy-in. ``RegistrationClosed`` (also when a
    sit-and-go's field is full, its start still to come), ``AlreadyRegistered``,
    ``NotEnoughChips``."""
    if tournament["state"] != "registering":
        raise RegistrationClosed(int(tournament["id"]))
    if await entry(db, tournament, user_id) is not None:
        raise AlreadyRegistered(int(tournament["id"]), user_id)
    field = tournament["start_entrants"]
    if field is not None and await _entrants(db, tournament) >= int(field):
        raise RegistrationClosed(int(tournament["id"]))
    await _pay_in(db, tournament, user_id, now, starting_balance)
    await db.run(
        "INSERT INTO tournament_entries (tournament_id, user_id, entries, registered_at)"
        " VALUES (?, ?, 1, ?)",
        (tournament["id"], user_id, ts(now)),
    )
    await _trace(db, tournament, user_id, 1, now)


async def enter_bots(
    db: Connection, tournament: Row, bot_ids: Sequence[int], now: datetime
) -> None:
    """Register the organiser's computer players, each buy-in from the house
    (``HouseCannotCover`` if it can't pay them all; a freeroll needs nothing of it)."""
    guild_id, buy_in = int(tournament["guild_id"]), int(tournament["buy_in"])
    assert all(house.is_bot(bot_id) for bot_id in bot_ids)
    needed = buy_in * len(bot_ids)
    if needed:
        await wallets.ensure(db, guild_id, house.HOUSE, now, 0)
        available = int((await wallets.row(db, guild_id, house.HOUSE))["balance"])
        if available < needed:
            raise HouseCannotCover(needed=needed, available=available)
    for bot_id in bot_ids:
        await register(db, tournament, bot_id, now, 0)


async def enter_late(
    db: Connection, tournament: Row, user_id: int, now: datetime, starting_balance: int
) -> int:
    """A late registration, or a re-entry of a player who went out, into a running tournament
    (the director checks the level, 11.9); returns his entries so far. ``RegistrationClosed``
    (re-entry not allowed), ``AlreadyRegistered`` (still playing), ``NotEnoughChips``."""
    if tournament["state"] != "running" or tournament["late_level"] is None:
        raise RegistrationClosed(int(tournament["id"]))
    found = await entry(db, tournament, user_id)
    if found is not None and found["place"] is None:
        raise AlreadyRegistered(int(tournament["id"]), user_id)  # still playing
    if found is not None and not tournament["reentry"]:
        raise RegistrationClosed(int(tournament["id"]))
    await _pay_in(db, tournament, user_id, now, starting_balance)
    await _trace(db, tournament, user_id, 1, now)
    if found is None:
        await db.run(
            "INSERT INTO tournament_entries (tournament_id, user_id, entries, registered_at)"
            " VALUES (?, ?, 1, ?)",
            (tournament["id"], user_id, ts(now)),
        )
        return 1
    await db.run(
        "UPDATE tournament_entries SET entries = entries + 1, place = NULL"
        " WHERE tournament_id = ? AND user_id = ?",
        (tournament["id"], user_id),
    )
    # Those out after him, or tied with him, finish a place lower: he is in again (docs/rules.md
    # 11.9).
    await db.run(
        "UPDATE tournament_entries SET place = place + 1 WHERE tournament_id = ? AND place <= ?",
        (tournament["id"], found["place"]),
    )
    return int(found["entries"]) + 1


async def unregister(db: Connection, tournament: Row, user_id: int, now: datetime) -> int:
    """Leave a tournament before it starts, the buy-in back; returns the chips given back.
    ``TournamentStarted``, ``NotRegistered``."""
    if tournament["state"] != "registering":
        raise TournamentStarted(int(tournament["id"]))
    found = await entry(db, tournament, user_id)
    if found is None:
        raise NotRegistered(int(tournament["id"]), user_id)
    await db.run(
        "DELETE FROM tournament_entries WHERE tournament_id = ? AND user_id = ?",
        (tournament["id"], user_id),
    )
    await _trace(db, tournament, user_id, -int(found["entries"]), now)
    refund = int(tournament["buy_in"]) * int(found["entries"])
    await _pay_out(db, tournament, user_id, refund, "tournament_refund", now)
    return refund


async def add_to_pool(
    db: Connection,
    tournament: Row,
    user_id: int,
    amount: int,
    now: datetime,
    starting_balance: int,
    *,
    grant: bool,
) -> None:
    """Chips an organiser adds to a registering or running tournament's prize pool (11.1):
    from ``user_id``'s wallet, or (``grant``) made by him as an admin's grant, logged either
    way. ``NoTournament`` once it is over; ``NotEnoughChips``."""
    if tournament["state"] not in ACTIVE:
        raise NoTournament(int(tournament["id"]))
    guild_id, tid = int(tournament["guild_id"]), int(tournament["id"])
    reason = f"added to the prize pool of tournament #{tid}"
    if grant:
        move = Move(
            guild_id,
            user_id,
            "admin_grant",
            reason,
            minted=amount,
            pool_delta=amount,
            actor_id=user_id,
            tournament_id=tid,
        )
    else:
        await wallets.ensure(db, guild_id, user_id, now, starting_balance)
        await wallets.spend(db, guild_id, user_id, amount)
        # A buy-in's kind, as it moves a wallet's chips into the pool: a cancel gives it back.
        move = Move(
            guild_id,
            user_id,
            "tournament_buy_in",
            reason,
            wallet_delta=-amount,
            pool_delta=amount,
            tournament_id=tid,
        )
    await _pool(db, tournament, amount)
    await log(db, now, move)


async def cancel(db: Connection, tournament: Row, now: datetime) -> dict[int, int]:
    """Call a tournament off before it starts: every chip in the pool back where it came from
    (each wallet what it put in, buy-ins and additions; the house its bots'; a grant unmade);
    returns user id -> chips given back. ``TournamentStarted``."""
    if tournament["state"] != "registering":
        raise TournamentStarted(int(tournament["id"]))
    refunds: dict[int, int] = {}
    paid_in = await db.all(
        "SELECT user_id, sum(pool_delta) AS paid FROM ledger WHERE tournament_id = ?"
        " AND kind IN ('tournament_buy_in', 'tournament_refund') GROUP BY user_id"
        " ORDER BY user_id",
        (tournament["id"],),
    )
    for found in paid_in:
        if int(found["paid"]) > 0:
            refunds[int(found["user_id"])] = int(found["paid"])
            await _pay_out(
                db, tournament, int(found["user_id"]), int(found["paid"]), "tournament_refund", now
            )
    granted = await one(
        db,
        "SELECT coalesce(sum(pool_delta), 0) AS granted FROM ledger WHERE tournament_id = ?"
        " AND kind = 'admin_grant'",
        (tournament["id"],),
    )
    if granted is not None and int(granted["granted"]):
        amount = int(granted["granted"])
        await _pool(db, tournament, -amount)
        await log(
            db,
            now,
            Move(
                int(tournament["guild_id"]),
                int(tournament["organiser_id"]),
                "admin_take",
                f"the grant to tournament #{tournament['id']} unmade: it was called off",
                minted=-amount,
                pool_delta=-amount,
                tournament_id=int(tournament["id"]),
            ),
        )
    await db.run(
        "UPDATE tournaments SET state = 'cancelled', ended_at = ? WHERE id = ?",
        (ts(now), tournament["id"]),
    )
    return refunds


async def open_table(
    db: Connection, tournament: Row, number: int, channel_id: int, settings_json: str, now: datetime
) -> Row:
    """Table ``number`` of the tournament, in ``channel_id`` (a thread)."""
    await db.run(
        "INSERT INTO tables (channel_id, guild_id, opener_id, max_seats, min_buy_in, max_buy_in,"
        " settings, opened_at, tournament_id, table_number) VALUES (?, ?, ?, ?, 1, 1, ?, ?, ?, ?)",
        (
            channel_id,
            tournament["guild_id"],
            tournament["organiser_id"],
            tournament["seats"],
            settings_json,
            ts(now),
            tournament["id"],
            number,
        ),
    )
    found = await one(
        db,
        "SELECT * FROM tables WHERE channel_id = ? AND closed_at IS NULL",
        (channel_id,),
    )
    assert found is not None
    return found


async def seat(
    db: Connection, table: Row, user_id: int, position: int, stack: int, now: datetime
) -> None:
    """Seat a player with tournament chips: no wallet gives them, so no ledger row (11.1)."""
    await db.run(
        "INSERT INTO seats (table_id, user_id, position, stack, seated_at) VALUES (?, ?, ?, ?, ?)",
        (table["id"], user_id, position, stack, ts(now)),
    )


async def start(db: Connection, tournament: Row, now: datetime) -> None:
    """Registering -> running (``RegistrationClosed`` if it isn't registering)."""
    changed = await db.run(
        "UPDATE tournaments SET state = 'running', started_at = ? WHERE id = ?"
        " AND state = 'registering'",
        (ts(now), tournament["id"]),
    )
    if changed != 1:
        raise RegistrationClosed(int(tournament["id"]))


async def table_of(db: Connection, tournament: Row, channel_id: int) -> Row:
    found = await one(
        db,
        "SELECT * FROM tables WHERE channel_id = ? AND closed_at IS NULL AND tournament_id = ?",
        (channel_id, tournament["id"]),
    )
    if found is None:
        raise AuditFailed(f"channel {channel_id} has no table of tournament #{tournament['id']}")
    return found


async def _no_live_hand(db: Connection, table: Row) -> None:
    if await one(db, "SELECT 1 FROM hands WHERE table_id = ? AND ended_at IS NULL", (table["id"],)):
        raise AuditFailed(f"table {table['id']} has a hand in play: players move between hands")


async def knock_out(db: Connection, tournament: Row, places: Mapping[int, int]) -> None:
    """Players out (11.4): each has no chips left; his seat goes, his place is written."""
    for user_id, place in places.items():
        removed = await db.run(
            "DELETE FROM seats WHERE user_id = ? AND stack = 0 AND table_id IN"
            " (SELECT id FROM tables WHERE tournament_id = ? AND closed_at IS NULL)",
            (user_id, tournament["id"]),
        )
        if removed != 1:
            raise AuditFailed(
                f"player {user_id} is out of tournament #{tournament['id']} with chips"
            )
        await db.run(
            "UPDATE tournament_entries SET place = ? WHERE tournament_id = ? AND user_id = ?",
            (place, tournament["id"], user_id),
        )


async def move(
    db: Connection, tournament: Row, user_id: int, source: Row, target: Row, position: int
) -> None:
    """Move a player and his stack from one of the tournament's tables to another (11.5):
    from a table between hands, to one that may be playing (he is dealt in from its next)."""
    await _no_live_hand(db, source)
    moved = await db.run(
        "UPDATE seats SET table_id = ?, position = ? WHERE table_id = ? AND user_id = ?",
        (target["id"], position, source["id"], user_id),
    )
    if moved != 1:
        raise AuditFailed(f"player {user_id} has no seat at table {source['id']} to move from")


async def close_table(db: Connection, table: Row, now: datetime) -> None:
    """A table that broke (11.5), its players gone: it closes."""
    await _no_live_hand(db, table)
    if await one(db, "SELECT 1 FROM seats WHERE table_id = ?", (table["id"],)):
        raise AuditFailed(f"table {table['id']} still has players: it can't close")
    await db.run("UPDATE tables SET closed_at = ? WHERE id = ?", (ts(now), table["id"]))


async def finish(
    db: Connection,
    tournament: Row,
    places: Mapping[int, int],
    prizes: Mapping[int, int],
    now: datetime,
) -> None:
    """The tournament is over: the last places written, the whole pool paid out once (11.7),
    its last table closed. ``AuditFailed`` if the prizes don't add up to the pool."""
    if tournament["state"] != "running":
        raise AuditFailed(f"tournament #{tournament['id']} is {tournament['state']}: no payout")
    if sum(prizes.values()) != tournament["prize_pool"] or any(p < 0 for p in prizes.values()):
        raise AuditFailed(
            f"tournament #{tournament['id']}: prizes {sum(prizes.values())} for a pool of"
            f" {tournament['prize_pool']}"
        )
    for table in await db.all(
        "SELECT * FROM tables WHERE tournament_id = ? AND closed_at IS NULL", (tournament["id"],)
    ):
        await _no_live_hand(db, table)
        # The winner's chips go with the tournament: they were never wallet chips (11.1).
        await db.run("DELETE FROM seats WHERE table_id = ?", (table["id"],))
        await db.run("UPDATE tables SET closed_at = ? WHERE id = ?", (ts(now), table["id"]))
    await db.run_many(
        "UPDATE tournament_entries SET place = ? WHERE tournament_id = ? AND user_id = ?",
        [(place, tournament["id"], user_id) for user_id, place in places.items()],
    )
    await db.run(
        "UPDATE tournament_entries SET prize = 0 WHERE tournament_id = ?", (tournament["id"],)
    )
    for user_id, prize in sorted(prizes.items()):
        await _pay_out(db, tournament, user_id, prize, "tournament_prize", now)
        await db.run(
            "UPDATE tournament_entries SET prize = ? WHERE tournament_id = ? AND user_id = ?",
            (prize, tournament["id"], user_id),
        )
    await db.run(
        "UPDATE tournaments SET state = 'finished', ended_at = ? WHERE id = ?",
        (ts(now), tournament["id"]),
    )


async def set_elapsed(db: Connection, tournament_id: int, elapsed: int) -> None:
    """The seconds of play so far; never back (two saves may land out of order)."""
    await db.run(
        "UPDATE tournaments SET elapsed = ? WHERE id = ? AND elapsed < ?",
        (elapsed, tournament_id, elapsed),
    )


async def set_event(db: Connection, tournament_id: int, event_id: int) -> None:
    await db.run("UPDATE tournaments SET event_id = ? WHERE id = ?", (event_id, tournament_id))


async def set_reminded(db: Connection, tournament_id: int) -> bool:
    """Mark the reminder sent; False if it was already (another process sent it)."""
    changed = await db.run(
        "UPDATE tournaments SET reminded = 1 WHERE id = ? AND reminded = 0", (tournament_id,)
    )
    return changed == 1


async def set_message(db: Connection, tournament_id: int, message_id: int) -> None:
    await db.run("UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id))


async def threads(db: Connection, tournament_id: int) -> list[int]:
    """The channels of every table it ever had, open or closed, by number."""
    rows = await db.all(
        "SELECT channel_id FROM tables WHERE tournament_id = ? ORDER BY table_number, id",
        (tournament_id,),
    )
    return [int(row["channel_id"]) for row in rows]


def to_tournament(row: Row) -> Tournament:
    return Tournament(
        tournament_id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        organiser_id=int(row["organiser_id"]),
        game=str(row["game"]),
        structure=str(row["structure"]),
        curve=str(row["curve"]),
        level_unit="hands" if row["level_unit"] == "hands" else "seconds",
        level_length=int(row["level_length"]),
        starting_stack=int(row["starting_stack"]),
        buy_in=int(row["buy_in"]),
        seats=int(row["seats"]),
        start_entrants=None if row["start_entrants"] is None else int(row["start_entrants"]),
        start_at=parse_ts(row["start_at"]),
        late_level=None if row["late_level"] is None else int(row["late_level"]),
        reentry=bool(row["reentry"]),
        state=row["state"],
        seed=int(row["seed"]),
        prize_pool=int(row["prize_pool"]),
        elapsed=int(row["elapsed"]),
        message_id=None if row["message_id"] is None else int(row["message_id"]),
        settings=json.loads(row["settings"]),
        created_at=required_ts(row["created_at"]),
        started_at=parse_ts(row["started_at"]),
        ended_at=parse_ts(row["ended_at"]),
        event_id=None if row["event_id"] is None else int(row["event_id"]),
        reminded=bool(row["reminded"]),
    )


def to_entry(row: Row) -> TournamentEntry:
    return TournamentEntry(
        user_id=int(row["user_id"]),
        entries=int(row["entries"]),
        place=None if row["place"] is None else int(row["place"]),
        prize=None if row["prize"] is None else int(row["prize"]),
    )


def positions(seats: Sequence[int | None]) -> list[tuple[int, int]]:
    """``(user, position)`` for a table's seats numbered from 1 (``engine.tournament``): the
    store's positions count from 0."""
    return [(user, number) for number, user in enumerate(seats) if user is not None]


class TournamentRecords:
    """``store.tournaments``: each method one transaction. A tournament's tables are ordinary
    tables (``store.seating``, ``store.hands`` deal and settle their hands) marked with its id;
    what only a tournament does to them is here: opening them at the start, seating entrants with
    tournament chips, moving players between them, closing those that break, and the end.
    Errors as the other parts': a ``StoreError`` changed nothing."""

    def __init__(self, backend: Backend, settings: Economy, guilds: Guilds) -> None:
        self._backend = backend
        self._settings = settings
        # A tournament is its server's (its pool, its tables, its house's stakes): its writes
        # lock that server only.
        self._guilds = guilds

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        *,
        game: str,
        structure: str,
        level_unit: Literal["seconds", "hands"],
        level_length: int,
        starting_stack: int,
        buy_in: int,
        seats: int,
        seed: int,
        curve: str = "standard",
        start_entrants: int | None = None,
        start_at: datetime | None = None,
        late_level: int | None = None,
        reentry: bool = False,
        settings: Mapping[str, Any] | None = None,
        bots: Sequence[int] = (),
    ) -> Tournament:
        """A new tournament, open for registration, with the computer players ``bots`` entered
        in the same transaction, their buy-ins from the house (``HouseCannotCover``).
        ``InvalidTableConfig`` for settings out of range, not exactly one of ``start_entrants``
        (a sit-and-go) and ``start_at``, or a sit-and-go that bots alone would start.
        ``settings`` (its tables' turn time, language...) are kept as JSON."""
        problems = [
            (not is_int(seats) or not 2 <= seats <= seating.MAX_SEATS, "a table has 2 to 8 seats"),
            (not is_amount(starting_stack), f"a starting stack is 1 to {MAX_AMOUNT:,} chips"),
            (not is_amount(buy_in, allow_zero=True), f"a buy-in is 0 to {MAX_AMOUNT:,} chips"),
            (level_unit not in ("seconds", "hands"), "levels last seconds or hands"),
            (not is_int(level_length) or level_length < 1, "a level lasts at least 1"),
            ((start_entrants is None) == (start_at is None), "it starts at a number or a time"),
            (start_entrants is not None and start_entrants < 2, "it needs at least 2 players"),
            (reentry and late_level is None, "re-entry needs a level it closes at"),
            (late_level is not None and late_level < 1, "levels are numbered from 1"),
            (not is_int(seed) or not 0 <= seed < 2**62, "a seed is 0 to 2**62"),
            (
                len(set(bots)) != len(bots) or not all(is_int(b) and house.is_bot(b) for b in bots),
                "computer players are distinct negative ids",
            ),
            (
                start_entrants is not None and len(bots) >= start_entrants,
                "a sit-and-go waits for at least one person",
            ),
        ]
        for bad, problem in problems:
            if bad:
                raise InvalidTableConfig(problem)
        columns: dict[str, Any] = {
            "guild_id": guild_id,
            "channel_id": channel_id,
            "organiser_id": organiser_id,
            "game": game,
            "structure": structure,
            "curve": curve,
            "level_unit": level_unit,
            "level_length": level_length,
            "starting_stack": starting_stack,
            "buy_in": buy_in,
            "seats": seats,
            "start_entrants": start_entrants,
            "start_at": None if start_at is None else ts(aware(start_at)),
            "late_level": late_level,
            "reentry": int(reentry),
            "seed": seed,
            "settings": seating.encode_settings(settings),
        }
        async with self._backend.write(guild_id) as db:
            now = utcnow()
            tournament_id = await create(db, columns, now)
            row = await require(db, tournament_id)
            await enter_bots(db, row, bots, now)
            return to_tournament(await require(db, tournament_id))

    async def get(self, tournament_id: int, *, guild_id: int | None = None) -> Tournament:
        """``NoTournament`` (also for another guild's, when ``guild_id`` is given)."""
        async with self._backend.read() as db:
            return to_tournament(await require(db, tournament_id, guild_id))

    async def active(self) -> list[Tournament]:
        """Every tournament registering or running (for startup)."""
        async with self._backend.read() as db:
            return await active(db)

    async def entries(self, tournament_id: int) -> list[TournamentEntry]:
        async with self._backend.read() as db:
            return await entries(db, tournament_id)

    async def tables(self, tournament_id: int) -> list[TournamentTable]:
        """Its open tables by number."""
        async with self._backend.read() as db:
            return await tables(db, tournament_id)

    async def register(self, tournament_id: int, user_id: int, *, guild_id: int) -> Tournament:
        """Enter, the buy-in moving from the wallet into the prize pool; returns the tournament
        as it is now. ``NoTournament``, ``RegistrationClosed``, ``AlreadyRegistered``,
        ``NotEnoughChips``."""
        async with self._backend.write(guild_id) as db:
            tournament = await require(db, tournament_id, guild_id)
            await register(db, tournament, user_id, utcnow(), self._settings.starting_balance)
            return to_tournament(await require(db, tournament_id))

    async def unregister(self, tournament_id: int, user_id: int, *, guild_id: int) -> int:
        """Leave before the start, the buy-in back; returns the chips given back.
        ``NoTournament``, ``TournamentStarted``, ``NotRegistered``."""
        async with self._backend.write(guild_id) as db:
            tournament = await require(db, tournament_id, guild_id)
            return await unregister(db, tournament, user_id, utcnow())

    async def cancel(self, tournament_id: int, *, guild_id: int) -> dict[int, int]:
        """Call it off before the start: every buy-in back in this one transaction; returns
        user id -> chips. ``NoTournament``, ``TournamentStarted``."""
        async with self._backend.write(guild_id) as db:
            tournament = await require(db, tournament_id, guild_id)
            return await cancel(db, tournament, utcnow())

    async def add_to_pool(
        self, tournament_id: int, user_id: int, amount: int, *, guild_id: int, grant: bool
    ) -> Tournament:
        """Add ``amount`` to its prize pool (11.1), from ``user_id``'s wallet or as his grant;
        returns the tournament as it is now. ``InvalidAmount``, ``NoTournament``,
        ``NotEnoughChips``."""
        check_amount(amount)
        async with self._backend.write(guild_id) as db:
            tournament = await require(db, tournament_id, guild_id)
            await add_to_pool(
                db,
                tournament,
                user_id,
                amount,
                utcnow(),
                self._settings.starting_balance,
                grant=grant,
            )
            return to_tournament(await require(db, tournament_id))

    async def start(
        self,
        tournament_id: int,
        tables: Mapping[int, tuple[int, Seats]],
        settings: Mapping[str, Any],
    ) -> None:
        """Start it: table ``number -> (channel, seats)`` opened with ``settings`` (stakes, clock),
        every entrant seated with the starting stack. ``RegistrationClosed`` if it isn't
        registering (started already, or cancelled)."""
        now = utcnow()
        settings_json = seating.encode_settings(settings)
        async with self._backend.write(await self._guilds.of_tournament(tournament_id)) as db:
            tournament = await require(db, tournament_id)
            await start(db, tournament, now)
            stack = int(tournament["starting_stack"])
            for number, (channel_id, seats) in sorted(tables.items()):
                table = await open_table(db, tournament, number, channel_id, settings_json, now)
                for user_id, position in positions(seats):
                    await seat(db, table, user_id, position, stack, now)

    async def enter_late(
        self, tournament_id: int, user_id: int, channel_id: int, seat_number: int
    ) -> int:
        """A late registration or a re-entry (11.9): the buy-in paid and the player seated with a
        starting stack in seat ``seat_number`` (from 1) of the table in ``channel_id``, at once;
        returns his entries. ``RegistrationClosed``, ``NotEnoughChips``."""
        now = utcnow()
        async with self._backend.write(await self._guilds.of_tournament(tournament_id)) as db:
            tournament = await require(db, tournament_id)
            count = await enter_late(db, tournament, user_id, now, self._settings.starting_balance)
            table = await table_of(db, tournament, channel_id)
            stack = int(tournament["starting_stack"])
            await seat(db, table, user_id, seat_number - 1, stack, now)
            return count

    async def after_hand(
        self,
        tournament_id: int,
        *,
        out: Mapping[int, int],
        moves: Sequence[Relocation],
        closing: Sequence[int] = (),
        elapsed: int | None = None,
    ) -> None:
        """Between hands, at once: the players ``out`` (user id -> place) leave their seats,
        the ``moves`` carry players and stacks to their new seats, the ``closing`` tables (by
        channel) close, empty (11.4, 11.5), and the level clock is saved (``elapsed``)."""
        now = utcnow()
        async with self._backend.write(await self._guilds.of_tournament(tournament_id)) as db:
            tournament = await require(db, tournament_id)
            await knock_out(db, tournament, out)
            for user_id, source, target, seat in moves:
                await move(
                    db,
                    tournament,
                    user_id,
                    await table_of(db, tournament, source),
                    await table_of(db, tournament, target),
                    seat - 1,
                )
            for channel_id in closing:
                await close_table(db, await table_of(db, tournament, channel_id), now)
            if elapsed is not None:
                await set_elapsed(db, tournament_id, max(0, elapsed))

    async def finish(
        self, tournament_id: int, *, places: Mapping[int, int], prizes: Mapping[int, int]
    ) -> None:
        """The end: the last ``places`` written, ``prizes`` (user id -> chips, adding up to the
        pool) paid into the wallets and its tables closed, in one transaction, once."""
        async with self._backend.write(await self._guilds.of_tournament(tournament_id)) as db:
            tournament = await require(db, tournament_id)
            await finish(db, tournament, places, prizes, utcnow())

    async def set_elapsed(self, tournament_id: int, elapsed: int) -> None:
        """Save the seconds of play so far: a restart resumes the level there (11.8)."""
        async with self._backend.write(await self._guilds.of_tournament(tournament_id)) as db:
            await set_elapsed(db, tournament_id, max(0, elapsed))

    async def set_event(self, tournament_id: int, event_id: int) -> None:
        """Remember the Discord scheduled event made for it."""
        async with self._backend.write(await self._guilds.of_tournament(tournament_id)) as db:
            await set_event(db, tournament_id, event_id)

    async def set_reminded(self, tournament_id: int) -> bool:
        """The reminder of its start is being sent: True the first time only, so that a
        restart (or another process) never sends it twice."""
        async with self._backend.write(await self._guilds.of_tournament(tournament_id)) as db:
            return await set_reminded(db, tournament_id)

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the lobby message that shows the tournament."""
        async with self._backend.write(await self._guilds.of_tournament(tournament_id)) as db:
            await set_message(db, tournament_id, message_id)

    async def hands_dealt(self, channel_id: int, *, since: datetime | None = None) -> int:
        """Hands dealt at the channel's table so far (a level's length in hands, 11.2), or
        started after ``since`` (hand-for-hand rounds since the bubble, 11.6)."""
        async with self._backend.read() as db:
            return await hands.dealt_at(db, channel_id, since)

    async def threads(self, tournament_id: int) -> list[int]:
        """The channels (threads) of every table it ever had, open or closed, by number."""
        async with self._backend.read() as db:
            return await threads(db, tournament_id)

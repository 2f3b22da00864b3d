"""Every schema a released bot left behind upgrades to the newest, its chips audited and its rows
intact, on SQLite and on PostgreSQL; and the newest schema is the one recorded in
``storage_schema.json``, whichever way it was reached.

The record is the catalogue (tables, columns and their types, constraints, indexes, triggers,
functions) of a database the migrations built from nothing. A new migration changes it on
purpose: run this file with ``STUD_RECORD_SCHEMA=1`` to write the new one, and review its diff.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.core.storage import Store
from bot.core.storage.backend import is_postgresql
from bot.core.storage.migrations import LATEST
from tests.databases import Location, catalogue, migrate_to, raw

RECORD = Path(__file__).with_name("storage_schema.json")
GUILD, CHANNEL = 1, 10
HOUSE, ALICE, BOB, CAROL = 0, 100, 101, 102
NOW = "2025-01-01T12:00:00.000000Z"
STATE = '{"n": 4}'  # a hand's saved state as the first releases wrote it (JSON text)
# The migration that brought in each part of the example: the wallets' chips at tables, the
# process's facts, the players' names, hands saved as bytes, the house's wallet, tournaments and
# the record of each entry into one.
SEATED, META, PLAYERS, BYTES, HOUSE_WALLET, TOURNAMENTS, REGISTRATIONS = 2, 4, 5, 8, 13, 14, 17


@pytest.fixture
def database(empty_database: Location) -> Location:
    """Each test here builds its database from nothing (``tests/conftest.py``'s ``database``
    comes migrated already)."""
    return empty_database


@dataclass
class Example:
    """What a database at schema ``version`` holds: Alice and Bob seated at a table with a hand
    between them under way, Carol away from the tables; where the schema has them, the house's
    wallet, Carol entered into a tournament, names and a fact of the process."""

    version: int
    statements: list[str] = field(default_factory=list)

    def insert(self, table: str, **values: object) -> None:
        literals = ", ".join(_literal(value) for value in values.values())
        self.statements.append(f"INSERT INTO {table} ({', '.join(values)}) VALUES ({literals})")

    def move(self, user_id: int, kind: str, **deltas: int | None) -> None:
        """A ledger row: ``minted`` and the deltas default to 0, the references to NULL."""
        columns: dict[str, int | None] = {
            "minted": 0,
            "wallet_delta": 0,
            "seat_delta": 0,
            "hand_delta": 0,
            **deltas,
        }
        self.insert(
            "ledger",
            created_at=NOW,
            guild_id=GUILD,
            user_id=user_id,
            kind=kind,
            reason="before the upgrade",
            **columns,
        )

    def wallet(self, user_id: int, balance: int, seated: int) -> None:
        if self.version >= SEATED:
            self.insert(
                "wallets",
                guild_id=GUILD,
                user_id=user_id,
                balance=balance,
                seated=seated,
                total=balance + seated,
                created_at=NOW,
            )
        else:  # migration 2 counts the chips at the tables itself
            self.insert("wallets", guild_id=GUILD, user_id=user_id, balance=balance, created_at=NOW)


@dataclass(frozen=True)
class Expression:
    """SQL to write as it is, not as a quoted string."""

    sql: str


def _literal(value: object) -> str:
    if isinstance(value, Expression):
        return value.sql
    if value is None:
        return "NULL"
    if isinstance(value, int):
        return str(value)
    return "'" + str(value).replace("'", "''") + "'"


def example(version: int, postgresql: bool) -> Example:
    built = Example(version)
    for user in (ALICE, BOB, CAROL):
        built.move(user, "starting_grant", minted=1000, wallet_delta=1000)
    built.insert(
        "tables",
        id=1,
        channel_id=CHANNEL,
        guild_id=GUILD,
        opener_id=ALICE,
        max_seats=6,
        min_buy_in=100,
        max_buy_in=1000,
        settings="{}",
        opened_at=NOW,
    )
    # Saved as bytes from migration 8 on, as the bot did.
    cast = "convert_to('{0}', 'UTF8')" if postgresql else "CAST('{0}' AS BLOB)"
    built.insert(
        "hands",
        id=1,
        table_id=1,
        state=STATE if version < BYTES else Expression(cast.format(STATE)),
        commitment="cd" * 32,
        salt="salt",
        started_at=NOW,
        updated_at=NOW,
    )
    for position, (user, buy_in) in enumerate(((ALICE, 300), (BOB, 200))):
        built.move(user, "buy_in", wallet_delta=-buy_in, seat_delta=buy_in, table_id=1)
        built.insert("seats", table_id=1, user_id=user, position=position, stack=0, seated_at=NOW)
        built.move(user, "hand_start", seat_delta=-buy_in, hand_delta=buy_in, table_id=1, hand_id=1)
    for index, (user, stack) in enumerate(((ALICE, 300), (BOB, 200))):
        built.insert("hand_seats", hand_id=1, seat_index=index, user_id=user, starting_stack=stack)
    carol = 1000
    if version >= TOURNAMENTS:
        built.insert(
            "tournaments",
            id=1,
            guild_id=GUILD,
            channel_id=CHANNEL + 1,
            organiser_id=ALICE,
            game="stud",
            structure="standard",
            curve="standard",
            level_unit="hands",
            level_length=5,
            starting_stack=1000,
            buy_in=100,
            seats=4,
            start_entrants=4,
            reentry=0,
            state="registering",
            seed=1,
            prize_pool=100,
            settings="{}",
            created_at=NOW,
        )
        built.insert(
            "tournament_entries", tournament_id=1, user_id=CAROL, entries=1, registered_at=NOW
        )
        built.move(CAROL, "tournament_buy_in", wallet_delta=-100, pool_delta=100, tournament_id=1)
        carol -= 100
        if version >= REGISTRATIONS:
            built.insert(
                "tournament_registrations",
                tournament_id=1,
                user_id=CAROL,
                entries=1,
                created_at=NOW,
            )
    built.wallet(ALICE, 700, 300)
    built.wallet(BOB, 800, 200)
    built.wallet(CAROL, carol, 0)
    if version >= HOUSE_WALLET:
        built.move(HOUSE, "admin_grant", minted=500, wallet_delta=500, actor_id=ALICE)
        built.wallet(HOUSE, 500, 0)
    if version >= META:
        built.insert("meta", key="example", value=f"made at schema {version}")
    if version >= PLAYERS:
        built.insert("player_names", guild_id=GUILD, user_id=ALICE, name="Alice", seen_at=NOW)
        built.insert("player_settings", user_id=ALICE, four_colour=1)
    return built


async def build(database: Location, version: int) -> None:
    """A database as a bot of schema ``version`` left it, holding the example."""
    assert await migrate_to(database, version) == version
    made = example(version, is_postgresql(database))
    async with raw(database) as other:
        for statement in ("BEGIN", *made.statements, "COMMIT"):
            await other.execute(statement)


@pytest.mark.parametrize("version", range(1, LATEST))
# Sixteen databases made on PostgreSQL: in the slow tier, where the quick one runs the same lines
# of the store there (CONTRIBUTING.md, "Tests, in tiers").
@pytest.mark.parametrize(
    "empty_database",
    ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)],
    indirect=True,
)
async def test_a_database_at_every_earlier_schema_upgrades_with_its_chips_and_rows(
    database: Location, version: int
) -> None:
    await build(database, version)
    store = await Store.open(database)
    try:
        totals = await store.audit()
        house = 500 if version >= HOUSE_WALLET else 0
        pools = 100 if version >= TOURNAMENTS else 0
        assert (totals.granted, totals.seats, totals.live_hands, totals.prize_pools) == (
            3000 + house,
            0,
            500,
            pools,
        )
        wallets = [await store.wallets.get(GUILD, user) for user in (ALICE, BOB, CAROL)]
        assert [(w.balance, w.seated) for w in wallets] == [
            (700, 300),
            (800, 200),
            (1000 - pools, 0),
        ]
        seats = await store.seating.seats(CHANNEL)
        assert [(seat.user_id, seat.position) for seat in seats] == [(ALICE, 0), (BOB, 1)]
        (live,) = await store.hands.live()
        assert (live.hand_id, live.state) == (1, STATE.encode())
        if version >= TOURNAMENTS:
            (entry,) = await store.tournaments.entries(1)
            assert (entry.user_id, entry.entries) == (CAROL, 1)
        if version >= HOUSE_WALLET:
            assert (await store.house_wallet.report(GUILD)).balance == 500
        if version >= META:
            assert await store.get_meta("example") == f"made at schema {version}"
        if version >= PLAYERS:
            assert await store.players.names(GUILD, [ALICE]) == {ALICE: "Alice"}
            assert await store.players.four_colour(ALICE)
        # The upgraded database is written to as a new one: the hand settles, Carol sits.
        await store.hands.settle(1, b"n5", [450, 50])
        await store.seating.sit(CHANNEL, CAROL, 100)
        await store.audit()
    finally:
        await store.close()
    fresh = json.loads(RECORD.read_text())["postgresql" if is_postgresql(database) else "sqlite"]
    assert await catalogue(database) == fresh, f"schema {version} upgraded differs from a new one"


async def test_a_new_database_has_the_recorded_schema(database: Location) -> None:
    await (await Store.open(database)).close()
    found = await catalogue(database)
    backend = "postgresql" if is_postgresql(database) else "sqlite"
    if os.environ.get("STUD_RECORD_SCHEMA") == "1":
        recorded: dict[str, Any] = json.loads(RECORD.read_text()) if RECORD.exists() else {}
        recorded[backend] = found
        RECORD.write_text(json.dumps(recorded, indent=1, sort_keys=True))
        pytest.skip(f"STUD_RECORD_SCHEMA=1: {backend}'s schema recorded, not compared")
    assert found == json.loads(RECORD.read_text())[backend], (
        "the migrations build another schema than the recorded one: if a new migration meant "
        "it, record it (STUD_RECORD_SCHEMA=1) and review the diff"
    )


async def test_postgresql_keeps_64_bit_integers_and_numbers_ids_unless_given(
    database: Location,
) -> None:
    if not is_postgresql(database):
        pytest.skip("SQLite's integers are 64-bit whatever their declared type")
    await (await Store.open(database)).close()
    columns = (await catalogue(database))["columns"]
    # Discord ids need more than 32 bits; migrate-db copies rows with their ids.
    types = {column[3] for column in columns}
    assert "bigint" in types and not types & {"integer", "smallint"}
    numbered = {(column[0], column[1], column[7]) for column in columns if column[6] == "YES"}
    assert numbered == {
        (table, "id", "BY DEFAULT")
        for table in ("tables", "hands", "ledger", "tournaments", "tournament_registrations")
    }

"""The audit names each fault planted by hand in a database, as a cage's count would, on SQLite
and PostgreSQL: a house credited by a kind of row it never gets, a stake paid to a person, a
computer player keeping its stake off the table, a freeroll entry nobody registered, a paid
entry nobody paid for, a chip more in a prize pool, a prize paid twice, and a server's chips
moved to another server's books. Each test first shows the audit passing on the honest
database, so that the failure is the fault's."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.storage import AuditFailed, Store
from bot.core.storage.house import BOT_IDS, HOUSE
from tests.databases import INTEGRITY_ERRORS, Location, raw

GUILD, OTHER_GUILD, CHANNEL, THREAD = 1, 2, 10, 501
ADMIN, ALICE, BOB = 1, 100, 101
BOT = BOT_IDS[0]
NOW = "2026-12-06T12:00:00.000000Z"
SETTINGS = {"stakes": [3, 5, 20, 40], "turn_seconds": 60, "countdown_seconds": 0, "lang": "en"}


@pytest.fixture
async def store(database: Location) -> AsyncIterator[Store]:
    opened = await Store.open(database, starting_balance=1000)
    yield opened
    await opened.close()


async def plant(database: Location, *statements: str) -> None:
    async with raw(database) as connection:
        for statement in statements:
            await connection.execute(statement)


# The table's id, as a planted row names it.
TABLE_ID = f"(SELECT id FROM tables WHERE channel_id = {CHANNEL})"


def ledger_row(user_id: int, kind: str, guild_id: int = GUILD, **columns: int | str) -> str:
    """An INSERT of a ledger row (``minted``, ``wallet_delta``... as given, SQL included)."""
    names = ", ".join(columns)
    values = ", ".join(str(value) for value in columns.values())
    return (
        f"INSERT INTO ledger (created_at, guild_id, user_id, kind, reason, {names})"
        f" VALUES ('{NOW}', {guild_id}, {user_id}, '{kind}', 'planted', {values})"
    )


def credit(user_id: int, amount: int, guild_id: int = GUILD) -> str:
    return (
        f"UPDATE wallets SET balance = balance + {amount}, total = total + {amount}"
        f" WHERE guild_id = {guild_id} AND user_id = {user_id}"
    )


async def tournament(store: Store, buy_in: int) -> int:
    created = await store.tournaments.create(
        GUILD,
        CHANNEL,
        ALICE,
        game="stud",
        structure="standard",
        level_unit="seconds",
        level_length=600,
        starting_stack=2000,
        buy_in=buy_in,
        seats=4,
        seed=1,
        start_at=datetime.now(UTC) + timedelta(hours=1),
    )
    await store.tournaments.register(created.tournament_id, ALICE, guild_id=GUILD)
    return created.tournament_id


async def test_a_house_credited_by_a_daily_grant(store: Store, database: Location) -> None:
    await store.house_wallet.fund(GUILD, 500, by=ADMIN)
    await store.audit()
    await plant(
        database, ledger_row(HOUSE, "daily_grant", minted=200, wallet_delta=200), credit(HOUSE, 200)
    )
    with pytest.raises(AuditFailed, match="the house's ledger holds a row that is not") as failed:
        await store.audit()
    assert "'kind': 'daily_grant'" in str(failed.value)
    # Every chip has its ledger row: only the house's own books see it.
    assert "not conserved" not in str(failed.value)


async def test_a_house_stake_paid_to_a_person(store: Store, database: Location) -> None:
    await store.house_wallet.fund(GUILD, 500, by=ADMIN)
    await store.wallets.get(GUILD, ALICE)
    await store.audit()
    await plant(
        database,
        ledger_row(HOUSE, "house_stake", minted=-200, wallet_delta=-200),
        credit(HOUSE, -200),
        ledger_row(ALICE, "house_stake", minted=200, wallet_delta=200),
        credit(ALICE, 200),
    )
    with pytest.raises(AuditFailed, match="not an equal and opposite pair") as failed:
        await store.audit()
    assert "not conserved" not in str(failed.value)  # the pair's rows add up to zero


async def test_a_stake_with_no_other_half(store: Store, database: Location) -> None:
    await store.house_wallet.fund(GUILD, 500, by=ADMIN)
    await store.audit()
    await plant(
        database,
        ledger_row(BOT, "house_stake", minted=100, wallet_delta=100),
        ledger_row(BOT, "house_stake", minted=-100, wallet_delta=-100),
    )
    # Each row alone, its amounts right and the books balanced: a house row is missing.
    with pytest.raises(AuditFailed, match="not an equal and opposite pair"):
        await store.audit()


async def test_a_computer_player_keeping_its_stake_after_its_seat_closed(
    store: Store, database: Location
) -> None:
    await store.seating.open(CHANNEL, GUILD, ADMIN, max_seats=4, min_buy_in=100, max_buy_in=500)
    await store.house_wallet.fund(GUILD, 500, by=ADMIN)
    await store.seating.seat_bot(CHANNEL, BOT, 200)
    await store.audit()
    # Cashed out to its wallet, as a person is, but never given back to the house.
    await plant(
        database,
        f"DELETE FROM seats WHERE user_id = {BOT}",
        f"UPDATE wallets SET seated = 0, balance = 200 WHERE user_id = {BOT}",
        ledger_row(BOT, "cash_out", wallet_delta=200, seat_delta=-200, table_id=TABLE_ID),
    )
    with pytest.raises(AuditFailed, match="a computer player holds chips off the table") as failed:
        await store.audit()
    assert f"'user_id': {BOT}, 'balance': 200" in str(failed.value)


async def test_chips_granted_to_a_computer_player(store: Store, database: Location) -> None:
    assert (await store.wallets.get(GUILD, BOT)).balance == 0  # no starting chips for a bot
    await store.audit()
    await plant(
        database, ledger_row(BOT, "admin_grant", minted=50, wallet_delta=50), credit(BOT, 50)
    )
    with pytest.raises(AuditFailed, match="granted to or taken from a computer player"):
        await store.audit()


async def test_a_freeroll_entry_nobody_registered(store: Store, database: Location) -> None:
    tid = await tournament(store, buy_in=0)
    await store.tournaments.register(tid, BOB, guild_id=GUILD)
    await store.tournaments.unregister(tid, BOB, guild_id=GUILD)
    await store.audit()  # entered and left: both written down
    await plant(
        database,
        "INSERT INTO tournament_entries (tournament_id, user_id, entries, registered_at)"
        f" VALUES ({tid}, {BOB}, 1, '{NOW}')",
    )
    with pytest.raises(AuditFailed, match="entries differ from his registrations") as failed:
        await store.audit()
    assert f"'user_id': {BOB}" in str(failed.value)
    await plant(database, f"DELETE FROM tournament_entries WHERE user_id = {BOB}")
    await store.audit()
    # An entry counted twice, in a freeroll: no chip tells, the registrations do.
    await plant(database, f"UPDATE tournament_entries SET entries = 2 WHERE user_id = {ALICE}")
    with pytest.raises(AuditFailed, match="entries differ from his registrations"):
        await store.audit()


async def test_the_registrations_are_append_only(store: Store, database: Location) -> None:
    await tournament(store, buy_in=0)
    for change in (
        "UPDATE tournament_registrations SET entries = 2",
        "DELETE FROM tournament_registrations",
    ):
        with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
            await plant(database, change)
    await store.audit()


async def test_a_paid_entry_nobody_paid_for(store: Store, database: Location) -> None:
    tid = await tournament(store, buy_in=100)
    await store.audit()
    await plant(
        database,
        "INSERT INTO tournament_entries (tournament_id, user_id, entries, registered_at)"
        f" VALUES ({tid}, {BOB}, 1, '{NOW}')",
        "INSERT INTO tournament_registrations (tournament_id, user_id, entries, created_at)"
        f" VALUES ({tid}, {BOB}, 1, '{NOW}')",
    )
    with pytest.raises(AuditFailed, match="an entry of a paid tournament was not paid for"):
        await store.audit()


async def test_an_extra_chip_in_a_prize_pool(store: Store, database: Location) -> None:
    tid = await tournament(store, buy_in=100)
    await store.audit()
    await plant(database, f"UPDATE tournaments SET prize_pool = prize_pool + 1 WHERE id = {tid}")
    with pytest.raises(AuditFailed, match="a prize pool differs from its ledger") as failed:
        await store.audit()
    assert "a server's chips not conserved" in str(failed.value)


async def test_a_prize_paid_twice(store: Store, database: Location) -> None:
    tid = await tournament(store, buy_in=100)
    await store.tournaments.register(tid, BOB, guild_id=GUILD)
    await store.tournaments.start(tid, {1: (THREAD, [ALICE, BOB])}, SETTINGS)
    await store.tournaments.finish(tid, places={ALICE: 1, BOB: 2}, prizes={ALICE: 200})
    await store.audit()
    await plant(
        database,
        ledger_row(ALICE, "tournament_prize", wallet_delta=200, pool_delta=-200, tournament_id=tid),
        credit(ALICE, 200),
    )
    with pytest.raises(AuditFailed, match="a prize was paid more than once") as failed:
        await store.audit()
    assert "a prize pool differs from its ledger" in str(failed.value)
    assert "a prize paid differs from the prize its entrant won" in str(failed.value)


async def test_a_servers_chips_moved_to_another_servers_books(
    store: Store, database: Location
) -> None:
    await store.seating.open(CHANNEL, GUILD, ADMIN, max_seats=4, min_buy_in=100, max_buy_in=500)
    await store.seating.sit(CHANNEL, ALICE, 300)
    await store.wallets.get(OTHER_GUILD, ALICE)
    await store.audit()
    # Cashed out into his wallet on the other server, its row written there: every wallet and
    # seat still matches its own rows, and the chips over every server add up.
    await plant(
        database,
        f"DELETE FROM seats WHERE user_id = {ALICE}",
        f"UPDATE wallets SET seated = 0, total = total - 300 WHERE guild_id = {GUILD}",
        credit(ALICE, 300, OTHER_GUILD),
        ledger_row(
            ALICE, "cash_out", OTHER_GUILD, wallet_delta=300, seat_delta=-300, table_id=TABLE_ID
        ),
    )
    with pytest.raises(AuditFailed, match="a server's chips not conserved") as failed:
        await store.audit()
    assert "a ledger row is one server's and its table's" in str(failed.value)
    assert str(failed.value).count("; ") == 1, "only the servers' books see it"

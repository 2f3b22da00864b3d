# ruff: noqa: RUF001  (Russian text is meant to be Cyrillic)
"""The session ledger: its figures against a replay of the stored hands and
the chips the players moved, how it is worded, and that closing a table posts it."""

from __future__ import annotations

import logging
import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.core.errors import TableError
from bot.core.ledger import MAX_ROWS, SessionLedger, ledger_sheet
from bot.core.outbox import Ledger, Line
from bot.core.storage import LedgerEntry, Store, TableLedger
from bot.core.storage.sqlite import SqliteBackend
from bot.edge.embeds import ledger_embed
from tests.bot.fakes import CHANNEL, GUILD, ManualClock, new_house
from tests.bot.session import Session
from tests.texts import TEXTS
from words import EN, RU

NBSP = "\xa0"
NNBSP = "\u202f"  # CLDR puts a narrow one before the Russian year mark


async def check_against_replay(session: Session, ledger: TableLedger) -> None:
    net, hands = await session.replay()
    seats = {seat.user_id: seat.stack for seat in await session.store.seating.seats(CHANNEL)}
    assert [e.user_id for e in ledger.entries] == list(session.bought)  # the order they sat
    for entry in ledger.entries:
        user = entry.user_id
        assert entry.bought_in == session.bought[user]
        assert entry.cashed_out == session.taken[user]
        assert entry.net == net[user], user
        assert entry.hands == hands[user]
        assert entry.seated == (user in seats)
        assert entry.on_table == seats.get(user, 0)
    assert ledger.hands == len(session.hand_ids)
    # Chips are conserved: what one player won, the others lost, and what is on the table is
    # what was brought to it less what was taken away.
    assert sum(e.net for e in ledger.entries) == 0
    assert sum(net.values()) == 0
    assert sum(e.on_table for e in ledger.entries) == sum(session.bought.values()) - sum(
        session.taken.values()
    )


async def test_the_ledger_agrees_with_a_replay_of_the_stored_hands(store: Store) -> None:
    session = Session(store, seed=12)
    await session.open()
    for user_id, buy_in in ((1, 400), (2, 500), (3, 800)):
        await session.sit(user_id, buy_in)
    for number in range(12):
        await session.play_hand()
        ledger = await store.reports.table_ledger(CHANNEL)
        assert ledger is not None and ledger.closed_at is None
        await check_against_replay(session, ledger)
        seated = {seat.user_id for seat in await store.seating.seats(CHANNEL)}
        if number == 3 and 2 in seated:
            await session.leave(2)  # Bob leaves; Dee takes a seat
        if number == 4:
            await session.sit(4, 300)
        if number == 6 and 2 not in seated:
            await session.sit(2, 200)  # Bob comes back with a new buy-in
        seated = {seat.user_id for seat in await store.seating.seats(CHANNEL)}
        for user_id in (1, 3, 4):  # a busted player buys in again
            if user_id in session.bought and user_id not in seated and number < 10:
                await session.sit(user_id, 100)
        if len({seat.user_id for seat in await store.seating.seats(CHANNEL)}) < 2:
            await session.sit(5, 500)
    assert 4 in session.bought and len(session.hand_ids) == 12
    before_close = {seat.user_id: seat.stack for seat in await store.seating.seats(CHANNEL)}
    await session.manager.seating.close(CHANNEL, 1, can_manage=False)
    session.taken.update(before_close)
    closed = await store.reports.table_ledger(CHANNEL)
    assert closed is not None and closed.closed_at is not None
    await check_against_replay(session, closed)
    # Closed: nothing is left on the table, and every net is in the wallets.
    assert all(e.on_table == 0 and not e.seated for e in closed.entries)
    for entry in closed.entries:
        assert entry.net == entry.cashed_out - entry.bought_in
        assert (await store.wallets.get(GUILD, entry.user_id)).balance == 1000 + entry.net
    await store.audit()


async def test_a_hand_in_progress_keeps_its_chips_on_the_table_and_out_of_the_net(
    store: Store,
) -> None:
    session = Session(store, seed=3)
    await session.open()
    await session.sit(1, 500)
    await session.sit(2, 300)
    await session.start()
    table = session.manager.seating.get(CHANNEL)
    await session.manager.dealer.act(CHANNEL, table.actor_id() or 0, "bring_in")
    ledger = await store.reports.table_ledger(CHANNEL)
    assert ledger is not None and ledger.hands == 0
    # The antes and the bring-in are in the pot, but the hand hasn't ended: nobody has won or
    # lost yet, and each player's starting stack is still his, on the table.
    assert [(e.on_table, e.net, e.hands) for e in ledger.entries] == [(500, 0, 0), (300, 0, 0)]
    await session.manager.recovery.shutdown()


async def test_a_table_closed_with_its_channel_gone_counts_no_voided_hand(store: Store) -> None:
    session = Session(store, seed=5)
    await session.open()
    await session.sit(1, 500)
    await session.sit(2, 500)
    await session.play_hand()
    await session.start()
    voided = session.hand_ids.pop()  # the replay counts the settled hands only
    await session.manager.dealer.act(
        CHANNEL, session.manager.seating.get(CHANNEL).actor_id() or 0, "bring_in"
    )
    await session.manager.seating.abandon(CHANNEL)
    assert (await store.hands.get(voided)).outcome == "voided"
    ledger = await store.reports.table_ledger(CHANNEL)
    assert ledger is not None and ledger.closed_at is not None
    net, _ = await session.replay()
    assert [(e.net, e.hands) for e in ledger.entries] == [(net[1], 1), (net[2], 1)]
    assert ledger.hands == 1 and sum(e.net for e in ledger.entries) == 0
    assert all(e.on_table == 0 and e.cashed_out == e.bought_in + e.net for e in ledger.entries)
    # There is no channel to post in: no ledger goes out.
    assert not [e for e in session.screen.effects if isinstance(e, Ledger)]
    await store.audit()


async def test_closing_posts_the_ledger_after_the_closing_line(store: Store) -> None:
    session = Session(store, seed=7)
    await session.open()
    await session.sit(1, 500)
    await session.sit(2, 250)
    await session.play_hand()
    await session.manager.seating.close(CHANNEL, 1, can_manage=False)
    await session.clock.advance(0, session.manager)
    effects = session.screen.effects
    closing = next(
        i for i, e in enumerate(effects) if isinstance(e, Line) and "table is closed" in e.text
    )
    (posted,) = [e for e in effects if isinstance(e, Ledger)]
    assert effects.index(posted) == closing + 1
    ledger = posted.ledger
    assert ledger.closed_at is not None and ledger.hands == 1
    assert {line.name for line in ledger.lines} == {"Ann", "Bob"}
    nets = [line.entry.net for line in ledger.lines]
    assert nets == sorted(nets, reverse=True) and sum(nets) == 0 and ledger.totals().net == 0
    assert ledger.totals().cashed_out == 750 and ledger.totals().on_table == 0
    # The ledger stays readable after the close, until another table opens there.
    assert await session.manager.seating.ledger(CHANNEL) == ledger
    await session.open()
    fresh = await session.manager.seating.ledger(CHANNEL)
    assert fresh.closed_at is None and fresh.lines == () and fresh.hands == 0


async def test_a_ledger_that_cant_be_read_does_not_stop_the_close(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    session = Session(store, seed=8)
    await session.open()
    await session.sit(1, 500)
    await session.sit(2, 500)
    await session.play_hand()

    async def broken(channel_id: int) -> TableLedger | None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store.reports, "table_ledger", broken)
    with caplog.at_level(logging.WARNING):
        cashed = await session.manager.seating.close(CHANNEL, 1, can_manage=False)
    assert sum(cashed.values()) == 1000 and list(session.manager.open_tables) == []
    assert not [e for e in session.screen.effects if isinstance(e, Ledger)]
    assert any("ledger can't be read" in record.getMessage() for record in caplog.records)
    await store.audit()


async def test_a_channel_that_never_had_a_table_has_no_ledger(store: Store) -> None:
    manager = new_house(store, ManualClock())
    assert await store.reports.table_ledger(CHANNEL) is None
    with pytest.raises(TableError) as refused:
        await manager.seating.ledger(CHANNEL)
    assert refused.value.key == "no_table"


async def test_the_ledger_queries_read_one_tables_rows_by_index(tmp_path: Path) -> None:
    """The ledger sums one table's rows, not the whole ledger's (migration 6); the plans are
    SQLite's."""
    store = await Store.open(tmp_path / "plan.db")
    session = Session(store, seed=9)
    await session.open()
    await session.sit(1, 500)
    await session.sit(2, 500)
    await session.play_hand()
    queries: list[str] = []
    # The statements as run, their parameters written in.
    backend = store._backend
    assert isinstance(backend, SqliteBackend)  # a plan of SQLite's own
    # A report: its statements run on the report thread's connection, traced in that thread.
    reader = await backend._in_report_thread(backend._open_reader)
    await backend._in_report_thread(lambda: reader.set_trace_callback(queries.append))
    await store.reports.table_ledger(CHANNEL)
    await backend._in_report_thread(lambda: reader.set_trace_callback(None))
    with closing(sqlite3.connect(tmp_path / "plan.db")) as raw:
        plans = {
            query: " ".join(str(row[3]) for row in raw.execute("EXPLAIN QUERY PLAN " + query))
            for query in queries
            if query.lstrip().startswith("SELECT")
        }
    by_index = {
        "FROM ledger": "ledger_by_table",
        "FROM hands": "hands_by_table",
        "FROM tables": "tables_by_channel",
    }
    for source, index in by_index.items():
        found = [plan for query, plan in plans.items() if source in query]
        assert found and all(index in plan for plan in found), plans
    assert not any(
        f"SCAN {table}" in plan for plan in plans.values() for table in ("ledger", "hands")
    ), plans
    await session.manager.recovery.shutdown()
    await store.close()


def _missing() -> TableLedger:
    raise AssertionError("the table has no ledger")


def _ledger(*entries: tuple[str, LedgerEntry], closed: bool = False) -> SessionLedger:
    record = TableLedger(
        channel_id=CHANNEL,
        guild_id=GUILD,
        opened_at=datetime(2026, 12, 1, 18, 5, tzinfo=UTC),
        closed_at=datetime(2026, 12, 2, 1, 0, tzinfo=UTC) if closed else None,
        hands=57,
        entries=tuple(entry for _, entry in entries),
    )
    names = {entry.user_id: name for name, entry in entries}
    return SessionLedger.of(record, names.__getitem__)


SAMPLE = (
    ("Олег", LedgerEntry(1, 2000, 1310, 0, 41, seated=False)),
    ("Dana", LedgerEntry(2, 1000, 0, 1840, 57, seated=True)),
    ("Zoë", LedgerEntry(3, 500, 0, 350, 57, seated=True)),
)


def test_the_picture_words_and_numbers_follow_the_language() -> None:
    ledger = _ledger(*SAMPLE)
    english = ledger_sheet(ledger, TEXTS, EN, "#stud")
    assert english.title == "Table ledger · #stud"
    assert english.subtitle == "Opened Dec 1, 2026 · 57 hands played"
    assert english.headers == ("Player", "Bought in", "Cashed out", "On table", "Net", "Hands")
    # The biggest winner first; the player who left has no chips on the table.
    assert [(r.name, r.net, r.on_table) for r in english.rows] == [
        ("Dana", "+840", "1,840"),
        ("Zoë", "-150", "350"),
        ("Олег", "-690", "—"),
    ]
    assert [r.seated for r in english.rows] == [True, True, False]
    total = english.total
    assert (total.bought_in, total.cashed_out, total.on_table, total.net, total.hands) == (
        "3,500",
        "1,310",
        "2,190",
        "+0",
        "57",
    )
    russian = ledger_sheet(_ledger(*SAMPLE, closed=True), TEXTS, RU, "#стад")
    assert russian.title == "Итоги стола · #стад"
    assert russian.subtitle == (
        f"Открыт 1 дек. 2026{NNBSP}г., закрыт 2 дек. 2026{NNBSP}г. · сыграно 57 раздач"
    )
    assert russian.headers[0] == "Игрок" and russian.total.name == "Всего"
    assert russian.rows[0].on_table == f"1{NBSP}840" and russian.total.bought_in == f"3{NBSP}500"


def test_the_embed_lists_every_player_and_the_total_in_the_readers_language() -> None:
    ledger = _ledger(*SAMPLE)
    english = ledger_embed(ledger, TEXTS, EN).description or ""
    assert english.startswith("Open since <t:1796148300:f>: 57 hands played.")
    assert (
        "**Dana**: bought in 1,000, cashed out 0, on the table 1,840; net **+840** in 57 hands"
        in english
    )
    assert "**Олег** (left): bought in 2,000, cashed out 1,310; net **-690** in 41 hands" in english
    assert english.endswith("Total: bought in 3,500, cashed out 1,310, on the table 2,190; net +0.")
    russian = ledger_embed(_ledger(*SAMPLE, closed=True), TEXTS, RU)
    assert russian.title == "Итоги стола"
    text = russian.description or ""
    assert text.startswith("Открыт с <t:1796148300:f> по <t:1796173200:f>: сыграно 57 раздач.")
    assert f"**Dana**: внесено 1{NBSP}000, выведено 0, на столе 1{NBSP}840;" in text
    assert "итог **+840** за 57 раздач" in text and "за 41 раздачу" in text


def test_a_crowded_ledger_counts_the_players_it_leaves_out() -> None:
    entries = [
        (f"P{n}", LedgerEntry(n, 100, 100 + n, 0, 1, seated=False)) for n in range(MAX_ROWS + 3)
    ]
    ledger = _ledger(*entries)
    assert len(ledger.shown) == MAX_ROWS and ledger.hidden == 3
    assert ledger_sheet(ledger, TEXTS, EN, "#stud").more == "and 3 more players"
    description = ledger_embed(ledger, TEXTS, EN).description or ""
    assert "…and 3 more players." in description and len(description) <= 4096
    # Totals count everyone, listed or not.
    assert ledger.totals().cashed_out == sum(100 + n for n in range(MAX_ROWS + 3))
    # Long names are cut to Discord's 32 characters: 25 lines stay within an embed.
    long = [
        (("Ж" * 100) + str(n), LedgerEntry(n, 10**9, 10**9, 10**9, 99999, True)) for n in range(30)
    ]
    assert len(ledger_embed(_ledger(*long), TEXTS, RU).description or "") <= 4096

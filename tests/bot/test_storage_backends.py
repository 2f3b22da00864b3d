"""The SQL the store writes once, as the PostgreSQL backend sends it. That each
query then does the same on both databases is what the rest of the storage tests show."""

from __future__ import annotations

import pytest

from bot.core.storage.backend import is_postgresql
from bot.core.storage.postgres import row_count, translate


def test_question_marks_become_numbered_parameters_in_order() -> None:
    query = translate("SELECT * FROM seats WHERE table_id = ? AND user_id IN (?, ?)")
    assert query.sql == "SELECT * FROM seats WHERE table_id = $1 AND user_id IN ($2, $3)"
    assert query.args((7, 8, 9)) == [7, 8, 9]


def test_named_parameters_keep_one_number_each_however_often_they_appear() -> None:
    query = translate(
        "UPDATE wallets SET balance = balance + :amount, total = total + :amount"
        " WHERE guild_id = :guild AND user_id = :user"
    )
    assert query.sql == (
        "UPDATE wallets SET balance = balance + $1, total = total + $1"
        " WHERE guild_id = $2 AND user_id = $3"
    )
    assert query.args({"user": 5, "guild": 4, "amount": 100, "unused": 0}) == [100, 4, 5]


def test_strings_quoted_names_comments_and_casts_are_left_alone() -> None:
    sql = (
        "SELECT '?', 'it''s :not', \"odd?name\", x::text -- a ? here\n"
        "FROM t WHERE kind = 'a:b' AND id = ?"
    )
    query = translate(sql)
    assert query.sql == sql.replace("id = ?", "id = $1")
    assert query.names is None


def test_a_query_mixing_both_kinds_of_parameter_is_refused() -> None:
    with pytest.raises(ValueError, match="not both"):
        translate("SELECT * FROM t WHERE a = ? AND b = :b")


def test_insert_or_ignore_becomes_on_conflict_do_nothing() -> None:
    assert translate("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)").sql == (
        "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT DO NOTHING"
    )
    # The clause goes before RETURNING, where PostgreSQL wants it.
    assert translate("insert or ignore into t (a) values (?) returning a").sql == (
        "INSERT INTO t (a) values ($1) ON CONFLICT DO NOTHING returning a"
    )


def test_row_counts_come_from_the_command_status() -> None:
    assert [row_count(s) for s in ("UPDATE 3", "INSERT 0 1", "DELETE 0", "CREATE TABLE")] == [
        3,
        1,
        0,
        0,
    ]


def test_only_a_postgresql_url_names_postgresql() -> None:
    assert is_postgresql("postgresql://u@h/db") and is_postgresql("postgres://u@h/db")
    assert not is_postgresql("stud.db") and not is_postgresql("postgresql.db")

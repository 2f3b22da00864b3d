"""The audit: proof that no chip was created or lost, server by server, as a card room's cage
is counted. Every chip is in a wallet, on a seat or in a hand in progress at a cash table, or in
a tournament's prize pool, and on each server they add up to the chips the ledger says were ever
granted there; each wallet, seat, hand and pool also agrees with its own ledger rows. The house
holds only what admins put in or took out and what its computer players gave back, each stake
and return a pair of rows between it and one computer player, and a computer player keeps
nothing off the table. Every tournament entry, paid or free, is written down, and every paid one
paid for; each prize is paid once. A running tournament's chips are its own (RULES 11.1): the
stacks on its seats and in its live hands add up to a starting stack per entry. Reads every
table; owns none."""

from __future__ import annotations

from bot.core.storage.backend import Connection
from bot.core.storage.common import one
from bot.core.storage.errors import AuditFailed
from bot.core.storage.models import AuditTotals


async def audit(db: Connection) -> AuditTotals:
    """Check conservation and that every balance equals its ledger history, inside the
    caller's transaction. Raises ``AuditFailed`` naming every kind of mismatch found (one
    example of each), as a count names all its discrepancies, not the first."""
    totals = await one(
        db,
        "SELECT"
        " (SELECT coalesce(sum(minted), 0) FROM ledger) AS granted,"
        " (SELECT coalesce(sum(balance), 0) FROM wallets) AS wallets,"
        " (SELECT coalesce(sum(stack), 0) FROM seats"
        "  JOIN tables ON tables.id = seats.table_id"
        "  WHERE tables.tournament_id IS NULL) AS seats,"
        " (SELECT coalesce(sum(starting_stack), 0) FROM hand_seats"
        "  JOIN hands ON hands.id = hand_seats.hand_id"
        "  JOIN tables ON tables.id = hands.table_id"
        "  WHERE hands.ended_at IS NULL AND tables.tournament_id IS NULL) AS live_hands,"
        " (SELECT coalesce(sum(prize_pool), 0) FROM tournaments) AS prize_pools",
    )
    assert totals is not None
    result = AuditTotals(
        int(totals["granted"]),
        int(totals["wallets"]),
        int(totals["seats"]),
        int(totals["live_hands"]),
        int(totals["prize_pools"]),
    )
    failures = []
    if result.granted != result.wallets + result.seats + result.live_hands + result.prize_pools:
        failures.append(f"chips not conserved: {result}")
    for description, query in _AUDIT_MISMATCHES:
        bad = await one(db, query)
        if bad is not None:
            failures.append(f"{description}: {dict(bad)}")
    if failures:
        raise AuditFailed("; ".join(failures))
    return result


# Each query returns a row only when something disagrees with the ledger.
_AUDIT_MISMATCHES: tuple[tuple[str, str], ...] = (
    (
        "a wallet balance differs from its ledger",
        """
        SELECT w.guild_id, w.user_id, w.balance, coalesce(l.total, 0) AS ledger
        FROM wallets AS w LEFT JOIN (
            SELECT guild_id, user_id, sum(wallet_delta) AS total FROM ledger GROUP BY 1, 2
        ) AS l USING (guild_id, user_id)
        WHERE w.balance != coalesce(l.total, 0)
        UNION ALL
        SELECT l.guild_id, l.user_id, NULL, l.total
        FROM (SELECT guild_id, user_id, sum(wallet_delta) AS total FROM ledger GROUP BY 1, 2) AS l
        WHERE l.total != 0 AND NOT EXISTS (
            SELECT 1 FROM wallets AS w WHERE w.guild_id = l.guild_id AND w.user_id = l.user_id)
        LIMIT 1
        """,
    ),
    (
        "a seat stack differs from its ledger",
        """
        SELECT s.table_id, s.user_id, s.stack, coalesce(l.total, 0) AS ledger
        FROM seats AS s JOIN tables AS t ON t.id = s.table_id LEFT JOIN (
            SELECT table_id, user_id, sum(seat_delta) AS total FROM ledger
            WHERE table_id IS NOT NULL GROUP BY 1, 2
        ) AS l USING (table_id, user_id)
        WHERE t.tournament_id IS NULL AND s.stack != coalesce(l.total, 0)
        UNION ALL
        SELECT l.table_id, l.user_id, NULL, l.total
        FROM (
            SELECT table_id, user_id, sum(seat_delta) AS total FROM ledger
            WHERE table_id IS NOT NULL GROUP BY 1, 2
        ) AS l JOIN tables AS t ON t.id = l.table_id
        WHERE t.tournament_id IS NULL AND l.total != 0 AND NOT EXISTS (
            SELECT 1 FROM seats AS s WHERE s.table_id = l.table_id AND s.user_id = l.user_id)
        LIMIT 1
        """,
    ),
    (
        # A live hand holds its players' starting stacks; an ended one holds nothing, so a
        # second payout would show here as a negative balance.
        "a hand's chips differ from its ledger",
        """
        SELECT * FROM (
            SELECT h.id, h.ended_at, coalesce(l.total, 0) AS ledger,
                   CASE WHEN h.ended_at IS NULL THEN
                       (SELECT sum(starting_stack) FROM hand_seats WHERE hand_id = h.id)
                   ELSE 0 END AS expected
            FROM hands AS h LEFT JOIN (
                SELECT hand_id, sum(hand_delta) AS total FROM ledger
                WHERE hand_id IS NOT NULL GROUP BY 1
            ) AS l ON l.hand_id = h.id
        ) AS hands_and_ledger
        WHERE ledger != expected
        LIMIT 1
        """,
    ),
    (
        "a hand was paid out more or less than once per player",
        """
        SELECT hs.hand_id, hs.user_id, count(l.id) AS endings
        FROM hand_seats AS hs JOIN hands AS h ON h.id = hs.hand_id
        LEFT JOIN ledger AS l ON l.hand_id = hs.hand_id AND l.user_id = hs.user_id
            AND l.kind IN ('hand_result', 'hand_void')
        GROUP BY hs.hand_id, hs.user_id, h.ended_at
        HAVING count(l.id) != (CASE WHEN h.ended_at IS NULL THEN 0 ELSE 1 END)
        LIMIT 1
        """,
    ),
    (
        "a wallet's seated chips differ from its seats and live hands",
        """
        SELECT w.guild_id, w.user_id, w.seated, coalesce(s.total, 0) + coalesce(h.total, 0)
        FROM wallets AS w
        LEFT JOIN (
            SELECT t.guild_id, s.user_id, sum(s.stack) AS total
            FROM seats AS s JOIN tables AS t ON t.id = s.table_id
            WHERE t.tournament_id IS NULL GROUP BY 1, 2
        ) AS s USING (guild_id, user_id)
        LEFT JOIN (
            SELECT t.guild_id, hs.user_id, sum(hs.starting_stack) AS total
            FROM hand_seats AS hs JOIN hands ON hands.id = hs.hand_id
            JOIN tables AS t ON t.id = hands.table_id
            WHERE hands.ended_at IS NULL AND t.tournament_id IS NULL GROUP BY 1, 2
        ) AS h USING (guild_id, user_id)
        WHERE w.seated != coalesce(s.total, 0) + coalesce(h.total, 0)
        LIMIT 1
        """,
    ),
    (
        # Each server on its own: a chip that moved to another server's books is not conserved
        # there, though the sum over every server still is.
        "a server's chips not conserved",
        """
        SELECT guild_id, sum(granted) AS granted, sum(held) AS held FROM (
            SELECT guild_id, sum(minted) AS granted, 0 AS held FROM ledger GROUP BY 1
            UNION ALL
            SELECT guild_id, 0, sum(balance) FROM wallets GROUP BY 1
            UNION ALL
            SELECT t.guild_id, 0, sum(s.stack) FROM seats AS s
            JOIN tables AS t ON t.id = s.table_id WHERE t.tournament_id IS NULL GROUP BY 1
            UNION ALL
            SELECT t.guild_id, 0, sum(hs.starting_stack) FROM hand_seats AS hs
            JOIN hands AS h ON h.id = hs.hand_id JOIN tables AS t ON t.id = h.table_id
            WHERE h.ended_at IS NULL AND t.tournament_id IS NULL GROUP BY 1
            UNION ALL
            SELECT guild_id, 0, sum(prize_pool) FROM tournaments GROUP BY 1
        ) AS places
        GROUP BY guild_id HAVING sum(granted) != sum(held)
        LIMIT 1
        """,
    ),
    (
        "a ledger row is one server's and its table's or tournament's another's",
        """
        SELECT l.id, l.guild_id, t.guild_id AS table_guild, NULL AS tournament_guild
        FROM ledger AS l JOIN tables AS t ON t.id = l.table_id
        WHERE l.table_id IS NOT NULL AND t.guild_id != l.guild_id
        UNION ALL
        SELECT l.id, l.guild_id, NULL, t.guild_id
        FROM ledger AS l JOIN tournaments AS t ON t.id = l.tournament_id
        WHERE l.tournament_id IS NOT NULL AND t.guild_id != l.guild_id
        LIMIT 1
        """,
    ),
    (
        # The house (user 0, storage/house.py) is funded and emptied by admins and stakes its
        # computer players: it never claims a daily grant, sits at a table or buys in.
        "the house's ledger holds a row that is not a fund, an emptying, a stake or a return",
        """
        SELECT id, guild_id, kind, minted, wallet_delta FROM ledger
        WHERE user_id = 0 AND (
            kind NOT IN ('admin_grant', 'admin_take', 'house_stake', 'house_return')
            OR wallet_delta != minted)
        LIMIT 1
        """,
    ),
    (
        "the house's balance is not the sum of its funds, emptyings, stakes and returns",
        """
        SELECT w.guild_id, w.balance, w.seated, coalesce(l.total, 0) AS ledger
        FROM wallets AS w LEFT JOIN (
            SELECT guild_id, sum(wallet_delta) AS total FROM ledger
            WHERE user_id = 0
                AND kind IN ('admin_grant', 'admin_take', 'house_stake', 'house_return')
            GROUP BY 1
        ) AS l USING (guild_id)
        WHERE w.user_id = 0 AND (w.balance != coalesce(l.total, 0) OR w.seated != 0)
        LIMIT 1
        """,
    ),
    (
        # A stake or a return is a pair of rows written together (one moment, one reason): the
        # house's and a computer player's, of one amount, the chips going from the house to the
        # bot for a stake and back for a return. Pairs written together (a tournament's bots
        # staked at once) are counted as a group: as many house rows as bots' rows, each way
        # right, no person's.
        "a house stake or return is not an equal and opposite pair of the house and a computer"
        " player",
        """
        SELECT guild_id, kind, created_at, reason, abs(minted) AS amount, count(*) AS pair_rows
        FROM ledger WHERE kind IN ('house_stake', 'house_return')
        GROUP BY guild_id, kind, created_at, reason, abs(minted)
        HAVING sum(CASE WHEN user_id = 0 THEN 1 ELSE 0 END)
                != sum(CASE WHEN user_id < 0 THEN 1 ELSE 0 END)
            OR sum(CASE WHEN user_id > 0 THEN 1 ELSE 0 END) != 0
            OR sum(CASE WHEN wallet_delta != minted OR minted = 0 THEN 1 ELSE 0 END) != 0
            OR sum(CASE WHEN (CASE WHEN user_id = 0 THEN -minted ELSE minted END)
                             * (CASE WHEN kind = 'house_stake' THEN 1 ELSE -1 END) <= 0
                   THEN 1 ELSE 0 END) != 0
        LIMIT 1
        """,
    ),
    (
        # Staked as it sits down, it moves the stake straight to its seat; cashed out, its
        # chips go straight back to the house (storage/house.py).
        "a computer player holds chips off the table",
        """
        SELECT w.guild_id, w.user_id, w.balance, w.seated FROM wallets AS w
        WHERE w.user_id < 0 AND (w.balance != 0 OR (w.seated != 0 AND NOT EXISTS (
            SELECT 1 FROM seats AS s JOIN tables AS t ON t.id = s.table_id
            WHERE t.guild_id = w.guild_id AND s.user_id = w.user_id
                AND t.tournament_id IS NULL)))
        LIMIT 1
        """,
    ),
    (
        "chips were granted to or taken from a computer player, not staked by the house",
        """
        SELECT id, guild_id, user_id, kind, minted FROM ledger
        WHERE user_id < 0 AND minted != 0 AND kind NOT IN ('house_stake', 'house_return')
        LIMIT 1
        """,
    ),
    (
        "a player in a live hand has no seat to return to",
        """
        SELECT hs.hand_id, hs.user_id FROM hand_seats AS hs
        JOIN hands ON hands.id = hs.hand_id
        WHERE hands.ended_at IS NULL AND NOT EXISTS (
            SELECT 1 FROM seats AS s WHERE s.table_id = hands.table_id AND s.user_id = hs.user_id)
        LIMIT 1
        """,
    ),
    (
        "a prize pool differs from its ledger",
        """
        SELECT t.id, t.prize_pool, coalesce(l.total, 0) AS ledger
        FROM tournaments AS t LEFT JOIN (
            SELECT tournament_id, sum(pool_delta) AS total FROM ledger
            WHERE tournament_id IS NOT NULL GROUP BY 1
        ) AS l ON l.tournament_id = t.id
        WHERE t.prize_pool != coalesce(l.total, 0)
            OR (t.state IN ('finished', 'cancelled') AND t.prize_pool != 0)
        LIMIT 1
        """,
    ),
    (
        # RULES 11.1: tournament chips never leave the tournament, nor does any come in but a
        # starting stack per entry.
        "a running tournament's chips differ from its entries' starting stacks",
        """
        SELECT t.id, t.starting_stack * e.entries AS expected,
               coalesce(s.total, 0) + coalesce(h.total, 0) AS chips
        FROM tournaments AS t
        JOIN (
            SELECT tournament_id, sum(entries) AS entries FROM tournament_entries GROUP BY 1
        ) AS e ON e.tournament_id = t.id
        LEFT JOIN (
            SELECT tables.tournament_id, sum(seats.stack) AS total
            FROM seats JOIN tables ON tables.id = seats.table_id
            WHERE tables.tournament_id IS NOT NULL GROUP BY 1
        ) AS s ON s.tournament_id = t.id
        LEFT JOIN (
            SELECT tables.tournament_id, sum(hand_seats.starting_stack) AS total
            FROM hand_seats JOIN hands ON hands.id = hand_seats.hand_id
            JOIN tables ON tables.id = hands.table_id
            WHERE hands.ended_at IS NULL AND tables.tournament_id IS NOT NULL GROUP BY 1
        ) AS h ON h.tournament_id = t.id
        WHERE t.state = 'running'
            AND t.starting_stack * e.entries != coalesce(s.total, 0) + coalesce(h.total, 0)
        LIMIT 1
        """,
    ),
    (
        # A freeroll's entry moves no chip: its registration row is its only trace.
        "an entrant's entries differ from his registrations",
        """
        SELECT e.tournament_id, e.user_id, e.entries, coalesce(r.total, 0) AS registered
        FROM tournament_entries AS e LEFT JOIN (
            SELECT tournament_id, user_id, sum(entries) AS total
            FROM tournament_registrations GROUP BY 1, 2
        ) AS r ON r.tournament_id = e.tournament_id AND r.user_id = e.user_id
        WHERE e.entries != coalesce(r.total, 0)
        UNION ALL
        SELECT r.tournament_id, r.user_id, NULL, r.total
        FROM (
            SELECT tournament_id, user_id, sum(entries) AS total
            FROM tournament_registrations GROUP BY 1, 2
        ) AS r
        WHERE r.total != 0 AND NOT EXISTS (
            SELECT 1 FROM tournament_entries AS e
            WHERE e.tournament_id = r.tournament_id AND e.user_id = r.user_id)
        LIMIT 1
        """,
    ),
    (
        # What he paid into the pool may be more (chips he added to it), never less. A
        # cancelled tournament gave every buy-in back and keeps its entries.
        "an entry of a paid tournament was not paid for",
        """
        SELECT e.tournament_id, e.user_id, e.entries, t.buy_in, coalesce(l.paid, 0) AS paid
        FROM tournament_entries AS e JOIN tournaments AS t ON t.id = e.tournament_id
        LEFT JOIN (
            SELECT tournament_id, user_id, sum(pool_delta) AS paid FROM ledger
            WHERE kind IN ('tournament_buy_in', 'tournament_refund') GROUP BY 1, 2
        ) AS l ON l.tournament_id = e.tournament_id AND l.user_id = e.user_id
        WHERE t.state != 'cancelled' AND coalesce(l.paid, 0) < t.buy_in * e.entries
        LIMIT 1
        """,
    ),
    (
        "a prize was paid more than once",
        """
        SELECT tournament_id, user_id, count(*) AS payments FROM ledger
        WHERE kind = 'tournament_prize'
        GROUP BY 1, 2 HAVING count(*) > 1
        LIMIT 1
        """,
    ),
    (
        "a prize paid differs from the prize its entrant won",
        """
        SELECT e.tournament_id, e.user_id, e.prize, coalesce(l.paid, 0) AS paid
        FROM tournament_entries AS e LEFT JOIN (
            SELECT tournament_id, user_id, -sum(pool_delta) AS paid FROM ledger
            WHERE kind = 'tournament_prize' GROUP BY 1, 2
        ) AS l ON l.tournament_id = e.tournament_id AND l.user_id = e.user_id
        WHERE coalesce(e.prize, 0) != coalesce(l.paid, 0)
        UNION ALL
        SELECT l.tournament_id, l.user_id, NULL, -l.paid FROM (
            SELECT tournament_id, user_id, sum(pool_delta) AS paid FROM ledger
            WHERE kind = 'tournament_prize' GROUP BY 1, 2
        ) AS l
        WHERE NOT EXISTS (
            SELECT 1 FROM tournament_entries AS e
            WHERE e.tournament_id = l.tournament_id AND e.user_id = l.user_id)
        LIMIT 1
        """,
    ),
)

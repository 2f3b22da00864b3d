"""The audit: proof that no chip was created or lost. Every chip is in a wallet, on a seat or in
a hand in progress at a cash table, or in a tournament's prize pool, and they add up to the chips
the ledger says were ever granted; each wallet, seat, hand and pool also agrees with its own
ledger rows. A running tournament's chips are its own (RULES 11.1): the stacks on its seats and
in its live hands add up to a starting stack per entry. Reads every table; owns none."""

from __future__ import annotations

from bot.core.storage.backend import Connection
from bot.core.storage.common import one
from bot.core.storage.errors import AuditFailed
from bot.core.storage.models import AuditTotals


async def audit(db: Connection) -> AuditTotals:
    """Check conservation and that every balance equals its ledger history, inside the
    caller's transaction. Raises ``AuditFailed`` naming the first mismatch."""
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
    if result.granted != result.wallets + result.seats + result.live_hands + result.prize_pools:
        raise AuditFailed(f"chips not conserved: {result}")
    for description, query in _AUDIT_MISMATCHES:
        bad = await one(db, query)
        if bad is not None:
            raise AuditFailed(f"{description}: {dict(bad)}")
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
        # The house stakes its computer players and takes their chips back a pair of rows at a
        # time, one leaving a wallet and one entering another (storage/house.py).
        "the house's stakes and returns don't add up to zero",
        """
        SELECT guild_id, sum(minted) AS net FROM ledger
        WHERE kind IN ('house_stake', 'house_return')
        GROUP BY guild_id HAVING sum(minted) != 0
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
)

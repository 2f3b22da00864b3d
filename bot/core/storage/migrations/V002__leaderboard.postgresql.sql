-- The leaderboard ranks wallet + chips at tables. Summing seats per wallet at query time can't meet
-- 5 ms with 100,000 wallets, so each wallet keeps its seated chips (seat stacks plus stacks brought
-- into live hands) and its total, updated in the same transactions that move them; a CHECK keeps
-- the total honest. The total is a plain column, not an expression, so its index covers the rank
-- count (SQLite 3.40 won't treat an expression index as covering). Adding columns with a CHECK over
-- existing rows needs the table rebuilt, in the documented create-copy-drop-rename order.

CREATE TABLE wallets_v2 (
    guild_id      BIGINT NOT NULL,
    user_id       BIGINT NOT NULL,
    balance       BIGINT NOT NULL CHECK (balance >= 0),
    seated        BIGINT NOT NULL CHECK (seated >= 0),
    total         BIGINT NOT NULL,
    created_at    TEXT NOT NULL,
    last_daily_at TEXT,
    PRIMARY KEY (guild_id, user_id),
    CHECK (total = balance + seated)
);

INSERT INTO wallets_v2 (guild_id, user_id, balance, seated, total, created_at, last_daily_at)
WITH at_tables (guild_id, user_id, chips) AS (
    SELECT tables.guild_id, seats.user_id, seats.stack
    FROM seats JOIN tables ON tables.id = seats.table_id
    UNION ALL
    SELECT tables.guild_id, hand_seats.user_id, hand_seats.starting_stack
    FROM hand_seats
    JOIN hands ON hands.id = hand_seats.hand_id
    JOIN tables ON tables.id = hands.table_id
    WHERE hands.ended_at IS NULL
), seated (guild_id, user_id, chips) AS (
    SELECT guild_id, user_id, sum(chips) FROM at_tables GROUP BY guild_id, user_id
)
SELECT w.guild_id, w.user_id, w.balance, coalesce(s.chips, 0),
       w.balance + coalesce(s.chips, 0), w.created_at, w.last_daily_at
FROM wallets AS w LEFT JOIN seated AS s USING (guild_id, user_id);

DROP TABLE wallets;

ALTER TABLE wallets_v2 RENAME TO wallets;

CREATE INDEX wallets_by_total ON wallets (guild_id, total DESC, user_id);

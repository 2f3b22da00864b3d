-- Admins take chips (``admin_take``, a negative ``minted`` out of a wallet only) and start a new
-- season (``season_reset``: each wallet back to the starting chips, the difference minted or
-- burned). /daily counts its streak. The ledger's CHECKs change.
--
-- The constraints are swapped, named as PostgreSQL named them in migration 1.

ALTER TABLE ledger
    DROP CONSTRAINT ledger_kind_check,
    DROP CONSTRAINT ledger_check1,
    ADD CONSTRAINT ledger_kind_check CHECK (kind IN (
                 'starting_grant', 'daily_grant', 'admin_grant', 'admin_take',
                 'season_reset', 'buy_in', 'cash_out', 'hand_start', 'hand_result',
                 'hand_void')),
    ADD CONSTRAINT ledger_minted_check CHECK (CASE
        WHEN kind IN ('starting_grant', 'daily_grant', 'admin_grant') THEN minted > 0
        WHEN kind = 'admin_take' THEN minted < 0
        WHEN kind = 'season_reset' THEN minted != 0
        ELSE minted = 0 END),
    ADD CONSTRAINT ledger_burn_check CHECK (minted >= 0 OR (seat_delta = 0 AND hand_delta = 0));

ALTER TABLE wallets ADD COLUMN daily_streak BIGINT NOT NULL DEFAULT 0 CHECK (daily_streak >= 0);

-- The house. A server's house wallet (user 0) stakes the computer players (negative user ids) and
-- takes back what they cash out: ``house_stake`` and ``house_return`` rows move chips between two
-- wallets, a row each, so each row's ``minted`` is what enters or leaves its wallet and the pair's
-- add up to zero (the audit checks every guild's). The kinds are new to the ledger's CHECKs.
--
-- The constraints are swapped, as in migration 10.

ALTER TABLE ledger
    DROP CONSTRAINT ledger_kind_check,
    DROP CONSTRAINT ledger_minted_check,
    ADD CONSTRAINT ledger_kind_check CHECK (kind IN (
                 'starting_grant', 'daily_grant', 'admin_grant', 'admin_take',
                 'season_reset', 'buy_in', 'cash_out', 'hand_start', 'hand_result',
                 'hand_void', 'house_stake', 'house_return')),
    ADD CONSTRAINT ledger_minted_check CHECK (CASE
        WHEN kind IN ('starting_grant', 'daily_grant', 'admin_grant') THEN minted > 0
        WHEN kind = 'admin_take' THEN minted < 0
        WHEN kind IN ('season_reset', 'house_stake', 'house_return') THEN minted != 0
        ELSE minted = 0 END);

-- Each seated player's time bank, in seconds. NULL is a full one.

ALTER TABLE seats ADD COLUMN time_bank REAL CHECK (time_bank IS NULL OR time_bank >= 0);

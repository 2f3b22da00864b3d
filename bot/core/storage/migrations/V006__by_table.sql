-- A channel's latest table, and that table's ledger rows and hands, found without reading every
-- table's: the session ledger and a player's hands at one table (/history).

CREATE INDEX tables_by_channel ON tables (channel_id, id);

CREATE INDEX ledger_by_table ON ledger (table_id, user_id) WHERE table_id IS NOT NULL;

CREATE INDEX hands_by_table ON hands (table_id, id);

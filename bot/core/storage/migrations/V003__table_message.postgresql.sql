-- The message that shows each table, so a restart can take its buttons away.

ALTER TABLE tables ADD COLUMN message_id BIGINT;

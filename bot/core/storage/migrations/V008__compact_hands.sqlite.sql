-- A hand's state is bytes: ``engine.codec`` packs a hand in about 120 bytes, where its JSON took
-- 1.1 KB. Hands saved before keep their JSON, now as its UTF-8 bytes, which the same decoder reads:
-- an ended hand is history, never rewritten in a new form, and re-encoding years of hands would
-- hold the write lock through a long startup.
--
-- SQLite keeps the column's declared TEXT (changing it means rebuilding the table the ledger
-- references): a BLOB is stored as one whatever the declared type, so only the old values are cast,
-- around the trigger that keeps ended hands unchanged.

DROP TRIGGER hands_ended_are_final;

UPDATE hands SET state = CAST(state AS BLOB) WHERE typeof(state) = 'text';

CREATE TRIGGER hands_ended_are_final BEFORE UPDATE ON hands
        WHEN OLD.ended_at IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'an ended hand cannot change'); END;

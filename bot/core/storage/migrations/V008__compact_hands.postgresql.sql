-- A hand's state is bytes: ``engine.codec`` packs a hand in about 120 bytes, where its JSON took
-- 1.1 KB. Hands saved before keep their JSON, now as its UTF-8 bytes, which the same decoder reads:
-- an ended hand is history, never rewritten in a new form, and re-encoding years of hands would
-- hold the write lock through a long startup.

ALTER TABLE hands ALTER COLUMN state TYPE BYTEA USING convert_to(state, 'UTF8');

-- Every entry into a tournament, and every one given back, a row each
-- (``tournament_registrations``, owned by ``tournaments.py``). A paid entry leaves a buy-in in the
-- ledger. A freeroll's moves no chip, and so left no trace but its ``tournament_entries`` row,
-- which the audit could not count against anything. The audit counts an entrant's entries here.
-- Append-only, as the ledger is: the entries made before it are written in as they stand.

CREATE TABLE tournament_registrations (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       INTEGER NOT NULL,
    entries       INTEGER NOT NULL CHECK (entries != 0),
    created_at    TEXT NOT NULL
);

CREATE INDEX tournament_registrations_by_entrant ON tournament_registrations (tournament_id, user_id);

INSERT INTO tournament_registrations (tournament_id, user_id, entries, created_at) SELECT tournament_id, user_id, entries, registered_at FROM tournament_entries ORDER BY registered_at, tournament_id, user_id;

CREATE TRIGGER tournament_registrations_no_update BEFORE UPDATE
ON tournament_registrations
BEGIN SELECT RAISE(ABORT, 'the registrations are append-only'); END;

CREATE TRIGGER tournament_registrations_no_delete BEFORE DELETE
ON tournament_registrations
BEGIN SELECT RAISE(ABORT, 'the registrations are append-only'); END;

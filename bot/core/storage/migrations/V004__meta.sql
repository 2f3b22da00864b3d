-- Small facts about the process, by key (e.g. the digest of the last command sync).

CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

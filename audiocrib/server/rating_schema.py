"""The part of the server's file that the room's life adds (migration 8 -> 9, `audiocrib.server.schema`): how and
when each table ended, in the order they ended (`audiocrib.server.past_matches`), and each person's rating
(`audiocrib.server.ratings`).

A table that ended before version 9 is given an ending in the order of its number, when it was made (its end was
not kept), and ``won`` when its log holds a `MatchWon`; the ratings of those matches are then worked out from them
in the same transaction (`Store` calls `audiocrib.server.ratings.rebuild`)."""

from __future__ import annotations

__all__ = ["RATINGS", "RATINGS_VERSION"]

RATINGS_VERSION = 9
"""The file's version from which endings and ratings are kept as matches end."""

RATINGS = (
    "CREATE TABLE endings (seq INTEGER PRIMARY KEY, table_id INTEGER NOT NULL UNIQUE REFERENCES tables(id),"
    " ended REAL NOT NULL, how TEXT NOT NULL CHECK (how IN ('won', 'closed')))",
    "INSERT INTO endings (table_id, ended, how) SELECT id, created, CASE WHEN EXISTS (SELECT 1 FROM events"
    " WHERE events.table_id = tables.id AND events.event LIKE '{\"kind\":\"match won\"%') THEN 'won' ELSE 'closed'"
    " END FROM tables WHERE status = 'over' ORDER BY id",
    "CREATE TABLE ratings (player INTEGER PRIMARY KEY REFERENCES players(id), mu REAL NOT NULL,"
    " sigma REAL NOT NULL CHECK (sigma > 0), matches INTEGER NOT NULL CHECK (matches > 0),"
    " before_mu REAL NOT NULL, before_sigma REAL NOT NULL, last_table INTEGER NOT NULL REFERENCES tables(id))",
    "CREATE INDEX ratings_order ON ratings(mu - 3 * sigma)",
)
"""8 -> 9: ``endings`` (``seq`` the order they ended in; ``how``: the match won, or the table closed by its host
or a moderator before that) and ``ratings`` (a person's rating after their last rated match, ``last_table``, and
their rating before it)."""

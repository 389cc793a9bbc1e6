"""The layout of the server's SQLite file (`audiocrib.server.store`): its tables, as version 1 made them, and the
migrations that bring a file of each older version up to `SCHEMA_VERSION`."""

from __future__ import annotations

from audiocrib.server.moderation_schema import MODERATION
from audiocrib.server.rating_schema import RATINGS

__all__ = ["MIGRATIONS", "SCHEMA", "SCHEMA_VERSION"]

SCHEMA_VERSION = 9
"""The layout of the file (SQLite's ``user_version``). A file of an older version is brought up to this one when it
is opened (`MIGRATIONS`, in the same transaction); a newer or unknown one is refused, never changed."""

SCHEMA = """
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    token_hash BLOB NOT NULL UNIQUE,
    created REAL NOT NULL
);
CREATE TABLE tables (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL,
    host INTEGER NOT NULL REFERENCES players(id),
    public INTEGER NOT NULL CHECK (public IN (0, 1)),
    rules TEXT NOT NULL,
    auto_go INTEGER NOT NULL CHECK (auto_go IN (0, 1)),
    status TEXT NOT NULL CHECK (status IN ('open', 'playing', 'over')),
    seed INTEGER NOT NULL,
    created REAL NOT NULL
);
CREATE UNIQUE INDEX tables_code ON tables(code) WHERE status != 'over';
CREATE TABLE seats (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL CHECK (seat >= 0),
    player INTEGER REFERENCES players(id),
    computer TEXT,
    name TEXT NOT NULL,
    PRIMARY KEY (table_id, seat),
    CHECK (player IS NULL OR computer IS NULL)
) WITHOUT ROWID;
CREATE INDEX seats_player ON seats(player) WHERE player IS NOT NULL;
CREATE TABLE games (
    table_id INTEGER PRIMARY KEY REFERENCES tables(id),
    header TEXT NOT NULL
);
CREATE TABLE events (
    table_id INTEGER NOT NULL REFERENCES games(table_id),
    idx INTEGER NOT NULL CHECK (idx >= 0),
    event TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
) WITHOUT ROWID;
CREATE TRIGGER events_in_order BEFORE INSERT ON events
WHEN NEW.idx != (SELECT COALESCE(MAX(idx) + 1, 0) FROM events WHERE table_id = NEW.table_id)
BEGIN SELECT RAISE(ABORT, 'events are appended in order'); END;
CREATE TRIGGER events_kept BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are never changed'); END;
"""
"""Version 1 of the file; a new file is made as version 1, then brought up to date like an old one, so the two
never differ."""

ACCOUNTS_MIGRATION = (
    # 4 -> 5: a token for each computer or browser a player signed in from (`audiocrib.server.accounts`), the one
    # each player had kept as their first; and the Argon2id hash of the password protecting a name (NULL: none).
    # players.token_hash stays (SQLite cannot drop a UNIQUE column) but is no longer read: `tokens` is.
    "CREATE TABLE tokens (hash BLOB PRIMARY KEY, player INTEGER NOT NULL REFERENCES players(id),"
    " created REAL NOT NULL) WITHOUT ROWID",
    "CREATE INDEX tokens_player ON tokens(player)",
    "INSERT INTO tokens (hash, player, created) SELECT token_hash, id, created FROM players",
    "ALTER TABLE players ADD COLUMN password_hash TEXT"
    " CHECK (password_hash IS NULL OR password_hash LIKE '$argon2id$%')",
)

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # 1 -> 2: the move time limit kept with its table, and the computer player keeping a person's seat
        "ALTER TABLE tables ADD COLUMN move_limit INTEGER"
        " CHECK (move_limit IS NULL OR (typeof(move_limit) = 'integer' AND move_limit > 0))",
        "ALTER TABLE seats ADD COLUMN stand_in TEXT CHECK (stand_in IS NULL OR player IS NOT NULL)",
    ),
    (  # 2 -> 3: whether a person's seat has yet to be told how its game ended (none, for the games there were)
        "ALTER TABLE seats ADD COLUMN untold INTEGER NOT NULL DEFAULT 0 CHECK (untold IN (0, 1))",
    ),
    (  # 3 -> 4: a playing table's clocks (`audiocrib.server.clocks`), so a restart goes on with the time left
        "CREATE TABLE clocks (table_id INTEGER PRIMARY KEY REFERENCES tables(id), clocks TEXT NOT NULL)",
    ),
    ACCOUNTS_MIGRATION,
    MODERATION,  # 5 -> 6: moderators' acts, bans, chat mutes, players' own mutes, the operator's requests
    (  # 6 -> 7: whether the host allows the coach's advice at the table (not, for the tables there were)
        "ALTER TABLE tables ADD COLUMN advice INTEGER NOT NULL DEFAULT 0 CHECK (advice IN (0, 1))",
    ),
    (  # 7 -> 8: a table's settings for watchers where the host changed them (`audiocrib.server.watchers`)
        "CREATE TABLE watch_settings (table_id INTEGER PRIMARY KEY REFERENCES tables(id),"
        " allowed INTEGER NOT NULL CHECK (allowed IN (0, 1)), chat INTEGER NOT NULL CHECK (chat IN (0, 1)))",
    ),
    RATINGS,  # 8 -> 9: how and when each table ended, in order, and each person's rating
)
"""``MIGRATIONS[n - 1]`` brings a file of version ``n`` to version ``n + 1``."""

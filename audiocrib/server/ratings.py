"""Each person's rating on a server: worked out by openskill's Plackett-Luce model (Weng-Lin) when a match between
people is won, kept in the store in the same transaction that ends the match, and rebuilt from the stored matches.

Which matches count: a match won (a `MatchWon` in its log; a table closed by its host or a moderator never has
one). Each side is its people (a seat kept a while by a computer player still counts for its person); a side of
computer players only is left out, and the match counts only when at least two sides have people. The winning
side ranks first, the others by game points, then by points in the last game (equal sides share a rank).

A rating is said as one whole number: ``1000 + 20 * (mu - 3 * sigma)``, rounded (`shown`). ``mu - 3 * sigma`` is
openskill's ordinal, the skill the system is nearly sure of; a new player's is 0, so every new player's rating is
1000, and a few matches won move it up as the doubt (``sigma``) shrinks.

>>> from audiocrib.engine.rules import Rules
>>> rated_sides(Rules(players=2), (7, None), 0, (1, 0), (121, 90)) is None  # against a computer player
True
>>> rated_sides(Rules(players=3), (7, 8, None), 2, (0, 0, 1), (100, 110, 121))
([[7], [8]], [2, 1])
>>> shown(NEW_MU, NEW_SIGMA)
1000
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from audiocrib.engine.rules import Rules
from audiocrib.online import messages as m
from audiocrib.online.base import Message
from audiocrib.online.fields import ProtocolError
from audiocrib.online.ratings import (
    TOP_PLAYERS,
    AskRating,
    AskTopPlayers,
    RatedPlayer,
    RatingOf,
    TopPlayers,
    rating_moved,
)
from audiocrib.server.past_matches import match_end
from audiocrib.server.records import name_key

__all__ = ["ASKED", "MODEL", "NEW_MU", "NEW_RATING", "NEW_SIGMA", "Kept", "answer", "computed", "kept", "rate_match",
           "rated_sides", "rating_news", "rating_of", "rebuild", "shown"]

ASKED = (AskTopPlayers, AskRating)
"""The messages `answer` answers."""

MODEL = PlackettLuce()
"""openskill's defaults: mu 25, sigma 25 / 3, beta 25 / 6, tau 25 / 300."""
_log = logging.getLogger(__name__)
NEW_MU: float = MODEL.mu
NEW_SIGMA: float = MODEL.sigma
BASE, SCALE = 1000, 20


def shown(mu: float, sigma: float) -> int:
    """The rating said to players: 1000 for a new player."""
    return max(0, round(BASE + SCALE * (mu - 3 * sigma)))


NEW_RATING = shown(NEW_MU, NEW_SIGMA)


@dataclass(frozen=True, slots=True)
class Kept:
    """A person's rating after ``matches`` rated matches, the last at ``last_table``, with the one before it."""

    mu: float
    sigma: float
    matches: int
    before_mu: float
    before_sigma: float
    last_table: int

    @property
    def number(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def before(self) -> int:
        return shown(self.before_mu, self.before_sigma)


def rated_sides(rules: Rules, players: Sequence[int | None], side: int, match_scores: Sequence[int],
                last_scores: Sequence[int]) -> tuple[list[list[int]], list[int]] | None:
    """The sides that have people (each its people's ids, by seat) and their ranks (1 first), or None when fewer
    than two sides have people. ``players`` is each seat's person (None: a computer player's seat); ``side`` won,
    with ``match_scores`` game points and ``last_scores`` points in the last game for each side."""
    teams: list[list[int]] = []
    keys: list[tuple[int, int, int]] = []
    for each in range(rules.sides):
        people = [p for p in (players[s] for s in rules.seats_of(each)) if p is not None]
        if people:
            teams.append(people)
            keys.append((int(each == side), match_scores[each], last_scores[each]))
    if len(teams) < 2:
        return None
    ranks = [1 + sum(1 for other in keys if other > key) for key in keys]
    return teams, ranks


def rate(ratings: Mapping[int, Kept], teams: list[list[int]], ranks: list[int], table: int) -> dict[int, Kept]:
    """Each person's new rating after this match (``ratings``: those kept before it; a person not in it is new)."""
    before = [[ratings.get(p) for p in team] for team in teams]
    given = [[MODEL.rating(mu=k.mu if k else NEW_MU, sigma=k.sigma if k else NEW_SIGMA) for k in team]
             for team in before]
    after = MODEL.rate(given, ranks=list(ranks))
    changed = {}
    for team, was, now in zip(teams, before, after, strict=True):
        for person, old, new in zip(team, was, now, strict=True):
            changed[person] = Kept(float(new.mu), float(new.sigma), (old.matches if old else 0) + 1,
                                   old.mu if old else NEW_MU, old.sigma if old else NEW_SIGMA, table)
    return changed


def _match(db: sqlite3.Connection, table: int) -> tuple[list[list[int]], list[int]] | None:
    """The rated sides and ranks of a won match, from its row, seats and log (None if it does not count, or its
    rows cannot be read: the same whether rated as it ends or rebuilt, and never a reason to refuse its end)."""
    try:
        return _sides(db, table)
    except (ValueError, KeyError, TypeError, IndexError):  # the engine's errors are ValueErrors
        _log.exception("Table %d: its match could not be read to rate it.", table)
        return None


def _sides(db: sqlite3.Connection, table: int) -> tuple[list[list[int]], list[int]] | None:
    row = db.execute("SELECT rules FROM tables WHERE id = ?", (table,)).fetchone()
    end = match_end(db, table)
    if row is None or end is None:
        return None
    rules = Rules.from_json(json.loads(row[0]))
    players = [p for (p,) in db.execute("SELECT player FROM seats WHERE table_id = ? ORDER BY seat", (table,))]
    if len(players) != rules.players:
        return None
    won, game = end
    return rated_sides(rules, players, won.side, won.match_scores, game.scores)


def kept(db: sqlite3.Connection, people: Iterable[int] | None = None) -> dict[int, Kept]:
    """The ratings kept (of ``people``, or of everyone rated)."""
    sql = "SELECT player, mu, sigma, matches, before_mu, before_sigma, last_table FROM ratings"
    if people is None:
        rows = db.execute(sql).fetchall()
    else:
        wanted = list(people)
        rows = db.execute(f"{sql} WHERE player IN ({', '.join('?' * len(wanted))})", wanted).fetchall()
    return {row[0]: Kept(*row[1:]) for row in rows}


def _write(db: sqlite3.Connection, changed: Mapping[int, Kept]) -> None:
    db.executemany("INSERT OR REPLACE INTO ratings (player, mu, sigma, matches, before_mu, before_sigma, last_table)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?)",
                   [(p, k.mu, k.sigma, k.matches, k.before_mu, k.before_sigma, k.last_table)
                    for p, k in changed.items()])


def rate_match(db: sqlite3.Connection, table: int) -> dict[int, Kept]:
    """Rate the match just won at ``table`` (inside the transaction that wrote its end): the new ratings of its
    people, written, or nothing if it does not count."""
    match = _match(db, table)
    if match is None:
        return {}
    teams, ranks = match
    changed = rate(kept(db, [p for team in teams for p in team]), teams, ranks, table)
    _write(db, changed)
    return changed


def computed(db: sqlite3.Connection) -> dict[int, Kept]:
    """Every rating worked out afresh from the stored matches, in the order they ended (nothing is written)."""
    ratings: dict[int, Kept] = {}
    for (table,) in db.execute("SELECT table_id FROM endings WHERE how = 'won' ORDER BY seq").fetchall():
        match = _match(db, table)
        if match is not None:
            ratings.update(rate(ratings, *match, table))
    return ratings


def _won(db: sqlite3.Connection) -> int:
    count: int = db.execute("SELECT COUNT(*) FROM endings WHERE how = 'won'").fetchone()[0]
    return count


def check_words(db: sqlite3.Connection) -> str:
    """Whether the ratings kept are those the stored matches give, in a sentence (``audiocrib admin ratings``)."""
    fresh, old = computed(db), kept(db)
    wrong = sum(1 for p in fresh.keys() | old.keys() if fresh.get(p) != old.get(p))
    if not wrong:
        return (f"The ratings of {_people(len(old))} are the ones the {_won(db)} matches won give, rebuilt from the"
                " start.")
    return (f"Of {_people(len(fresh.keys() | old.keys()))} rated, {'one has' if wrong == 1 else f'{wrong} have'} a"
            " rating other than the stored matches give; stop the server and run audiocrib admin rebuild-ratings.")


def _people(count: int) -> str:
    return "one player" if count == 1 else f"{count} players"


def rebuild_words(db: sqlite3.Connection) -> str:
    """`rebuild`, said (``audiocrib admin rebuild-ratings``)."""
    wrong = rebuild(db)
    return (f"Rebuilt the ratings of {_people(_rated(db))} from the {_won(db)} matches won;"
            f" {_people(wrong) if wrong else 'nobody'} had another rating before.")


def rebuild(db: sqlite3.Connection) -> int:
    """Work out every rating afresh and keep those (inside a transaction); how many people's rating differed."""
    fresh, old = computed(db), kept(db)
    db.execute("DELETE FROM ratings")
    _write(db, fresh)
    return sum(1 for p in fresh.keys() | old.keys() if fresh.get(p) != old.get(p))


# ----------------------------------------------------------------- what players are told


def rating_of(db: sqlite3.Connection, player: int) -> int | None:
    """A person's rating as said beside their name, or None before their first rated match (every new player's
    would be the same, 1000: it says nothing, and a room that plays no rated match hears no ratings)."""
    row = db.execute("SELECT mu, sigma FROM ratings WHERE player = ?", (player,)).fetchone()
    return None if row is None else shown(*row)


def rating_news(db: sqlite3.Connection, table: int, people: Iterable[int]) -> list[tuple[int, m.Message]]:
    """For each of ``people`` whose rating the match at ``table`` just moved, how it moved (after the match's end)."""
    return [(person, m.Notice(rating_moved(k.before, k.number)))
            for person, k in kept(db, list(people)).items() if k.last_table == table]


def _rated(db: sqlite3.Connection) -> int:
    count: int = db.execute("SELECT COUNT(*) FROM ratings").fetchone()[0]
    return count


def _place(db: sqlite3.Connection, rating: int) -> int:
    """1 + how many rated players are rated higher than ``rating``."""
    low = (rating - BASE - 1) / SCALE  # every ordinal that could be said as more than ``rating``, and a few more
    higher = db.execute("SELECT mu, sigma FROM ratings WHERE mu - 3 * sigma > ?", (low,)).fetchall()
    return 1 + sum(1 for mu, sigma in higher if shown(mu, sigma) > rating)


def answer(db: sqlite3.Connection, player: int, message: Message) -> Message:
    """The answer to `AskTopPlayers` or `AskRating`; a refusal is a `ProtocolError` with its sentence."""
    if isinstance(message, AskTopPlayers):
        rows = db.execute("SELECT p.id, p.name, r.mu, r.sigma, r.matches FROM ratings r JOIN players p"
                          " ON p.id = r.player ORDER BY r.mu - 3 * r.sigma DESC, r.matches DESC, p.name_key"
                          " LIMIT ?", (TOP_PLAYERS,)).fetchall()
        numbers = [shown(mu, sigma) for _, _, mu, sigma, _ in rows]
        top = tuple(RatedPlayer(1 + sum(1 for n in numbers if n > number), name, number, matches)
                    for (_, name, _, _, matches), number in zip(rows, numbers, strict=True))
        own = _rating_of_player(db, player)
        you = None if own.place is None else RatedPlayer(own.place, own.name, own.rating, own.matches)
        return TopPlayers(top, you, _rated(db))
    if isinstance(message, AskRating):
        if message.name is None:
            return _rating_of_player(db, player)
        row = db.execute("SELECT id FROM players WHERE name_key = ?", (name_key(message.name),)).fetchone()
        if row is None:
            raise ProtocolError(f"There is no player called {message.name} on this server.")
        return _rating_of_player(db, row[0])
    raise TypeError(message)


def _rating_of_player(db: sqlite3.Connection, player: int) -> RatingOf:
    """A person's rating, place and last change, as `AskRating` is answered."""
    name = db.execute("SELECT name FROM players WHERE id = ?", (player,)).fetchone()[0]
    found = kept(db, [player]).get(player)
    if found is None:
        return RatingOf(name, NEW_RATING, 0, None, None, _rated(db))
    return RatingOf(name, found.number, found.matches, _place(db, found.number), found.before, _rated(db))

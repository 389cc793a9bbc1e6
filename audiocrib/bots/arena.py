"""The arena: computer players against each other, many games, with the figures that say which is stronger.

Games are played in groups on the same cards, one game for each player: from one game of a group to the next the
players move round one side, so each deals first as often as the others and the luck of the cards cancels out.
Every game's seed comes from the arena's seed, so the same command gives the same result on any machine, with any
number of processes.

>>> result = run_arena(["medium", "beginner"], games=4, seed=1, jobs=1)
>>> result.games, sum(b.wins for b in result.bots)
(4, 4)
>>> print(result.report().splitlines()[0])
medium against beginner: 4 games of six-card cribbage, 2 players, to 121, seed 1
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing import get_context, resource_tracker

from audiocrib.bots.player import PlayerError, drive, load_player
from audiocrib.engine.errors import RulesError
from audiocrib.engine.events import Dealt, GameStarted, GameWon, HandShown, HisHeels, LastCard, Played, ThreeForLast
from audiocrib.engine.game import Game
from audiocrib.engine.rules import Rules

__all__ = [
    "ArenaResult",
    "BotRecord",
    "GameRecord",
    "play_game",
    "player_seed",
    "progress_line",
    "run_arena",
    "seat_players",
    "wilson",
]

ROLES = ("dealer", "pone")
PARTS = ("pegging", "hand", "crib")


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for a share of ``wins`` in ``games``.

    >>> low, high = wilson(560, 1000)
    >>> round(low, 3), round(high, 3)
    (0.529, 0.59)
    """
    if games == 0:
        return 0.0, 1.0
    share = wins / games
    centre = share + z * z / (2 * games)
    spread = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (centre - spread) / scale, (centre + spread) / scale


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What one arena game gives the tally: the winner, skunk, first dealer, and points of every complete deal.

    ``deals`` holds, for each complete deal and each seat, ``(player, role, pegging, hand, crib)``.
    """

    seats: tuple[str, ...]
    winner_seats: tuple[int, ...]
    skunk: str
    first_dealer: int
    deals: tuple[tuple[str, str, int, int, int], ...]


def seat_players(names: Sequence[str], rules: Rules, turn: int) -> tuple[str, ...]:
    """Who sits in each seat: the sides take the players in turn, moved round by ``turn``.

    >>> seat_players(["expert", "medium"], Rules(), 1)
    ('medium', 'expert')
    >>> seat_players(["a:A", "b:B", "c:C"], Rules(players=6, team_size=2), 0)
    ('a:A', 'b:B', 'c:C', 'a:A', 'b:B', 'c:C')
    """
    return tuple(names[(rules.side_of(seat) + turn) % len(names)] for seat in range(rules.players))


def player_seed(seed: int, turn: int, seat: int) -> int:
    """The seed of the player in ``seat`` in the game ``turn`` of the group played on the cards of ``seed``.

    Each game of a group gets its own player seeds: with the same player named twice (self-play), seeds that
    followed the seat alone would make the games of a group one game played again after the swap.

    >>> len({player_seed(5, turn, seat) for turn in range(6) for seat in range(6)})
    36
    """
    return (seed * 8 + turn) * 8 + seat


def play_game(names: Sequence[str], rules: Rules, seed: int, turn: int) -> GameRecord:
    """Play one game with the players ``names`` seated by `seat_players`, each seeded by `player_seed`."""
    seats = seat_players(names, rules, turn)
    players = [load_player(name, seed=player_seed(seed, turn, seat)) for seat, name in enumerate(seats)]
    game = drive(Game(rules, seed=seed), players)
    first_dealer = next(e.dealer for e in game.events if isinstance(e, GameStarted))
    won = next(e for e in game.events if isinstance(e, GameWon))
    deals: list[tuple[str, str, int, int, int]] = []
    points: list[list[int]] = []
    dealer = first_dealer
    for event in game.events:
        if isinstance(event, Dealt):
            dealer = event.dealer
            points = [[0, 0, 0] for _ in seats]
        elif isinstance(event, Played | LastCard | HisHeels | ThreeForLast) and points:
            points[event.seat][0] += event.points
        elif isinstance(event, HandShown):
            points[event.seat][2 if event.crib else 1] += event.points
            if event.crib:  # the crib is shown last: the deal is complete
                for seat, (peg, hand, crib) in enumerate(points):
                    role = "dealer" if seat == dealer else "pone"
                    deals.append((seats[seat], role, peg, hand, crib))
    return GameRecord(seats, rules.seats_of(won.side), won.skunk, first_dealer, tuple(deals))


@dataclass(slots=True)
class BotRecord:
    """One player's tally over the arena."""

    name: str
    games: int = 0
    wins: int = 0
    skunks: dict[str, int] = field(default_factory=dict)
    deals: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ROLES, 0))
    points: dict[str, list[int]] = field(default_factory=lambda: {role: [0, 0, 0] for role in ROLES})

    def per_deal(self, role: str) -> tuple[float, float, float]:
        """Average pegging, hand and crib points per complete deal in ``role``."""
        deals = self.deals[role] or 1
        peg, hand, crib = self.points[role]
        return peg / deals, hand / deals, crib / deals

    def to_json(self) -> dict[str, object]:
        """A JSON-ready summary."""
        low, high = wilson(self.wins, self.games)
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.wins / self.games if self.games else 0.0,
            "interval": [low, high],
            "skunks": dict(self.skunks),
            "per_deal": {
                role: dict(zip(PARTS, self.per_deal(role), strict=True)) | {"deals": self.deals[role]}
                for role in ROLES
            },
        }


@dataclass(slots=True)
class ArenaResult:
    """The tally of an arena run."""

    names: tuple[str, ...]
    rules: Rules
    seed: int
    games: int = 0
    bots: list[BotRecord] = field(default_factory=list)
    first_dealer_wins: int = 0

    def add(self, record: GameRecord) -> None:
        """Count one game."""
        self.games += 1
        by_name = {bot.name: bot for bot in self.bots}
        for name in set(record.seats):
            by_name[name].games += 1
        winner = by_name[record.seats[record.winner_seats[0]]]
        winner.wins += 1
        if record.skunk:
            winner.skunks[record.skunk] = winner.skunks.get(record.skunk, 0) + 1
        if record.first_dealer in record.winner_seats:
            self.first_dealer_wins += 1
        for name, role, peg, hand, crib in record.deals:
            bot = by_name[name]
            bot.deals[role] += 1
            for index, value in enumerate((peg, hand, crib)):
                bot.points[role][index] += value

    def report(self) -> str:
        """The result as plain lines, to be read or heard."""
        lines = [
            f"{' against '.join(self.names)}: {self.games} games of {self.rules.describe()}, seed {self.seed}"
        ]
        for bot in self.bots:
            low, high = wilson(bot.wins, bot.games)
            share = bot.wins / bot.games if bot.games else 0.0
            skunks = ", ".join(f"{n} {name}{'s' if n != 1 else ''}" for name, n in sorted(bot.skunks.items()))
            lines.append(
                f"{bot.name} won {bot.wins} of {bot.games} games, {100 * share:.1f}% "
                f"(95% interval {100 * low:.1f} to {100 * high:.1f}); {skunks or 'no skunks'}."
            )
        low, high = wilson(self.first_dealer_wins, self.games)
        share = self.first_dealer_wins / self.games if self.games else 0.0
        lines.append(
            f"The first dealer won {100 * share:.1f}% of games (95% interval {100 * low:.1f} to {100 * high:.1f})."
        )
        lines.append("Points per complete deal: pegging, hand, crib, total.")
        for bot in self.bots:
            for role in ROLES:
                peg, hand, crib = bot.per_deal(role)
                lines.append(
                    f"{bot.name} as {role}: {peg:.2f}, {hand:.2f}, {crib:.2f}, {peg + hand + crib:.2f} "
                    f"over {bot.deals[role]} deals."
                )
        return "\n".join(lines)

    def to_json(self) -> dict[str, object]:
        """A JSON-ready summary."""
        low, high = wilson(self.first_dealer_wins, self.games)
        return {
            "names": list(self.names),
            "rules": self.rules.to_json(),
            "seed": self.seed,
            "games": self.games,
            "first_dealer_wins": self.first_dealer_wins,
            "first_dealer_interval": [low, high],
            "bots": [bot.to_json() for bot in self.bots],
        }

    def dumps(self) -> str:
        """The summary as JSON text."""
        return json.dumps(self.to_json(), indent=1)


_Task = tuple[tuple[str, ...], Rules, int, int]


def _job(args: _Task) -> GameRecord:
    names, rules, seed, turn = args
    return play_game(names, rules, seed, turn)


def _jobs(names: tuple[str, ...], rules: Rules, games: int, seed: int) -> Iterator[_Task]:
    for index in range(games):
        yield names, rules, seed * 1_000_003 + index // len(names), index % len(names)


def run_arena(
    names: Sequence[str],
    games: int = 1000,
    rules: Rules | None = None,
    seed: int = 1,
    jobs: int | None = None,
    progress: Callable[[ArenaResult], None] | None = None,
) -> ArenaResult:
    """Play ``games`` games between the players ``names`` (levels or ``module:Class``) and tally them.

    ``jobs`` processes play at once (every core by default); ``progress`` is called after every tenth of the run.
    """
    rules = rules or Rules()
    unique = tuple(dict.fromkeys(names))
    if len(unique) < 2 or len(unique) != len(names):
        raise PlayerError("The arena needs two or more different players.")
    if len(unique) > rules.sides:
        raise RulesError(f"This table has {rules.sides} sides, too few for {len(unique)} different players.")
    for name in unique:
        load_player(name)  # a name that is not a player fails here, before any process starts
    result = ArenaResult(unique, rules, seed, bots=[BotRecord(name) for name in unique])
    step = max(1, games // 10)
    workers = max(1, jobs or os.cpu_count() or 1)
    tasks = _jobs(unique, rules, games, seed)
    if workers == 1:
        records: Iterator[GameRecord] = map(_job, tasks)
        _tally(result, records, step, progress)
    else:
        with _ctrl_c_held():
            pool = get_context("spawn").Pool(workers, initializer=_leave_ctrl_c_to_the_parent)
        with pool:
            _tally(result, pool.imap(_job, tasks, chunksize=8), step, progress)
    return result


@contextlib.contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Start the workers deaf to Ctrl C: a process started while Ctrl C is ignored starts ignoring it, so one
    pressed while a worker is still starting Python cannot stop it halfway with a traceback. Meanwhile the
    parent holds Ctrl C back where the system can (not on Windows), and gets it as soon as the workers are
    started."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set a signal's handling
        return
    hold = getattr(signal, "pthread_sigmask", None)
    if hold is not None:
        # The pool starts multiprocessing's resource tracker if it is not running, and unblocks Ctrl C after
        # (dropping one held meanwhile, while it is ignored): started first, it is left alone.
        resource_tracker.ensure_running()
    held = hold(signal.SIG_BLOCK, {signal.SIGINT}) if hold is not None else None
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler)
        if hold is not None and held is not None:
            hold(signal.SIG_SETMASK, held)


def _leave_ctrl_c_to_the_parent() -> None:
    """In each worker: Ctrl C (which a terminal sends to every process of the run) is for the parent, which stops
    the pool and says one sentence; a worker ignoring it prints no traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _tally(
    result: ArenaResult, records: Iterator[GameRecord], step: int, progress: Callable[[ArenaResult], None] | None
) -> None:
    for record in records:
        result.add(record)
        if progress is not None and result.games % step == 0:
            progress(result)


def progress_line(result: ArenaResult) -> None:
    """Print a one-line progress report on standard error."""
    leader = result.bots[0]
    share = leader.wins / leader.games if leader.games else 0.0
    print(f"{result.games} games played; {leader.name} has won {100 * share:.1f}%.", file=sys.stderr, flush=True)

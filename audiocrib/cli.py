"""The ``audiocrib`` command: ``score`` a hand, weigh the ``discards``, print the exhaustive ``table`` of hands or
cribs, or set computer players against each other in the ``arena``.

Every error is one sentence on stderr and exit status 2.

>>> main(["score", "7H", "8H", "8C", "2D", "--starter", "5S"])
fifteen for 2: 7H 8C (running total 2)
fifteen for 2: 7H 8H (running total 4)
fifteen for 2: 2D 5S 8C (running total 6)
fifteen for 2: 2D 5S 8H (running total 8)
a pair for 2: 8C 8H (running total 10)
said: fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten
total: 10
0
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence
from functools import partial
from typing import NoReturn

from audiocrib import __version__
from audiocrib.arena import progress_line, run_arena
from audiocrib.cards import Card, cards_text, parse_cards
from audiocrib.crib import crib_value
from audiocrib.discards import analyse
from audiocrib.errors import AudiocribError, CardError
from audiocrib.player import PlayerError
from audiocrib.rules import Rules, Variant
from audiocrib.scoring import score_hand
from audiocrib.tables import table_lines
from audiocrib.words import count_aloud, item_phrase

__all__ = ["main"]


class _UsageError(Exception):
    pass


_CHOICE = re.compile(r"argument (?:--)?([\w-]+): invalid choice: '?([^' ]*)'?")
_NUMBER = re.compile(r"argument (?:--)?([\w-]+): invalid int value: '([^']*)'")


def _sentence(message: str) -> str:
    """argparse's complaint as one sentence that reads well aloud."""
    if message.startswith("the following arguments are required:"):
        missing = message.split(":", 1)[1]
        if "cards" in missing:
            return "Give 3, 4 or 5 cards and the starter, like: audiocrib score 5H 5D 5S JC --starter 5C."
        if "--starter" in missing:
            return "Give the starter with --starter, like --starter 5C."
        if "which" in missing:
            return "Say which table: audiocrib table hands, or audiocrib table cribs."
    if message.startswith("one of the arguments --dealer --pone is required"):
        return "Say whose crib it is: --dealer for yours, --pone for your opponent's."
    choice = _CHOICE.match(message)
    if choice is not None:
        what, given = choice.groups()
        if what == "which":
            return f"There is no table of {given}; say hands or cribs."
        if what == "variant":
            return f"{given} is not a form of cribbage; say five-card, six-card or seven-card."
        if what == "teams":
            return f"Teams of {given} cannot be made; teams are of 2 or 3 players."
        if what == "lay":
            return f"You cannot lay away {given}; say 1 or 2."
        return f"{given} is not a command; the commands are score, discards, table and arena."
    number = _NUMBER.match(message)
    if number is not None:
        what, given = number.groups()
        return f"The {what} must be a whole number, not {given}."
    if message.startswith("unrecognized arguments:"):
        return f"audiocrib does not know {message.split(':', 1)[1].strip()}."
    return message[0].upper() + message[1:].rstrip(".") + "."


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _UsageError(_sentence(message))


def _parser() -> argparse.ArgumentParser:
    shell = _Parser(add_help=False)
    shell.add_argument("--speech", choices=["auto", "screenreader", "tts", "none"],
                       help="auto (the default) tries your screen reader, then the built-in voice, then text lines;"
                       " none leaves the reading to your screen reader")
    shell.add_argument("--transcript", metavar="FILE", help="append every announcement to FILE as a line")
    shell.add_argument("--rate", type=int, help="built-in voice rate, words a minute (100 to 400)")
    shell.add_argument("--volume", type=int, help="built-in voice volume, percent (10 to 100)")
    shell.add_argument("--verbosity", choices=["brief", "normal", "full"], help="how much is said (normal)")
    shell.add_argument("--pace", type=float, help="seconds between the computer players' moves (1.5)")
    shell.add_argument("--no-text", action="store_true", help="do not print announcements while speech works")
    shell.add_argument("--no-sound", action="store_true", help="no sound cues (F2 also turns them off and on)")
    shell.add_argument("--sound-volume", type=int, help="sound cue volume, percent (10 to 100; 80)")
    shell.add_argument("--seed", type=int, help="the same seed deals the same cards")
    shell.add_argument("--data-dir", metavar="DIR",
                       help="keep the settings, the game in progress, statistics and practice figures in DIR")
    parser = _Parser(prog="audiocrib", parents=[shell],
                     description="Cribbage played by ear. With no command, starts the game.")
    parser.add_argument("--version", action="version", version=f"audiocrib {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.add_parser("play", parents=[shell], help="start the game (the same as no command)")

    score = commands.add_parser("score", help="count a hand or crib: audiocrib score 5H 5D 5S JC --starter 5C")
    score.add_argument("cards", nargs="+", help="3, 4 or 5 cards, like 5H TD 10d jc")
    score.add_argument("--starter", required=True, help="the starter card")
    score.add_argument("--crib", action="store_true", help="count it as a crib (a flush needs the starter too)")
    score.add_argument("--json", action="store_true", help="print JSON")

    discards = commands.add_parser(
        "discards", help="every way to lay away, best first: audiocrib discards 5H 5S 5C JD 4H 6C --dealer"
    )
    discards.add_argument("cards", nargs="+", help="the cards dealt: 5, 6 or 7 of them")
    role = discards.add_mutually_exclusive_group(required=True)
    role.add_argument("--dealer", action="store_true", help="the crib is yours")
    role.add_argument("--pone", action="store_true", help="the crib is your opponent's")
    discards.add_argument("--lay", type=int, choices=[1, 2], help="how many to lay away (default: 2 from 5 to 7"
                          " cards dealt to two players; say 1 for tables of three or more)")
    discards.add_argument("--crib-cards", type=int, choices=[4, 5], help="cards in the crib (default 4, or 5 for"
                          " six cards laid away one: the six-player table; say 4 for seven-card with four players)")
    discards.add_argument("--json", action="store_true", help="print JSON")

    table = commands.add_parser("table", help="the exact score distribution of all 12,994,800 hands or cribs")
    table.add_argument("which", choices=["hands", "cribs"], help="hands or cribs")

    arena = commands.add_parser("arena", help="computer players against each other: audiocrib arena expert medium")
    arena.add_argument("names", nargs="+", metavar="player",
                       help="two or more levels (beginner, easy, medium, expert) or module:Class")
    arena.add_argument("--games", type=int, default=1000, help="how many games (default 1000)")
    arena.add_argument("--variant", choices=[v.value for v in Variant], default="six-card", help="default six-card")
    arena.add_argument("--players", type=int, default=2, help="players at the table, 2 to 6 (default 2)")
    arena.add_argument("--teams", type=int, choices=[2, 3], help="play in teams of 2 or 3")
    arena.add_argument("--target", type=int, default=0, help="points to win (default: the variant's own)")
    arena.add_argument("--seed", type=int, default=1, help="the same seed gives the same result (default 1)")
    arena.add_argument("--jobs", type=int, help="processes at once (default: every core)")
    arena.add_argument("--quiet", action="store_true", help="no progress lines")
    arena.add_argument("--json", action="store_true", help="print JSON")
    return parser


def _score(args: argparse.Namespace) -> int:
    hand = parse_cards(args.cards)
    starter = Card.parse(args.starter)
    score = score_hand(hand, starter, crib=args.crib)
    if args.json:
        print(json.dumps(score.to_json()))
        return 0
    running = 0
    for item in score.items:
        running += item.points
        print(f"{item_phrase(item)} for {item.points}: {cards_text(item.cards)} (running total {running})")
    print(f"said: {count_aloud(score)}")
    print(f"total: {score.total}")
    return 0


def _discards(args: argparse.Namespace) -> int:
    hand = parse_cards(args.cards)
    if len(hand) not in (5, 6, 7):
        raise CardError(f"Give the 5, 6 or 7 cards you were dealt, not {len(hand)}.")
    lay = args.lay or 2
    dealer = bool(args.dealer)
    crib_size = args.crib_cards or (5 if lay == 1 and len(hand) == 6 else 4)  # six players make a crib of five
    options = analyse(hand, lay, dealer=dealer, crib_value=partial(crib_value, crib_size=crib_size))
    if args.json:
        print(json.dumps({"dealer": dealer, "options": [o.to_json() for o in options]}))
        return 0
    sign = "+" if dealer else "-"
    for option in options:
        crib = f"crib {sign}{option.expected_crib or 0.0:.2f}"
        print(f"lay away {cards_text(option.discard)}, keep {cards_text(option.keep)}: "
              f"hand {option.expected_hand:.2f}, {crib}, net {option.net:.2f}")
    return 0


def _arena(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise PlayerError("The arena needs at least one game.")
    if args.jobs is not None and args.jobs < 1:
        raise PlayerError("The arena needs at least one process.")
    rules = Rules(players=args.players, variant=Variant(args.variant), team_size=args.teams or 1, target=args.target)
    progress = None if args.quiet or args.games < 100 else progress_line
    result = run_arena(args.names, args.games, rules, args.seed, args.jobs, progress)
    print(result.dumps() if args.json else result.report())
    return 0


def _play(args: argparse.Namespace) -> int:
    if args.rate is not None and not 100 <= args.rate <= 400:
        raise _UsageError("The voice rate is from 100 to 400 words a minute.")
    if args.volume is not None and not 10 <= args.volume <= 100:
        raise _UsageError("The voice volume is from 10 to 100 percent.")
    if args.sound_volume is not None and not 10 <= args.sound_volume <= 100:
        raise _UsageError("The sound volume is from 10 to 100 percent.")
    if args.pace is not None and not 0 <= args.pace <= 10:
        raise _UsageError("The pace is from 0 to 10 seconds.")
    from pathlib import Path

    from audiocrib.shell.main import play

    return play(
        speech=args.speech, transcript=args.transcript, rate=args.rate, volume=args.volume,
        verbosity=args.verbosity, pace=args.pace, seed=args.seed,
        folder=Path(args.data_dir) if args.data_dir else None, show_text=not args.no_text,
        sound=not args.no_sound, sound_volume=args.sound_volume,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
        if args.command == "score":
            return _score(args)
        if args.command == "discards":
            return _discards(args)
        if args.command == "arena":
            return _arena(args)
        if args.command == "table":
            print("\n".join(table_lines(crib=args.which == "cribs")))
            return 0
        return _play(args)
    except (_UsageError, AudiocribError) as error:
        print(f"audiocrib: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (``audiocrib table hands | head``): stop quietly
        # Python's own recipe: point stdout at nothing, so flushing at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1

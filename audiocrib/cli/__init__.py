"""The ``audiocrib`` command: ``score`` a hand, weigh the ``discards``, print the exhaustive ``table`` of hands or
cribs, set computer players against each other in the ``arena``, ``serve`` tables to friends, serve their browser
page from a gateway process (``web``, `audiocrib.cli.gateway`), and ``backup`` and ``restore`` the server's store.

Every error is one sentence on stderr and exit status 2: a value that is wrong is named with its option and what
the option takes, and is shown only as plain printable text (escaped, and cut short when long).

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
from pathlib import Path
from typing import Any

from audiocrib import __version__
from audiocrib.bots.arena import progress_line, run_arena
from audiocrib.bots.crib import crib_value
from audiocrib.bots.discards import analyse
from audiocrib.cli.admin import add_admin, admin
from audiocrib.cli.backup import add_backup_commands, back_up, restore
from audiocrib.cli.gateway import add_web, web
from audiocrib.cli.usage import (
    BIGGEST,
    DECIMAL,
    SPEECH,
    TAKES,
    VARIANTS,
    VERBOSITY,
    Parser,
    UsageError,
    bad,
    check_data_dir,
    check_transcript,
    choice,
    clean,
    shown,
    whole,
)
from audiocrib.engine.cards import Card, cards_text, parse_cards
from audiocrib.engine.errors import AudiocribError, CardError
from audiocrib.engine.rules import Rules, Variant
from audiocrib.engine.scoring import score_hand
from audiocrib.engine.tables import table_lines
from audiocrib.telling.words import count_aloud, item_phrase

__all__ = ["TAKES", "main"]


_GAME = {  # option: (argparse's name for it, its help)
    "--speech": ("speech", "auto (the default) leaves the reading to a running screen reader, else the built-in"
                 " voice, else text lines; none leaves the reading to your screen reader; screenreader speaks"
                 " through it; tts uses the built-in voice"),
    "--transcript": ("transcript", "append every announcement to FILE as a line"),
    "--rate": ("rate", "built-in voice rate, words a minute (100 to 400)"),
    "--volume": ("volume", "built-in voice volume, percent (10 to 100)"),
    "--verbosity": ("verbosity", "how much is said: brief, normal (the default) or full"),
    "--pace": ("pace", "seconds between the computer players' moves (0 to 10; 1.5)"),
    "--no-text": ("no_text", "do not print announcements while speech works"),
    "--no-sound": ("no_sound", "no sound cues (F2 also turns them off and on)"),
    "--sound-volume": ("sound_volume", "sound cue volume, percent (10 to 100; 80)"),
    "--seed": ("game_seed", "the same seed deals the same cards (a whole number of up to 18 digits)"),
    "--data-dir": ("data_dir", "keep the settings, the game in progress, statistics and practice figures in DIR"),
}
_METAVARS = {"--transcript": "FILE", "--data-dir": "DIR", "--speech": "MODE", "--verbosity": "LEVEL",
             "--pace": "SECONDS", "--rate": "WPM", "--volume": "PERCENT", "--sound-volume": "PERCENT"}


def _game_options(parser: argparse.ArgumentParser, given_only: bool) -> None:
    """Add the game's options; with ``given_only`` (``play``'s own) an option left out does not hide the same
    option given before the command (``audiocrib --rate 300 play``)."""
    for option, (dest, help_text) in _GAME.items():
        if option.startswith("--no-"):
            parser.add_argument(option, dest=dest, action="store_true", help=help_text,
                                default=argparse.SUPPRESS if given_only else False)
        else:
            parser.add_argument(option, dest=dest, metavar=_METAVARS.get(option, option[2:].upper()),
                                help=help_text, default=argparse.SUPPRESS if given_only else None)


def _parser() -> argparse.ArgumentParser:
    parser = Parser(prog="audiocrib", description="Cribbage played by ear. With no command, starts the game.")
    _game_options(parser, given_only=False)
    parser.add_argument("--version", action="version", version=f"audiocrib {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    _game_options(commands.add_parser("play", help="start the game (the same as no command)"), given_only=True)
    online = commands.add_parser("online", help="play on a server: audiocrib online [ADDRESS]")
    online.add_argument("address", nargs="?", default="", help="the server's address, such as localhost or"
                        " 192.168.1.20:4121 (default: the one used last time)")
    _game_options(online, given_only=True)

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
    discards.add_argument("--lay", help="how many to lay away, 1 or 2 (default: 2 from 5 to 7 cards dealt to two"
                          " players; say 1 for tables of three or more)")
    discards.add_argument("--crib-cards", help="cards in the crib, 4 or 5 (default 4, or 5 for six cards laid"
                          " away one: the six-player table; say 4 for seven-card with four players)")
    discards.add_argument("--json", action="store_true", help="print JSON")

    table = commands.add_parser("table", help="the exact score distribution of all 12,994,800 hands or cribs")
    table.add_argument("which", help="hands or cribs")

    arena = commands.add_parser("arena", help="computer players against each other: audiocrib arena expert medium")
    arena.add_argument("names", nargs="+", metavar="player",
                       help="two or more levels (beginner, easy, medium, expert) or module:Class")
    arena.add_argument("--games", default="1000", help="how many games, 1 to 1,000,000 (default 1000)")
    arena.add_argument("--variant", default="six-card", help="five-card, six-card (the default) or seven-card")
    arena.add_argument("--players", default="2", help="players at the table, 2 to 6 (default 2)")
    arena.add_argument("--teams", help="play in teams of 2 or 3")
    arena.add_argument("--target", default="0", help="points to win, 31 to 1000 (default: the variant's own)")
    arena.add_argument("--seed", default="1", help="the same seed gives the same result (default 1)")
    arena.add_argument("--jobs", help="processes at once (default and most: one for each core)")
    arena.add_argument("--quiet", action="store_true", help="no progress lines")
    arena.add_argument("--json", action="store_true", help="print JSON")

    serve = commands.add_parser("serve", help="run a server where friends play each other: audiocrib serve")
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this"
                       " computer only; 0.0.0.0 for every address)")
    serve.add_argument("--port", default=str(DEFAULT_PORT), help=f"the port (default {DEFAULT_PORT}; 0 picks a free"
                       " one)")
    serve.add_argument("--data-dir", dest="server_dir", metavar="DIR", help="keep the server's players, tables and"
                       " games in DIR (default: a folder 'server' in audiocrib's data folder)")
    serve.add_argument("--certfile", metavar="FILE", help="a TLS certificate (PEM): connections are encrypted")
    serve.add_argument("--keyfile", metavar="FILE", help="the certificate's private key (PEM)")
    serve.add_argument("--password-file", metavar="FILE", help="a file holding the password friends must give")
    serve.add_argument("--trust-proxy", metavar="ADDRESS", action="append", default=[], help="a reverse proxy's"
                       " address or network (repeatable): its X-Forwarded-For names each player's address")
    serve.add_argument("--moderator", action="append", metavar="NAME", help="a player who may kick, mute, ban and"
                       " close tables (give it again for each; protect the name with a password)")
    serve.add_argument("--moderators", metavar="FILE", help="a file of moderators' names, one a line")
    serve.add_argument("--most-tabs", metavar="N", help="browser tabs the server's own page takes at once (default"
                       " 500; 0 leaves the page to gateways: audiocrib web)")
    add_web(commands)
    add_backup_commands(commands)
    add_admin(commands)
    return parser


def _not_for_the_game(args: argparse.Namespace) -> None:
    """Refuse the game's options given before another command, where they would silently do nothing."""
    for option, (dest, _) in _GAME.items():
        if getattr(args, dest, None) not in (None, False):
            if option == "--seed" and args.command == "arena":
                raise UsageError("Give the arena's --seed after its players, like: audiocrib arena expert medium"
                                  " --seed 5.")
            raise UsageError(f"{option} is an option of the game, not of {args.command}.")


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
    lay = 2 if args.lay is None else int(choice("--lay", args.lay, ("1", "2")))
    crib_cards = None if args.crib_cards is None else int(choice("--crib-cards", args.crib_cards, ("4", "5")))
    if crib_cards == 5 and lay != 1:  # the five-card crib is the six-player table's, where each lays away one
        raise UsageError("--crib-cards 5 is for tables where each player lays away one card; add --lay 1.")
    hand = parse_cards(args.cards)
    if len(hand) not in (5, 6, 7):
        raise CardError(f"Give the 5, 6 or 7 cards you were dealt, not {len(hand)}.")
    dealer = bool(args.dealer)
    crib_size = crib_cards or (5 if lay == 1 and len(hand) == 6 else 4)  # six players make a crib of five
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


def _table(args: argparse.Namespace) -> int:
    if args.which not in ("hands", "cribs"):
        raise UsageError(f"There is no table of {shown(args.which)}; say hands or cribs.")
    print("\n".join(table_lines(crib=args.which == "cribs")))
    return 0


DEFAULT_PORT = 4121
"""The server's port unless told: cribbage's 121 points."""
_HOST = re.compile(r"[A-Za-z0-9.:_-]{1,253}")


def _serve(args: argparse.Namespace) -> int:
    if _HOST.fullmatch(args.host) is None:
        raise bad("--host", args.host)
    port = whole("--port", args.port, 0, 65535)
    if args.server_dir is not None:
        check_data_dir(args.server_dir)
    if (args.certfile is None) != (args.keyfile is None):
        raise UsageError("Give --certfile and --keyfile together: the certificate and its private key.")
    import platformdirs

    from audiocrib.server.proxy import Proxies
    from audiocrib.server.serve import (
        ServeError,
        Settings,
        check_file,
        check_moderator,
        read_moderators,
        read_password,
        serve,
    )

    try:
        for option, value in (("--certfile", args.certfile), ("--keyfile", args.keyfile)):
            if value is not None:
                check_file(option, value)
        password = None if args.password_file is None else read_password(args.password_file)
        moderators = [check_moderator("--moderator", name) for name in args.moderator or ()]
        moderators += [] if args.moderators is None else read_moderators(args.moderators)
    except ServeError as error:
        raise UsageError(str(error)) from None
    folder = (Path(args.server_dir) if args.server_dir is not None else
              Path(platformdirs.user_data_dir("audiocrib", appauthor=False)) / "server")
    certfile, keyfile = (None if f is None else Path(f) for f in (args.certfile, args.keyfile))
    try:
        proxies = Proxies.of(args.trust_proxy)
    except ValueError as error:
        raise UsageError(str(error)) from None
    settings = Settings(args.host, port, folder.absolute(), certfile, keyfile, password, proxies=proxies,
                        moderators=tuple(dict.fromkeys(moderators)))
    most_tabs = None if args.most_tabs is None else whole("--most-tabs", args.most_tabs, 0, 100_000)
    try:
        from audiocrib.web.routes import pages_for

        return serve(settings, partial(print, flush=True), pages_for(most_tabs))
    except ServeError as error:
        raise UsageError(str(error)) from None


def _arena(args: argparse.Namespace) -> int:
    games = whole("--games", args.games, 1, 1_000_000)
    variant = Variant(choice("--variant", args.variant, VARIANTS))
    players = whole("--players", args.players, 2, 6)
    teams = 1 if args.teams is None else int(choice("--teams", args.teams, ("2", "3")))
    target = whole("--target", args.target, 0, 1000)
    if 0 < target < 31:
        raise bad("--target", args.target)
    seed = whole("--seed", args.seed, -BIGGEST, BIGGEST)
    cores = os.cpu_count() or 1
    asked = cores if args.jobs is None else whole("--jobs", args.jobs, 1, BIGGEST)
    rules = Rules(players=players, variant=variant, team_size=teams, target=target)
    progress = None if args.quiet or games < 100 else progress_line
    # More processes than cores (or games) only wait their turn; --jobs 100000 once started processes without end.
    result = run_arena(args.names, games, rules, seed, min(asked, cores, games), progress)
    print(result.dumps() if args.json else result.report())
    return 0


def _game_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The game's options, checked: the keyword arguments of `audiocrib.shell.main.play`."""
    pace = None
    if args.pace is not None:
        if DECIMAL.fullmatch(args.pace) is None or not 0 <= float(args.pace) <= 10:
            raise bad("--pace", args.pace)
        pace = float(args.pace)
    return {
        "speech": None if args.speech is None else choice("--speech", args.speech, SPEECH),
        "verbosity": None if args.verbosity is None else choice("--verbosity", args.verbosity, VERBOSITY),
        "rate": None if args.rate is None else whole("--rate", args.rate, 100, 400),
        "volume": None if args.volume is None else whole("--volume", args.volume, 10, 100),
        "sound_volume": None if args.sound_volume is None else whole("--sound-volume", args.sound_volume, 10, 100),
        "pace": pace,
        "seed": None if args.game_seed is None else whole("--seed", args.game_seed, -BIGGEST, BIGGEST),
        "show_text": not args.no_text,
        "sound": not args.no_sound,
    }



def _play(args: argparse.Namespace) -> int:
    settings = _game_settings(args)
    if args.data_dir is not None:
        check_data_dir(args.data_dir)
    if args.transcript is not None:
        check_transcript(args.transcript)
    if sys.stdin is None or not sys.stdin.isatty():
        raise UsageError("The game is played in a terminal, and audiocrib's input is not one; score, discards,"
                          " table and arena work without one.")
    from audiocrib.shell.main import play

    folder = Path(args.data_dir) if args.data_dir is not None else None
    online: str | None = None
    if args.command == "online":
        online = args.address
        if online:
            from audiocrib.client.address import read_address

            try:
                read_address(online)
            except ValueError as error:
                raise UsageError(str(error)) from None
    return play(transcript=args.transcript, folder=folder, online=online, **settings)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
        if args.command in (None, "play", "online"):
            return _play(args)
        _not_for_the_game(args)
        command = {"score": _score, "discards": _discards, "table": _table, "arena": _arena,
                   "serve": _serve, "web": web, "backup": back_up, "restore": restore, "admin": admin}[args.command]
        return command(args)
    except (UsageError, AudiocribError) as error:
        print(f"audiocrib: {clean(str(error))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl+C in a long arena run: stop with a line, not a traceback
        print("audiocrib: Stopped.", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (``audiocrib table hands | head``): stop quietly
        # Python's own recipe: point stdout at nothing, so flushing at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1

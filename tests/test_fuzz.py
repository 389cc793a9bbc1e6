"""A keystroke fuzz of the real shell: thousands of random key sequences through prompt_toolkit's pipe input.

Every sequence goes into the real application (`audiocrib.shell.app.run_session`) as the bytes a terminal sends:
the keys the shell knows (every key of `KEY_NAMES`, and other escape sequences terminals send for some of them) and
keys it does not know (other characters, F3 to F12, control and alt keys, page up and down, delete, insert, tab,
unknown escape sequences, stray UTF-8 and high bytes, a paste). A sequence (1 to 40 keys) is sent either key by key,
each key after the last was answered, or all at once in one write, like a cat on the keyboard. After each one:

- nothing raised (in a key, the counting timer or a computer player's move) and the application still runs; it
  quits only on a key that quits (keys sent one by one are steered around those, but a burst may pick one, as a
  player may; then a fresh program starts, on the same save file, and the fuzz goes on);
- every key press the application read reached the session (for a burst: as many presses as prompt_toolkit's
  parser makes of its bytes) and each one was answered with at least one spoken sentence while it was handled;
- the game is in a legal state (its state is what replaying its log gives; now and then, and at the end of each
  program, reloading it from JSON gives the same state and ``tests/invariants.py`` accepts it), the session is at
  one of the known moments, and the history keys answer from the history.

Besides the random sequences the fuzz now and then plays on sensibly (so games reach the show, their end and the
end of the match), goes where random keys seldom go (the practice drills, the settings, the sound test, the table
setup, the statistics), moves the counting clock on, and quits on purpose (by each way there is). It is
deterministic: each test's keys come from a generator seeded with its table and seed, and nothing is sent while the
computer players move. A failure names the table, the seeds and the exact bytes sent to the program that failed;
`replay` sends them again. The bugs it found are at the end, as tests, fixed.

The whole file takes about a minute on two idle cores (most of it prompt_toolkit handling some 35,000 key presses).
"""

from __future__ import annotations

import asyncio
import io
import random
import string
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding import KeyBindings, KeyPress
from prompt_toolkit.keys import Keys
from prompt_toolkit.output import DummyOutput

from audiocrib.engine.events import CountRequested
from audiocrib.engine.game import Game
from audiocrib.engine.rules import Variant
from audiocrib.engine.scoring import score_hand
from audiocrib.shell.announcer import Announcer
from audiocrib.shell.app import KEY_NAMES, run_session
from audiocrib.shell.drills import DRILL_KEYS
from audiocrib.shell.session import Mode, Session
from audiocrib.shell.settings import Settings
from audiocrib.shell.tablesetup import TableSetup
from audiocrib.speech import RecordingSpeaker
from tests.shell_driver import KEY_BYTES, FakeClock, RecordingPlayer, Table, lay_away_first, play_a_card, run


def _shared_invariants() -> Callable[[Game], object] | None:
    """``tests.invariants.check_game`` when that module exists (it is written apart from this file)."""
    try:
        from tests.invariants import check_game
    except ModuleNotFoundError as error:
        if error.name != "tests.invariants":
            raise
        return None
    return check_game


CHECK_GAME = _shared_invariants()

# ---------------------------------------------------------------------------------------------------- the tables
TABLES: dict[str, TableSetup] = {
    "two-six-card": TableSetup(target=61, match_games=2, levels=("beginner",)),
    "three-manual-count-timer-muggins": TableSetup(
        players=3, target=61, manual_counting=True, count_timer=15, muggins=True, wrong_muggins=2,
        levels=("easy", "beginner")),
    "four-in-teams-five-card": TableSetup(
        players=4, teams=2, variant=Variant.FIVE_CARD, levels=("beginner", "easy", "beginner")),
    "two-seven-card": TableSetup(variant=Variant.SEVEN_CARD, target=61, levels=("easy",)),
    "six-in-teams-of-two": TableSetup(players=6, teams=2, target=61,
                                      levels=("beginner", "easy", "beginner", "easy", "beginner")),
}
"""The tables the fuzz starts at, with short games so that it sees games end (it may change them in the table
setup menu, as a player may)."""
KEEPING = frozenset({"two-six-card", "three-manual-count-timer-muggins"})
"""The tables whose programs keep their files (the game in progress after every move, the statistics, the practice
figures) in the test's folder, so quitting and starting again resumes the game. The others keep nothing (no save
path), which is quicker, and covers "save and quit" with nowhere to save."""
SEEDS = (1, 2, 3, 4)
RANDOM_SEQUENCES = 160
"""Random key sequences per table and seed: 5 tables x 4 seeds x 160 = 3,200."""
THOROUGH = 0.1
"""How often a moved game is also reloaded from JSON and checked against the shared invariants (slow: every move
is played again) besides the end of each program."""
BURSTS = 0.6
"""How often a random sequence is written all at once rather than key by key."""

KNOWN_BUGS: dict[str, str] = {}
"""Bugs found and not yet fixed, by the last line of their traceback. A key sent one at a time is steered around
them; when a burst runs into one, that program is ended and a fresh one started (each has its own strict xfail
test below, which fails once the bug is fixed: then delete the entry here and the steering in `Fuzz.steered`)."""

# ---------------------------------------------------------------------------------------------------- the keys
def key_bytes(key: str) -> bytes:
    """What a terminal sends for the prompt_toolkit key ``key`` ("enter", "c-j", "q")."""
    if key in KEY_BYTES:
        return KEY_BYTES[key].encode()
    if key.startswith("c-") and len(key) == 3 and key[2].isalpha():
        return bytes([ord(key[2]) & 0x1F])  # control and a letter
    if len(key) == 1:
        return key.encode()
    raise KeyError(f"the fuzz does not know what a terminal sends for {key!r}: teach key_bytes")


KNOWN_KEYS: tuple[bytes, ...] = tuple(key_bytes(key) for key in KEY_NAMES if key != "c-c")
"""Every key the shell has a name for, as a terminal sends it (Control C quits at once: only sent on purpose)."""
OTHER_BYTES_FOR_KNOWN_KEYS: dict[str, tuple[str, ...]] = {
    "backspace": ("\x08",), "up": ("\x1bOA",), "down": ("\x1bOB",),
    "right": ("\x1bOC",), "left": ("\x1bOD",), "home": ("\x1b[1~", "\x1bOH", "\x1b[7~"),
    "end": ("\x1b[4~", "\x1bOF", "\x1b[8~"), "f1": ("\x1b[11~",), "f2": ("\x1b[12~",),
}
"""What other terminals send for some keys the shell knows (application cursor keys, rxvt, the VT220 keypad)."""
FAVOURED: dict[str, int] = {"enter": 8, "space": 3, "left": 2, "right": 2, "up": 2, "down": 2,
                            **{digit: 2 for digit in "1234567"}}
"""Extra weight for the keys that move things on, so the random keys get well into the games. (Escape has none: a
lone Escape waits for the escape timeout, and Escape also comes first in the alt keys and unknown sequences.)"""
UNKNOWN_CHARACTERS = tuple(string.punctuation + string.ascii_uppercase)
FUNCTION_KEYS = ("\x1bOR", "\x1bOS", "\x1b[15~", "\x1b[17~", "\x1b[18~", "\x1b[19~", "\x1b[20~", "\x1b[21~",
                 "\x1b[23~", "\x1b[24~")
"""F3 to F12."""
CONTROL_KEYS = tuple(chr(code) for code in (*range(0, 27), *range(28, 32)) if code != 3)
"""Control and a letter (and Control @, backslash, bracket, caret, underscore), but Control C (which quits)."""
EDITING_KEYS = ("\x1b[5~", "\x1b[6~", "\x1b[3~", "\x1b[2~", "\t", "\x1b[Z", "\x1b[1;5A", "\x1b[1;5D", "\x1b[1;2C",
                "\x1b[3;5~", "\x1b[E")
"""Page up and down, delete, insert, tab, shift tab, control and shift arrows, control delete, keypad 5."""
ALT_ARROWS = ("\x1b[1;3A", "\x1b[1;3B", "\x1b[1;3C", "\x1b[1;3D")
"""Alt and an arrow, which prompt_toolkit reads as Escape and the arrow (as it reads alt and a letter)."""
STRAY_TEXT = ("é", "ß", "€", "Ω", "日", "🂡", "\u00a0", "\u200b", "\u0301")
HIGH_BYTES = (b"\x80", b"\xa0", b"\xbf", b"\xc0", b"\xfe", b"\xff")
"""Bytes that are never valid UTF-8 where they stand (Latin-1 and eight-bit-meta terminals send such bytes); none
starts a longer UTF-8 sequence, so none waits for more input."""
ESCAPE_AT_ONCE = b"\x1br"
"""Escape and r written together, for the fuzz's own way out of a menu: a lone Escape is read only after the escape
timeout (50 ms); followed at once by r (which repeats the last message, everywhere) it is read at once."""
NOT_KEY_PRESSES = frozenset({Keys.Vt100MouseEvent, Keys.WindowsMouseEvent, Keys.CPRResponse})
"""What the parser may make of the bytes that is not a key press (mouse reports, cursor position reports): the
fuzz does not send these shapes (see `test_mouse_shaped_bytes_in_a_burst_do_not_stop_the_keys`). The wheel's
scroll up and down (``\\x1b[62~``, ``\\x1b[63~``) reach the session as the up and down arrows."""
GAME_MOMENTS = ("discard", "play", "count", "review", "waiting", "over")
MOMENTS = frozenset({*(mode.value for mode in Mode if mode not in (Mode.GAME, Mode.DRILL)), *GAME_MOMENTS,
                     *DRILL_KEYS})
"""Every moment the session can be at: a menu, a moment of the game, or a moment of a drill."""


def _bound_names() -> dict[object, str]:
    """The session's name of each key prompt_toolkit may report, from the bindings `KEY_NAMES` makes in app.py."""
    bindings = KeyBindings()
    names: dict[object, str] = {}
    for key, name in KEY_NAMES.items():
        bindings.add(key)(lambda event: None)
        names[bindings.bindings[-1].keys[0]] = name
    return names


BOUND_NAMES = _bound_names()


def named_key(name: str) -> bytes:
    """The bytes for a key the shell names (or ``"escape and r"``: `ESCAPE_AT_ONCE`)."""
    return ESCAPE_AT_ONCE if name == "escape and r" else key_bytes(name)


def parse(data: bytes) -> list[KeyPress]:
    """The key presses prompt_toolkit's terminal input makes of ``data`` written at once (decoded as its reader
    decodes, then parsed and flushed as after the escape timeout)."""
    presses: list[KeyPress] = []
    parser = Vt100Parser(presses.append)
    parser.feed(data.decode("utf-8", "surrogateescape"))
    parser.flush()
    return presses


def held_back(data: bytes) -> bool:
    """True if the parser keeps the end of ``data`` waiting for more (a lone Escape): it is handled only after the
    escape timeout, by when the computer players may have moved, so a burst must not end that way."""
    presses: list[KeyPress] = []
    parser = Vt100Parser(presses.append)
    parser.feed(data.decode("utf-8", "surrogateescape"))
    return len(presses) != len(parse(data))


def handled_presses(data: bytes) -> int:
    """How many key presses the session should receive for ``data``."""
    return sum(1 for press in parse(data) if press.key not in NOT_KEY_PRESSES)


def first_name(data: bytes) -> str | None:
    """The session's name for the first key press in ``data`` (None for a key it has no name for)."""
    presses = parse(data)
    return BOUND_NAMES.get(presses[0].key) if presses else None


def unknown(keys: Sequence[str | bytes]) -> tuple[bytes, ...]:
    """Those of ``keys`` the shell has no name for (as it gains names, they leave the unknown keys)."""
    data = [key.encode() if isinstance(key, str) else key for key in keys]
    return tuple(key for key in data if all(press.key not in BOUND_NAMES for press in parse(key)))


def _weighted_known_keys() -> tuple[bytes, ...]:
    keys = list(KNOWN_KEYS)
    for name, weight in FAVOURED.items():
        keys += [key_bytes(name)] * weight
    for others in OTHER_BYTES_FOR_KNOWN_KEYS.values():
        keys += [other.encode() for other in others]
    return tuple(keys)


WEIGHTED_KNOWN_KEYS = _weighted_known_keys()
UNKNOWN_KEYS = tuple(unknown(keys) for keys in (UNKNOWN_CHARACTERS, FUNCTION_KEYS, CONTROL_KEYS, EDITING_KEYS,
                                                STRAY_TEXT, HIGH_BYTES))
"""The keys of each kind the shell has no name for, one press each (for one in nine unknown keys each)."""


def random_key(rng: random.Random) -> bytes:
    """One key: three times in four a key the shell knows, else one it does not (never a mouse or cursor report)."""
    while True:
        key = _random_key(rng)
        if all(press.key not in NOT_KEY_PRESSES for press in parse(key)):
            return key


def _random_key(rng: random.Random) -> bytes:
    if rng.random() < 0.75:
        return rng.choice(WEIGHTED_KNOWN_KEYS)
    kind = rng.randrange(len(UNKNOWN_KEYS) + 3)
    if kind < len(UNKNOWN_KEYS):
        return rng.choice(UNKNOWN_KEYS[kind])
    if kind == len(UNKNOWN_KEYS):  # alt and a letter, digit or arrow: Escape, then the key
        return rng.choice(("\x1b" + rng.choice(string.ascii_lowercase + string.digits), *ALT_ARROWS)).encode()
    if kind == len(UNKNOWN_KEYS) + 1:  # escape sequences no terminal key sends; the parser splits them up
        return rng.choice(("\x1b[99~", f"\x1b[{rng.randrange(100)}~", "\x1bO" + rng.choice("GIJKLNTUVWXYZ"),
                           f"\x1b[{rng.randrange(10)};{rng.randrange(10)}~")).encode()
    pasted = "".join(rng.choice(string.ascii_letters + string.digits + " \r") for _ in range(rng.randrange(1, 12)))
    return f"\x1b[200~{pasted}\x1b[201~".encode()  # a bracketed paste: one key press


def random_keys(rng: random.Random) -> list[bytes]:
    """1 to 40 keys, short bursts more often than long ones (7 on average; one in seven is longer than 20)."""
    return [random_key(rng) for _ in range(1 + int(rng.random() ** 5 * 40))]


def random_burst(rng: random.Random) -> bytes:
    """Random keys to write at once, none of them read as a mouse or cursor report, not ending on a held key.

    Two bursts in three have no Escape in them (nor alt keys or unknown escape sequences, which begin with one):
    Escape opens the game menu, and a burst going on there often picks one of its ways to quit, which ends the
    program (it is then started again, which is slow)."""
    escapes = rng.random() < 1 / 3
    while True:
        keys = random_keys(rng)
        if not escapes:
            keys = [key if parse(key)[0].key != Keys.Escape else b"z" for key in keys]
        data = b"".join(keys)
        if held_back(data):
            data += b"h"  # the lone Escape becomes Escape and h
        if len(data) < 1000 and all(press.key not in NOT_KEY_PRESSES for press in parse(data)):
            return data  # one read of the pipe takes it all


# ---------------------------------------------------------------------------------------------------- the program
@dataclass
class Pressed:
    """One key press the session handled: the key, where it was pressed, and how many sentences answered it."""

    key: str
    mode: Mode
    moment: str
    item: str | None
    answers: int
    stamp: int = -1
    """How many events the game had when the key was pressed (-1: no game)."""

    @property
    def quits(self) -> bool:
        """Whether this press is one of the ways to quit."""
        return (self.key == "c-c" or (self.mode is Mode.MAIN and self.key == "escape")
                or (self.key in ("enter", "space") and self.mode in (Mode.MAIN, Mode.GAME_MENU)
                    and self.item is not None and self.item.endswith("quit")))


class Fault(AssertionError):
    """Something the fuzz checks went wrong."""


class Reported(Fault):
    """A fault with what it takes to see it again."""


class KnownBug(Exception):
    """The program ran into one of the `KNOWN_BUGS`."""


@dataclass
class Program:
    """One run of the real application on a pipe, with the session's entry points watched.

    The watch wraps the session's ``press`` and ``tick``, and each offline table's ``bot_move`` and
    ``apply_bot_move`` as the session sits at it (the application looks them up at each call): each key press is
    recorded with the number of sentences said while it was handled, and anything raised in them is kept
    (prompt_toolkit would only print it, or the pacer would swallow it).
    """

    session: Session
    speaker: RecordingSpeaker
    pipe: PipeInput
    clock: FakeClock
    seed: int
    task: asyncio.Future[None] | None = None
    pressed: list[Pressed] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    ticks: int = 0
    log: list[tuple[str, object]] = field(default_factory=list)
    """Everything done to this program, in order: ("keys", [bytes, ...]) sent one by one, ("burst", bytes) written
    at once, ("clock", seconds) the clock moved on, ("pace", 0.0) the pace put back to none."""
    checked: tuple[tuple[int, int], tuple[int, int]] = ((0, -1), (0, -1))
    """The game (its id and length) last checked, and last checked thoroughly."""
    scanned: int = 0
    """How many of the things said were looked through for a computer player's failure."""
    news: asyncio.Event = field(default_factory=asyncio.Event)
    """Set whenever something was handled (a key, a move, the end, a tick that said something or was awaited), so
    the fuzz waits without polling."""
    wants_tick: bool = False
    resumable: bool = False
    """Whether a saved game was waiting when the program started."""

    @property
    def said(self) -> list[str]:
        return self.speaker.said

    def watch(self) -> None:
        """Wrap the session's entry points."""
        session = self.session
        press, tick = session.press, session.tick

        loop = asyncio.get_running_loop()

        def watched_press(key: str) -> None:
            try:
                mode, moment = session.mode, session.moment
                items = session._items() if mode not in (Mode.GAME, Mode.DRILL) else ()
                item = items[session.menu_index % len(items)] if items else None
                before = len(self.said)
                stamp = len(session.table.game.events) if session.table is not None else -1
                quiet = session.quiet_refusals
                press(key)
            except BaseException:
                error = traceback.format_exc()
                self.errors.append(f"pressing {key!r}:\n{error}")
                if not any(bug in error for bug in KNOWN_BUGS):
                    raise
                return  # a known bug: not handed on to prompt_toolkit (which would take the terminal over with it)
            finally:
                watch_table()
                self.news.set()
            answers = len(self.said) - before + (session.quiet_refusals - quiet)  # a burst's buzz answers too
            self.pressed.append(Pressed(key, mode, moment, item, answers, stamp))

        def watched_tick() -> None:  # every few milliseconds: news only when it said something, or is awaited
            self.ticks += 1
            before = len(self.said)
            try:
                tick()
            except BaseException:
                self.errors.append(f"the timer's tick:\n{traceback.format_exc()}")
                self.news.set()
                raise
            if self.wants_tick or len(self.said) != before or session.finished:
                self.news.set()

        def watch_table() -> None:  # a new game or a resumed one: a new table, its computer players watched
            table = session.table
            if table is None or getattr(table, "watched", False):
                return
            table.watched = True  # type: ignore[union-attr]
            bot_move, apply_bot_move = table.bot_move, table.apply_bot_move  # type: ignore[union-attr]

            def watched_bot_move() -> object:  # in a worker thread
                try:
                    return bot_move()
                except BaseException:
                    self.errors.append(f"a computer player's move:\n{traceback.format_exc()}")
                    loop.call_soon_threadsafe(self.news.set)
                    raise

            def watched_apply_bot_move(stamp: int, action: object, ready: Callable[[], bool]) -> None:
                try:
                    apply_bot_move(stamp, action, ready)
                except BaseException:
                    self.errors.append(f"applying a computer player's move:\n{traceback.format_exc()}")
                    raise
                finally:
                    self.news.set()

            table.bot_move = watched_bot_move  # type: ignore[union-attr]
            table.apply_bot_move = watched_apply_bot_move  # type: ignore[union-attr]

        session.press = watched_press  # type: ignore[method-assign]
        session.tick = watched_tick  # type: ignore[method-assign]

    async def start(self) -> None:
        """Run the application and wait for its first words."""
        self.watch()
        self.task = asyncio.ensure_future(run_session(self.session, input=self.pipe, output=DummyOutput()))
        self.task.add_done_callback(lambda task: self.news.set())
        await self.until(lambda: bool(self.said), "the program never spoke")

    async def until(self, condition: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
        """Wait until ``condition`` holds (looking again at each news, and every few milliseconds anyway) or the
        program ended."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not condition():
            if self.errors or (self.task is not None and self.task.done()):
                return
            if loop.time() > end:
                raise Fault(f"{what} (waited {timeout} seconds)")
            self.news.clear()
            try:
                await asyncio.wait_for(self.news.wait(), 0.01)
            except TimeoutError:
                pass

    async def settle(self) -> None:
        """Wait until the computer players have moved and nothing more is due (as the shell driver does)."""
        await self.until(lambda: not self.session.bot_waiting() or self.session.finished,
                         "the computer players did not finish moving", timeout=60)
        await asyncio.sleep(0)

    async def send(self, data: bytes) -> None:
        """Write ``data`` at once; wait until every key press in it was handled (or the program quit) and the
        computer players have moved."""
        want = self.session.keys_pressed + handled_presses(data)
        self.pipe.send_bytes(data)
        await self.until(lambda: self.session.keys_pressed >= want or self.session.finished,
                         f"{want - self.session.keys_pressed} key presses of {data!r} were not handled")
        await self.settle()
        if self.session.keys_pressed > want:
            raise Fault(f"{self.session.keys_pressed - want} more key presses than the parser makes of {data!r}")

    async def stop(self) -> None:
        """End the program (if still running) and wait for it."""
        if self.task is None:
            return
        if not self.task.done():
            self.session.finished = True  # the pacer sees this and ends the application
        try:
            await asyncio.wait_for(self.task, 10)
        except Exception:
            self.errors.append(f"the application ended with:\n{traceback.format_exc()}")


def new_program(setup: TableSetup, seed: int, save_path: Path | None, pipe: PipeInput) -> Program:
    """A fresh session on ``pipe`` with a recording speaker and sound player, a hand-moved clock, and no pause
    between the computer players' moves."""
    speaker = RecordingSpeaker()
    clock = FakeClock()
    session = Session(Announcer(speaker, io.StringIO()), settings=Settings(pace=0.0, typed_ahead=0.0),
                      setup=setup, seed=seed,
                      save_path=save_path, clock=clock, player=RecordingPlayer())
    program = Program(session, speaker, pipe, clock, seed)
    program.resumable = save_path is not None and save_path.exists()
    return program


# ---------------------------------------------------------------------------------------------------- the fuzz
@dataclass
class Fuzz:
    """The fuzz of one table and seed: programs run one after another (a new one when the last quit)."""

    table: str
    seed: int
    save_path: Path | None
    rng: random.Random
    program: Program | None = None
    programs: int = 0
    sequences: int = 0
    keys: int = 0
    presses: int = 0
    quits: int = 0
    known: int = 0
    done: list[str] = field(default_factory=list)
    moments: Counter[str] = field(default_factory=Counter)
    """Key presses handled at each moment, over all the programs."""

    def fail(self, problem: str) -> None:
        """Stop with ``problem`` and what it takes to see it again."""
        assert self.program is not None
        program = self.program
        log = "\n".join(f"    {entry!r}," for entry in program.log[-60:])
        recent = "\n".join(f"    {p}" for p in program.pressed[-15:])
        errors = "\n".join(program.errors)
        said = "\n".join(f"    {line!r}" for line in program.said[-12:])
        waiting = " (a game saved by the program before was waiting at its start)" if program.resumable else ""
        raise Reported(
            f"{problem}\n"
            f"table {self.table!r}, test seed {self.seed}, program {self.programs} (session seed {program.seed})"
            f"{waiting}, after {self.sequences} random sequences; to run it again: pytest "
            f"'tests/test_fuzz.py::test_random_keys_never_break_the_shell[{self.table}-{self.seed}]'\n"
            f"sent to this program ({len(program.log)} steps; the last 60), for replay():\n{log}\n"
            f"the last key presses handled:\n{recent}\nthe last things said:\n{said}\n{errors}")

    async def begin(self, pipe: PipeInput) -> None:
        """Start a fresh program on ``pipe``."""
        self.programs += 1
        self.program = new_program(TABLES[self.table], self.seed * 1000 + self.programs, self.save_path, pipe)
        await self.program.start()
        self.check_alive()

    def check_alive(self) -> None:
        """No error was kept and the application still runs (its quitting is checked where a key quits it)."""
        program = self.program
        assert program is not None
        if program.errors and all(any(bug in error for bug in KNOWN_BUGS) for error in program.errors):
            raise KnownBug(program.errors[0].strip().splitlines()[-1])
        if program.errors:
            self.fail("an exception escaped")
        if program.task is not None and program.task.done():
            self.fail("the application stopped")
        if program.session.finished:
            self.fail("the session finished though no key quit it")
        if any("failed to move" in line for line in program.said[program.scanned:]):
            self.fail("a computer player failed to move")
        program.scanned = len(program.said)

    def check_presses(self, since: int) -> None:
        """Every key press handled since ``since`` was answered by at least one sentence."""
        assert self.program is not None
        told: set[int] = set()  # the waits in which Enter has said whom it waits for
        for index, pressed in enumerate(self.program.pressed):
            hurry = pressed.moment == "waiting" and pressed.key == "enter"
            if hurry and pressed.answers:
                told.add(pressed.stamp)
            elif hurry and pressed.stamp in told:
                continue  # Enter again in the same wait: the computer's move, made at once, is the answer
            elif pressed.answers < 1 and index >= since:
                self.fail(f"the key {pressed.key!r} at {pressed.moment} got no answer")
        for line in self.program.said[-50:]:
            if not (line.isascii() and line.isprintable()):
                self.fail(f"an answer that is not plain ASCII: {line!r}")

    def quit_ended(self, since: int) -> bool:
        """True if the program quit: then a key handled since ``since`` must be one that quits, and the last."""
        program = self.program
        assert program is not None
        if not program.session.finished:
            return False
        if not any(pressed.quits for pressed in program.pressed[since:]):
            self.fail("the program quit though no key asked it to")
        if not program.pressed[-1].quits:
            self.fail("keys were handled after a key that quits")
        return True

    async def check_state(self) -> None:
        """The session's moment is known, the game is legal, and the history keys answer from the history."""
        program = self.program
        assert program is not None
        session = program.session
        try:
            moment = session.moment
            session.bindings()
        except Exception:
            self.fail(f"the session cannot say its moment or keys:\n{traceback.format_exc()}")
        if moment not in MOMENTS:
            self.fail(f"an unknown moment {moment!r}")
        if session.mode in (Mode.GAME, Mode.GAME_MENU) and session.table is None:
            self.fail(f"{session.mode.value} without a game")
        game = getattr(session.table, "game", None)
        if game is not None:
            self.check_game(game)
        if session.mode is Mode.GAME and moment == "discard":
            hand = session.view().hand
            need = session.view().must_discard
            if not set(session.marked) <= set(hand) or len(session.marked) > need:
                self.fail(f"marked {session.marked} of {hand} (lay away {need})")
        await self.check_history()

    def check_game(self, game: Game, thorough: bool = False) -> None:
        """The game's state is what its log gives (each time it moved); its log is legal from the first move to the
        last (reloading it from JSON plays every move again) and keeps the shared invariants, which is checked now
        and then (``thorough``: now) and at the end of each program: the log only grows, so a later check covers
        every earlier moment."""
        program = self.program
        assert program is not None
        stamp = (id(game), len(game.events))
        thorough = thorough or self.rng.random() < THOROUGH
        if stamp == program.checked[0] and (not thorough or stamp == program.checked[1]):
            return
        try:
            state = game.state_key()
            replayed = game.replayed().state_key()
            reloaded = Game.from_json(game.to_json()).state_key() if thorough else state
            if thorough and CHECK_GAME is not None:
                CHECK_GAME(game)
        except Exception:
            self.fail(f"the game cannot be replayed, reloaded or checked:\n{traceback.format_exc()}")
        if replayed != state:
            self.fail(f"replaying the game's log gives another state:\n{replayed}\n!=\n{state}")
        if reloaded != state:
            self.fail(f"reloading the game from JSON gives another state:\n{reloaded}\n!=\n{state}")
        program.checked = (stamp, stamp if thorough else program.checked[1])

    async def check_history(self) -> None:
        """r repeats the last message; now and then < > comma and period step through the history as they should."""
        program = self.program
        assert program is not None
        if program.session.mode is Mode.TYPING:  # a line being typed (Play online): these keys type themselves
            return
        history = program.session.announcer.history
        expected = [("r", history.last())]
        if self.rng.random() < 0.1:
            messages = history.messages
            expected += [("<", messages[0]), (">", messages[-1])]
            if len(messages) > 1:
                expected += [(",", messages[-2]), (".", messages[-1])]
        kept = len(history)
        for key, answer in expected:
            await self.press_one(key.encode(), steer=False)
            if program.said[-1] != answer:
                self.fail(f"the history key {key!r} said {program.said[-1]!r}, not {answer!r}")
        if len(history) != kept:
            self.fail("the history keys' answers went into the history")

    def steered(self, key: bytes) -> bytes:
        """``key``, or an arrow instead when it would quit now or slow the computer players down (the pace)."""
        assert self.program is not None
        session = self.program.session
        name = first_name(key)
        items = session._items() if session.mode not in (Mode.GAME, Mode.DRILL) else ()
        item = items[session.menu_index % len(items)] if items else None
        if Pressed(name or "", session.mode, "", item, 0).quits:
            return KEY_BYTES["down" if session.mode is Mode.MAIN else "up"].encode()
        if session.mode is Mode.SETTINGS and item == "pace" and name in ("right", "enter", "space"):
            return KEY_BYTES["down"].encode()
        return key

    async def press_one(self, key: bytes, steer: bool = True) -> None:
        """Send one key (which may make several presses: alt and a letter), after the last was answered."""
        program = self.program
        assert program is not None
        if steer:
            key = self.steered(key)
        before, since = len(program.said), len(program.pressed)
        quiet = program.session.quiet_refusals
        await program.send(key)
        self.keys += 1
        if program.errors:
            self.check_alive()
        if self.quit_ended(since):
            return
        self.check_alive()
        self.check_presses(since)
        if len(program.said) <= before and program.session.quiet_refusals == quiet:  # a burst's buzz answers too
            self.fail(f"the key {key!r} was not answered")

    async def random_sequence(self) -> bool:
        """One random sequence, key by key or all at once; False if the program quit."""
        program = self.program
        assert program is not None
        self.sequences += 1
        if self.rng.random() < BURSTS:
            data = random_burst(self.rng)
            program.log.append(("burst", data))
            before, since = len(program.said), len(program.pressed)
            quiet = program.session.quiet_refusals
            await program.send(data)
            self.keys += len(parse(data))
            if program.errors:
                self.check_alive()
            if self.quit_ended(since):
                return False
            self.check_alive()
            self.check_presses(since)
            if len(program.pressed) - since != handled_presses(data):
                self.fail(f"{handled_presses(data)} key presses sent, {len(program.pressed) - since} handled")
            if len(program.said) <= before and program.session.quiet_refusals == quiet:
                self.fail("a burst got no answer")
            if program.session.settings.pace != 0.0:  # the burst changed the pace: back to none, to keep it quick
                program.session.settings.pace = 0.0
                program.log.append(("pace", 0.0))
            return True
        keys = random_keys(self.rng)
        sent: list[bytes] = []
        program.log.append(("keys", sent))
        for key in keys:
            key = self.steered(key)
            sent.append(key)
            await self.press_one(key, steer=False)
            if program.session.finished:
                return False
        return True

    async def play_on(self) -> bool:
        """A few sensible keys: lay away, play the lowest card, count (mostly right), go on, start a game."""
        program = self.program
        assert program is not None
        sent: list[bytes] = []
        program.log.append(("keys", sent))
        for _ in range(self.rng.randrange(2, 7)):
            for key in self.sensible_keys():
                sent.append(key)
                await self.press_one(key, steer=False)
                if program.session.finished:
                    return False
        return True

    def sensible_keys(self) -> list[bytes]:
        """The keys a player would press now to get on with the game."""
        session = self.program.session if self.program is not None else None
        assert session is not None
        named = ["escape and r"]
        if session.mode is Mode.MAIN:
            named = ["home", "enter"]  # new game, or resume the saved game
        elif session.mode is Mode.GAME:
            moment = session.moment
            view = session.view()
            if moment == "discard":
                hand = sorted(view.hand)
                named = [str(hand.index(card) + 1) for card in session.marked]  # unmark
                named += [str(i) for i in range(1, view.must_discard + 1)] + ["enter"]
            elif moment == "play":
                hand = sorted(view.hand)
                named = [str(hand.index(min(view.playable)) + 1), "enter"]
            elif moment == "count":
                assert session.table is not None
                asked = next(e for e in reversed(session.table.game.events) if isinstance(e, CountRequested))
                points = score_hand(asked.cards, asked.starter, crib=asked.crib).total
                if self.rng.random() < 0.2:
                    points = self.rng.randrange(30)
                named = ["backspace"] * 3 + list(str(points)) + ["enter"]
            else:
                named = ["enter"]
        elif session.mode is Mode.GAME_MENU:
            named = ["home", "enter"]  # resume
        return [named_key(name) for name in named]

    async def move_clock(self) -> None:
        """Move the counting clock on and let the application's timer notice (warnings, a time-out)."""
        program = self.program
        assert program is not None
        seconds = self.rng.choice((1.0, 4.0, 8.0, 11.0, 20.0))
        program.log.append(("clock", seconds))
        program.clock.now += seconds
        ticks = program.ticks
        program.wants_tick = True
        await program.until(lambda: program.ticks > ticks, "the timer did not tick")
        program.wants_tick = False
        await program.settle()
        self.check_alive()

    async def quit_on_purpose(self) -> None:
        """Quit by one of the ways there are (Control C; Escape or Quit in the main menu; in the game menu, save and
        quit, or abandon the game and quit); the program must end cleanly."""
        program = self.program
        assert program is not None
        session = program.session
        if session.mode is Mode.GAME:  # the game menu's last item quits; the one above saves and quits, if it can
            # abandoning asks first: Enter twice; saving and quitting: the item above, once
            named = ["escape and r", "end", *self.rng.choice((["enter"], ["up"] if session.save_path else ["enter"])),
                     "enter"]
        elif session.mode is Mode.MAIN:
            named = self.rng.choice((["escape"], ["end", "enter"]))
        else:
            named = ["c-c"]
        sent: list[bytes] = []
        program.log.append(("keys", sent))
        for index, name in enumerate(named):
            if named[index - 1:index + 1] == ["enter", "enter"]:
                program.clock.now += 3  # the question heard (the typed-ahead setting may have been raised)
            key = named_key(name)
            sent.append(key)
            await self.press_one(key, steer=False)
        if not session.finished:
            self.fail(f"the keys {named} did not quit")
        self.quits += 1
        self.done.append(f"quit by {named}")

    async def tour(self) -> None:
        """Go somewhere the random keys seldom reach by themselves: from the main menu to the table setup, the
        practice menu (and into a drill), the settings, the statistics or the keys; from the game to the settings
        (and the sound test)."""
        program = self.program
        assert program is not None
        session = program.session
        sent: list[bytes] = []
        program.log.append(("keys", sent))

        async def press(name: str) -> None:
            key = named_key(name)
            sent.append(key)
            await self.press_one(key, steer=False)

        async def choose(item: str) -> None:
            items = session._items()
            if item in items:
                for _ in range(len(items)):
                    if items[session.menu_index % len(items)] == item:
                        break
                    await press("down")
                await press("enter")

        if session.mode is Mode.MAIN:
            await choose(self.rng.choice(("table setup", "practice", "practice", "settings", "statistics", "keys")))
            if Mode(session.mode) is Mode.PRACTICE and self.rng.random() < 0.7:  # (Mode(): mypy saw MAIN above)
                await choose(self.rng.choice(("start counting", "start discarding", "figures", "review")))
        elif session.mode is Mode.GAME:
            await press("escape and r")
            await choose("settings")
            if self.rng.random() < 0.3:
                await choose("sound test")

    def run(self, random_sequences: int) -> None:
        """Run until ``random_sequences`` random sequences were sent, starting programs as they quit (each in an
        event loop of its own)."""
        while self.sequences < random_sequences:
            asyncio.run(self.run_program(random_sequences))

    async def run_program(self, random_sequences: int) -> None:
        """Start a program and send it sequences until it quits (or enough were sent)."""
        with create_pipe_input() as pipe:
            await self.begin(pipe)
            program = self.program
            assert program is not None
            away = 0  # steps in a row spent in a menu (or a drill) over the game
            bug = ""
            try:
                while self.sequences < random_sequences:
                    roll = self.rng.random()
                    mode = program.session.mode
                    away = away + 1 if mode not in (Mode.GAME, Mode.MAIN) else 0
                    if roll < 0.01:
                        await self.quit_on_purpose()
                        break
                    if roll < 0.04 or (program.session.moment in ("count", "counting") and roll < 0.3):
                        await self.move_clock()  # mostly while a count is timed, to hear the warnings and time-outs
                        continue
                    going = True
                    if roll < 0.09 or (mode is Mode.MAIN and roll < 0.4):
                        await self.tour()
                    elif roll < 0.15 or away > (10 if mode is Mode.DRILL else 4):  # menus are hard to leave at random
                        going = await self.play_on()
                    else:
                        going = await self.random_sequence()
                    if not going or program.session.finished:
                        break
                    await self.check_state()
                self.done.append(f"program {self.programs}: moment {program.session.moment}")
                if program.session.table is not None:
                    self.check_game(program.session.table.game, thorough=True)
            except KnownBug as known:
                bug = str(known)
                self.done.append(f"program {self.programs}: known bug {bug}")
                self.known += 1
            except Reported:
                raise
            except Fault as fault:  # a wait that timed out
                self.fail(str(fault))
            finally:
                self.presses += len(program.pressed)
                self.moments.update(pressed.moment for pressed in program.pressed)
                await program.stop()
            if program.errors and not bug:
                self.fail("an exception escaped")


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("table", list(TABLES))
def test_random_keys_never_break_the_shell(table: str, seed: int, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # the pacer looks for due moves every 5 ms instead of 20: the same moves, sooner (no matter if it is renamed)
    monkeypatch.setattr("audiocrib.shell.app._TICK", 0.005, raising=False)
    save_path = tmp_path / "saved-game.json" if table in KEEPING else None
    fuzz = Fuzz(table, seed, save_path, random.Random(f"{table}/{seed}"))
    fuzz.run(RANDOM_SEQUENCES)
    assert fuzz.sequences == RANDOM_SEQUENCES
    assert fuzz.presses >= RANDOM_SEQUENCES
    print(f"\n{table} {seed}: {fuzz.sequences} random sequences, {fuzz.keys} keys sent, {fuzz.presses} presses "
          f"handled, {fuzz.programs} programs ({fuzz.quits} quit on purpose, {fuzz.known} ran into a known bug); "
          f"presses by moment: {dict(fuzz.moments.most_common())}")


def replay(table: str, seed: int, log: Sequence[tuple[str, object]], save_path: Path | None = None) -> Program:
    """Start a program at ``table`` with session seed ``seed`` and do again what ``log`` did (as a failure prints
    it): keys one by one, bursts at once, the clock moved on, the pace put back to none. Returns the stopped program
    (``said``, ``pressed``, ``errors``, ``session``); none of the fuzz's checks are made. ``save_path``: where the
    programs of a keeping table keep their files, if the failing one started with a saved game waiting."""

    async def main() -> Program:
        with create_pipe_input() as pipe:
            program = new_program(TABLES[table], seed, save_path, pipe)
            await program.start()
            try:
                for kind, value in log:
                    if kind == "keys" and isinstance(value, list):
                        for key in value:
                            await program.send(key)
                    elif kind == "burst" and isinstance(value, bytes):
                        await program.send(value)
                    elif kind == "clock" and isinstance(value, float):
                        program.clock.now += value
                        program.wants_tick, ticks = True, program.ticks

                        def ticked(ticks: int = ticks) -> bool:
                            return program.ticks > ticks

                        await program.until(ticked, "the timer did not tick")
                        await program.settle()
                    elif kind == "pace" and isinstance(value, float):
                        program.session.settings.pace = value
                    if program.session.finished or program.errors:
                        break
            finally:
                await program.stop()
            return program

    return asyncio.run(main())


def test_replay_does_again_what_a_log_did() -> None:
    program = replay("two-six-card", 1, [("keys", [b"\r"]), ("burst", b"s\x1bOQh"), ("clock", 5.0), ("pace", 0.0)])
    assert not program.errors
    assert [pressed.key for pressed in program.pressed] == ["enter", "s", "f2", "h"]
    assert program.session.moment == "discard" and program.said[-1].startswith("Your hand")


def test_the_keys_sent_are_the_keys_the_shell_knows_and_keys_it_does_not() -> None:
    for known, name in KEY_NAMES.items():
        assert [BOUND_NAMES.get(press.key) for press in parse(key_bytes(known))] == [name], known
    for name, others in OTHER_BYTES_FOR_KNOWN_KEYS.items():
        for other in others:
            assert [BOUND_NAMES.get(press.key) for press in parse(other.encode())] == [name], other
    for keys in UNKNOWN_KEYS:
        assert len(keys) > 1
        for key in keys:
            presses = parse(key)
            assert len(presses) == 1 and presses[0].key not in BOUND_NAMES and not held_back(key), key
    for alt in ALT_ARROWS:
        assert BOUND_NAMES.get(parse(alt.encode())[0].key) == "escape"
    assert handled_presses(b"\x1bq\x1b[99~\x1b[200~pasted\r\x1b[201~") == 8  # Escape q, Escape [ 9 9 ~, the paste
    assert handled_presses(b"\x1b[<0;1;1M") == 0 and held_back(b"\r\x1b")


# ---------------------------------------------------------------------------------------------------- bugs found
# Each was found by the fuzz and is fixed; a bug found later goes in KNOWN_BUGS (with a strict xfail test here)
# until it is fixed.


def _go_to(session: Session, item: str) -> None:
    """In a menu, press down until ``item`` is the one spoken."""
    for _ in range(20):
        items = session._items()
        if items[session.menu_index % len(items)] == item:
            return
        session.press("down")
    raise AssertionError(f"no {item!r} in {session._items()}")


def test_the_arrows_on_the_sound_test_item_answer() -> None:
    """Main menu, down to Settings, Enter, End, up (Sound test), right arrow: AttributeError in the key handler,
    which prompt_toolkit prints over the terminal with "Press ENTER to continue"; the arrow gets no answer."""
    speaker = RecordingSpeaker()
    session = Session(Announcer(speaker, io.StringIO()), settings=Settings(pace=0.0, typed_ahead=0.0),
                      player=RecordingPlayer())
    session.start()
    _go_to(session, "settings")
    session.press("enter")
    _go_to(session, "sound test")
    for key in ("right", "left"):
        before = len(speaker.said)
        session.press(key)
        assert len(speaker.said) > before and session.mode is Mode.SETTINGS


def test_mouse_shaped_bytes_in_a_burst_do_not_stop_the_keys() -> None:
    """Escape [ M and three more characters typed within the escape timeout (or sent by a terminal left in mouse
    mode) are read as a mouse report; prompt_toolkit's own mouse binding raises KeyError on most of them (here 90,
    for Z), and the application then prints the traceback and waits for Enter instead of answering keys."""
    from prompt_toolkit.application.current import set_app

    from audiocrib.shell.app import build_application

    async def main() -> None:
        speaker = RecordingSpeaker()
        session = Session(Announcer(speaker, io.StringIO()), settings=Settings(pace=0.0, typed_ahead=0.0),
                      player=RecordingPlayer())
        session.start()
        with create_pipe_input() as pipe:
            app = build_application(session, input=pipe, output=DummyOutput())
            with set_app(app):
                app.key_processor.feed_multiple(parse(b"\x1b[MZZZs"))
                app.key_processor.process_keys()
        assert speaker.said[-1] == "The s key does nothing now. Press Tab for help."  # the s after it is answered

    asyncio.run(main())


def test_a_stray_high_byte_is_answered_in_words_a_terminal_can_print() -> None:
    """A byte that is not UTF-8 (a Latin-1 terminal, or xterm's eight-bit meta: Alt+a sends 0xE1) reaches the session
    as the surrogate "\\udcff"; it answers "The \\udcff key does nothing now." That line cannot be written to a
    UTF-8 terminal (the Announcer drops it: the player sees nothing) nor, most likely, sent to a speech backend
    (the fallback chain then gives that backend up for the rest of the session)."""

    async def script(table: Table) -> None:
        count = table.session.keys_pressed
        table.pipe.send_bytes(b"\xff")
        for _ in range(2500):
            if table.session.keys_pressed > count:
                break
            await asyncio.sleep(0.002)
        assert table.session.keys_pressed == count + 1
        table.said[-1].encode("utf-8")

    run(script, settings=Settings(pace=0.0, typed_ahead=0.0))


def test_a_position_past_the_last_card_is_answered_in_good_english() -> None:
    """Two players, seed 1, beginner: Enter, 1, 2, Enter, then 1 and Enter three times (one card left), then 2."""

    async def script(table: Table) -> None:
        await table.press("enter")
        await lay_away_first(table)
        session = table.session
        for _ in range(200):
            if session.moment == "play" and len(session.view().hand) == 1:
                break
            if session.moment == "play":
                await play_a_card(table)
            else:
                await table.press("enter")
        # A digit past the hand says the card Enter would play, which the digit did not change.
        on = sorted(session.view().hand)[0]
        assert await table.answer("2") == f"You hold only one card; you are on the {on.name}."

    run(script, setup=TableSetup(levels=("beginner",)), settings=Settings(pace=0.0, typed_ahead=0.0), seed=1)

"""What the server has told this player, and the table it plays at over the network.

`OnlineClient` holds the `Link` and what came through it: the welcome, the lobby, the table this player sits at,
the seat's latest view, and the `inbox` of what the shell is to say (chat, notices, the connection lost and back).
Messages arrive on the link's thread; the shell reads the client on its own (each value is replaced whole, never
changed in place, and the inbox is a thread-safe deque).

`RemoteTable` is the shell's `Table` (audiocrib/shell/table.py) for a game held by the server: the view is the one
the server sent last, a move is sent and its answer waited for (so a refusal is said at once, and the move's news is
in the view before the shell narrates it), the counting clock is the server's, and the computer players are the
server's to move.
"""

from __future__ import annotations

import asyncio
import dataclasses
import ssl
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from audiocrib.client.link import Link, LinkMaker, LinkState
from audiocrib.engine.actions import Action
from audiocrib.engine.events import Event
from audiocrib.engine.game import Phase
from audiocrib.engine.rules import Rules
from audiocrib.engine.views import PlayerView
from audiocrib.online import messages as m
from audiocrib.online.lookback import events_at
from audiocrib.online.watching import StopWatching, Watch, WatchersLeave, WatchSettings

__all__ = ["OnlineClient", "RemoteTable", "Said"]

_TICK = 0.02
_Answer = TypeVar("_Answer", bound=m.Message)


@dataclass(frozen=True, slots=True)
class Said:
    """Something the shell is to say: ``kind`` is "chat" (``sender`` said ``text``), "notice", "lost" (the
    connection dropped: ``text`` is why), "connected" (``text`` is the name the server knows), or "refused" (the
    server refused the hello: ``text`` is its sentence), "closed" (a moderator closed this player's table), or
    "news" (a view came: the game is told up to it before what came after it is said)."""

    kind: str
    text: str
    sender: str = ""


class OnlineClient:
    """A player's connection to one server, as ``name`` (with the ``token`` it gave last time, if any), made by
    ``link`` (a `Link` of its own thread, unless the shell runs as a task: `audiocrib.client.looplink`)."""

    def __init__(self, url: str, name: str, token: str | None = None, password: str | None = None,
                 ssl_context: ssl.SSLContext | None = None, clock: Callable[[], float] = time.monotonic,
                 link: LinkMaker = Link) -> None:
        self.name = name
        self.token = token
        self.password = password
        self.name_password: str | None = None
        """The password protecting ``name``, to sign in with when there is no token (forgotten once welcomed)."""
        self.account: m.AccountState | None = None
        """The account as the server last told it (None: not asked yet)."""
        self.clock = clock
        self.inbox: deque[Said] = deque(maxlen=1000)
        self.welcome: m.Welcome | None = None
        self.lobby: m.Lobby | None = None
        self.state: m.TableState | None = None
        """The table this player sits at, as last told (None: in the lobby)."""
        self.view: PlayerView | None = None
        self.advice_allowed = False
        """Whether the table this player sits at allows the coach's advice, as the server last told it in the
        table's state (a server written before the option leaves it out: not allowed)."""
        self.log: list[Event] = []
        """The seat's events as the server has told them (from whole views and news)."""
        self.viewed_at = 0.0
        """When (by ``clock``) the view came."""
        self.count_ms: int | None = None
        """The milliseconds left on the server's counting clock for this seat's count when the view came."""
        self.move_ms: tuple[int, int] | None = None
        """Whose move the move time limit waits on and its milliseconds left when the view came, or None."""
        self.version = 0
        """Counts the views received: the shell looks for news when it changes."""
        self.seated = 0
        """Counts the table states received."""
        self.leaving = False
        """True while the player leaves their table (the lobby that answers is not a table closed)."""
        self.dropped = False
        """True from a lost connection until the next welcome (the loss is said once)."""
        self.watched: str | None = None
        """The number or code of the table this player watches, to watch it again on a new connection."""
        self.rewatching = False
        """True from watching again on a new connection until the server answers (a refusal ends the watching)."""
        self.link = link(url, self._hello, self._deliver, self._changed, ssl_context)

    def start(self) -> None:
        """Connect (in the link's thread); the welcome or the refusal comes to the inbox."""
        self.link.start()

    def close(self) -> None:
        """Disconnect for good."""
        self.link.close()

    @property
    def connected(self) -> bool:
        """True while connected and welcomed."""
        return self.link.up

    # ----------------------------------------------------------------- the link's side
    def _hello(self) -> m.Hello:
        if self.token is None and self.name_password is not None:
            return m.SignIn(self.name, None, self.password, m.PROTOCOL_VERSION, self.name_password)
        return m.Hello(self.name, self.token, self.password, m.PROTOCOL_VERSION)

    def _changed(self, state: LinkState) -> None:
        if state.kind == "connected" and state.welcome is not None:
            self.welcome = state.welcome
            self.name, self.token = state.welcome.name, state.welcome.token
            self.name_password = None  # the token signs in from now on
            self.inbox.append(Said("connected", state.welcome.name))
            self.dropped = False
            if self.watching and self.watched is not None:  # a watcher is caught up by watching again
                self.rewatching = self.link.send(Watch(self.watched))
        elif state.kind == "lost":
            if not self.dropped:
                self.inbox.append(Said("lost", state.reason))
            self.dropped = True
        elif state.kind == "refused":
            self.inbox.append(Said("refused", state.reason))
        elif state.kind == "unreadable":
            self.inbox.append(Said("notice", state.reason))

    def _deliver(self, message: m.Message) -> None:
        if self.rewatching and isinstance(message, m.Refused | m.TableState):
            self.rewatching = False
            if isinstance(message, m.Refused):  # the table is over, or allows no watchers now: to the lobby
                self.state, self.view, self.log, self.watched = None, None, [], None
                self.seated += 1
                self.inbox.extend((Said("notice", message.sentence), Said("closed", "")))
                return
        if isinstance(message, m.TableState):
            if self.state is None or self.state.number != message.number:
                self.view, self.log = None, []
            self.state = message
            self.advice_allowed = message.advice
            self.seated += 1
        elif isinstance(message, m.News):
            if message.since > len(self.log):  # a gap: ask for the whole of it again
                self.resync()
                return
            self.log[message.since:] = message.events
        elif isinstance(message, m.ViewOf):
            if message.whole:
                self.log = list(message.view.events)
                view = message.view
            else:  # the state after the news just received, which carries the events
                view = dataclasses.replace(message.view, events=tuple(self.log))
            self.view, self.viewed_at = view, self.clock()
            self.count_ms = message.count_ms
            self.move_ms = None if message.move_ms is None or message.move_seat is None else (
                message.move_seat, message.move_ms)
            self.version += 1
            if not self.inbox or self.inbox[-1].kind != "news":
                self.inbox.append(Said("news", ""))
        elif isinstance(message, m.ChatFrom):
            self.inbox.append(Said("chat", message.text, message.sender))
        elif isinstance(message, m.Notice):
            self.inbox.append(Said("notice", message.sentence))
        elif isinstance(message, m.Lobby):
            self.lobby = message
            if self.state is not None and not self.leaving:  # not asked for at a table: a moderator closed it
                self.state, self.view, self.log = None, None, []
                self.advice_allowed = False
                self.seated += 1
                self.inbox.append(Said("closed", ""))

    @property
    def watching(self) -> bool:
        """True while this player watches a table (its state's ``you`` is one past the last seat)."""
        return self.state is not None and self.state.you == len(self.state.seats)

    def resync(self) -> None:
        """Ask for the table, the whole log and the view again (joining one's own table again answers with them,
        as watching again does for a watcher)."""
        if self.state is not None:
            self.link.send(Watch(self.watched or str(self.state.number)) if self.watching else
                           m.Join(str(self.state.number)))

    # ----------------------------------------------------------------- asking the server
    def _ask(self, message: m.Message) -> list[m.Message] | str:
        """The answers to ``message``, or the sentence of its refusal (or of no answer)."""
        answers = self.link.request(message)
        if isinstance(answers, str):
            return answers
        refusal = next((a for a in answers if isinstance(a, m.Refused)), None)
        return refusal.sentence if refusal is not None else answers

    def _account_answer(self, message: m.Message) -> m.AccountState | str:
        answers = self._ask(message)
        if isinstance(answers, str):
            return answers
        found = next((a for a in answers if isinstance(a, m.AccountState)), None)
        if found is None:
            return "The server did not say how your name stands."
        self.account = found
        if found.token is not None:
            self.token = found.token
        return found

    def ask_account(self) -> m.AccountState | str:
        """Whether this player's name is protected by a password, or why it is not known."""
        return self._account_answer(m.AskAccount())

    def set_password(self, old: str | None, new: str | None) -> m.AccountState | str:
        """Protect the name, change its password (``old`` the one it has), or (``new`` None) take it off."""
        return self._account_answer(m.SetPassword(old, new))

    def sign_out_everywhere(self) -> m.AccountState | str:
        """Revoke every token of this player but the new one this client keeps (`token`)."""
        return self._account_answer(m.SignOutEverywhere())

    def ask_lobby(self, page: int = 1) -> m.Lobby | str:
        """Page ``page`` of the lobby now (the last page if there are fewer), or why not."""
        answers = self._ask(m.AskLobby(page))
        if isinstance(answers, str):
            return answers
        return next((a for a in answers if isinstance(a, m.Lobby)), None) or "The server sent no lobby."

    def ask_for(self, message: m.Message, kind: type[_Answer]) -> _Answer | str:
        """The server's answer of type ``kind`` to ``message`` (the leaderboard, a rating, the past matches, a
        match's log: `audiocrib.online.ratings`, `audiocrib.online.matches`), or the sentence of why there is none."""
        answers = self._ask(message)
        if isinstance(answers, str):
            return answers
        return next((a for a in answers if isinstance(a, kind)), None) or "The server did not answer that."

    def _seated(self, message: m.Message) -> m.TableState | str:
        answers = self._ask(message)
        if isinstance(answers, str):
            return answers
        state = next((a for a in answers if isinstance(a, m.TableState)), None)
        return state or "The server did not say which table you are at."

    def create(self, rules: Rules, seats: tuple[str, ...], public: bool, move_limit: int | None,
               advice: bool = False) -> m.TableState | str:
        """Open a table (this player at its first person's seat; ``advice``: the coach's advice allowed at it); its
        state, or why not."""
        return self._seated(m.CreateTable(rules, seats, public, move_limit, advice))

    def join(self, table: str) -> m.TableState | str:
        """Sit at a table by its number or code; its state, or why not."""
        return self._seated(m.Join(table))

    def watch(self, table: str) -> m.TableState | str:
        """Watch a table by its number or code (at one's own table: sit there); its state, or why not."""
        answer = self._seated(Watch(table))
        self.watched = table if isinstance(answer, m.TableState) and self.watching else None
        return answer

    def watchers_leave(self) -> str | None:
        """The host asks the watchers to leave: None, or why not."""
        return self._done(WatchersLeave())

    def watch_settings(self, allowed: bool, chat: bool) -> str | None:
        """The host's settings for watchers: None, or why not."""
        return self._done(WatchSettings(allowed, chat))

    def who(self) -> m.TableState | m.Lobby | str:
        """Who is at this player's table (or in the lobby)."""
        before = self.lobby
        answers = self._ask(m.Who())
        if isinstance(answers, str):
            return answers
        found = next((a for a in answers if isinstance(a, m.TableState | m.Lobby)), None)
        if isinstance(found, m.Lobby) and before is not None and found.page != before.page:
            # the answer is the first page: the page the player is on stays, with who is here now
            self.lobby = dataclasses.replace(before, people=found.people)
        return found or "The server did not say who is here."

    def _done(self, message: m.Message) -> str | None:
        answers = self._ask(message)
        return answers if isinstance(answers, str) else None

    def start_game(self) -> str | None:
        """The host starts the game: None, or why not."""
        return self._done(m.Start())

    def leave(self) -> str | None:
        """Leave the table for the lobby: None, or why not."""
        self.leaving = True  # its answer is the lobby
        try:
            refused = self._done(StopWatching() if self.watching else m.Leave())
        finally:
            self.leaving = False
        if refused is None:
            self.state, self.view, self.log, self.watched = None, None, [], None
            self.advice_allowed = False
            self.seated += 1
        return refused

    def chat(self, text: str) -> str | None:
        """Say ``text`` to the table (or the lobby): None, or why not."""
        return self._done(m.Chat(text))

    def give_seat(self, seat: int, level: str) -> str | None:
        """The host gives an absent person's seat to a computer player: None, or why not."""
        return self._done(m.GiveSeat(seat, level))

    def take_seat_back(self) -> str | None:
        """Take back this player's seat from the computer player keeping it: None, or why not."""
        return self._done(m.TakeSeatBack())

    def moderate(self, act: str, target: str, minutes: int | None, reason: str) -> str | None:
        """A moderator's act (the server's sentence saying it is done comes as a notice): None, or why not."""
        return self._done(m.Moderate(act, target, minutes, reason))

    def mute(self, name: str, on: bool) -> str | None:
        """Hear no more of ``name``'s chat (``on``), or hear it again: None, or why not."""
        return self._done(m.Mute(name) if on else m.Unmute(name))

    def move(self, action: Action) -> str | None:
        """Make a move: None once the server has it (its news is then in the view), or the refusal's sentence."""
        return self._done(m.Move(action))


class RemoteTable:
    """The `Table` of a game held by the server, played from ``client``'s seat."""

    def __init__(self, client: OnlineClient, label: str) -> None:
        self.client = client
        self._label = label
        self._news: Callable[[], None] = lambda: None
        self._heard = client.version
        self._view = client.view
        """The view the shell plays from: taken from the client only on the shell's loop (in `poll`, and after a
        move), so the game never moves on under the shell before it has narrated the news."""
        self._waiting_view: PlayerView | None = None
        self._waiting: frozenset[int] = frozenset()

    @property
    def seat(self) -> int:
        """The player's own seat."""
        return self.view().seat

    @property
    def name(self) -> str:
        """The table's own name: the server and the table's number."""
        state = self.client.state
        return f"online {self._label} {state.number if state else 0}"

    @property
    def levels(self) -> tuple[str, ...]:
        """None here: online games are not counted in the statistics against computer players' levels."""
        return ()

    @property
    def phase(self) -> Phase:
        """Where the game is."""
        return self.view().phase

    def waiting_for(self) -> frozenset[int]:
        """The seats the game waits on, read from the view."""
        view = self.view()
        if view is not self._waiting_view:  # asked many times a turn (each key's moment), worked out once a view
            self._waiting_view, self._waiting = view, waiting_in(view)
        return self._waiting

    def view(self) -> PlayerView:
        """The view the server sent last, as the shell last took it."""
        if self._view is None:
            raise LookupError("The server has not sent this seat's view yet.")
        return self._view

    def view_after(self, told: int, early: frozenset[int]) -> PlayerView:
        """The view at a pause the player looks back on, asked of the server (the current view if it cannot
        answer now); without its events, which are put back from the client's log, where the server can."""
        later = tuple(sorted(i for i in early if i >= told))
        welcome = self.client.welcome
        events = events_at(self.client.log, told, later) if welcome is not None and welcome.light else None
        answers = self.client.link.request(m.LookBack(told, later, light=events is not None))
        if not isinstance(answers, str):
            for answer in answers:
                if isinstance(answer, m.PastView) and answer.whole:
                    return answer.view
                if isinstance(answer, m.PastView) and events is not None:
                    return dataclasses.replace(answer.view, events=events)
        return self.view()

    def send(self, action: Action) -> str | None:
        """Send the move and wait for the server's answer: None once made, or the sentence of its refusal."""
        refused = self.client.move(action)
        if refused is None:
            self._take()
        return refused

    def count_time(self) -> float | None:
        """The seconds left on the server's counting clock; the rules' full time if the server has not said (the
        server's own timeout comes as news either way, so the shell never sends one)."""
        view = self.client.view
        if view is None or view.rules.count_timer is None:
            return None
        if self.client.count_ms is None:
            return float(view.rules.count_timer)
        return max(0.0, self.client.count_ms / 1000 - (self.client.clock() - self.client.viewed_at))

    def advice_allowed(self) -> bool:
        """Whether the server's table allows the coach's advice (as it says in the table's state)."""
        return self.client.advice_allowed

    def move_time(self) -> tuple[int, float] | None:
        """Whose move the server's move time limit waits on, and the seconds it has left now; None without one."""
        if self.client.move_ms is None:
            return None
        seat, ms = self.client.move_ms
        return seat, max(0.0, ms / 1000 - (self.client.clock() - self.client.viewed_at))

    def caught_up(self) -> bool:
        """False: the server's computer players move by themselves."""
        return False

    def hurry(self) -> None:
        """Nothing: the server paces its computer players."""

    def listen(self, news: Callable[[], None]) -> None:
        """``news`` is called (by `poll`, on the shell's loop) when a new view has come."""
        self._news = news

    def poll(self) -> None:
        """Call the news callback if a view or table state has come since the last call."""
        if self.client.version != self._heard and self._take():
            self._news()

    def _take(self) -> bool:
        """Take the client's latest view; False if it has none."""
        self._heard = self.client.version
        view = self.client.view
        if view is None:
            return False
        self._view = view
        return True

    async def others_move(self, pace: float, ready: Callable[[], bool]) -> None:
        """The others move on the server: wait a tick, and tell the shell if anything came."""
        await asyncio.sleep(_TICK)
        self.poll()

    def keep(self, heard: object, moment: str, history: tuple[str, ...]) -> None:
        """Nothing: the server keeps the game."""


def waiting_in(view: PlayerView) -> frozenset[int]:
    """The seats the game waits on, as ``view`` shows them."""
    if view.phase is Phase.DISCARD:
        return frozenset(seat for seat, done in enumerate(view.laid_away) if not done)
    if view.phase is Phase.PLAY and view.turn is not None:
        return frozenset({view.turn})
    if view.phase is Phase.COUNT and view.counting is not None:
        return frozenset({view.counting[0]})
    if view.phase is Phase.PEG_CLAIM and view.claiming is not None:
        return frozenset({view.claiming})
    return frozenset()

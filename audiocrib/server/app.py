"""The server's network side: the WebSocket endpoint ``/play``, each connection's hello, the lobby, and the limits
that keep one client from spoiling the server for the others (making and joining tables are `audiocrib.server.desk`,
the aiohttp application around it `audiocrib.server.application`).

Each text frame is read by `audiocrib.online.messages.decode_from_client`; whatever is refused gets one `Refused`
sentence, and a connection that keeps sending what is refused, or sends too fast, is closed with a reason. Each
table has one `Room` (`audiocrib.server.room`), made when the table is made or first touched (loaded from the store
after a restart); the room writes its seats and moves to the store, and the server sends what it returns to the
players' live connections. What happens at a table (start, moves, leaving, chat, seats given to computer players,
the computer players' moves, the counting clock and the move time limit) is `audiocrib.server.tables`.

Everything runs on one event loop, which owns the `Store` (one SQLite connection).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import time
from collections.abc import Callable, Iterable
from functools import partial

from aiohttp import WSCloseCode, WSMessage, WSMsgType, web

from audiocrib.engine.numbers import number_words
from audiocrib.online import messages as m
from audiocrib.online.fields import ProtocolError
from audiocrib.online.matches import AskMatchLog
from audiocrib.online.moderation import MODERATOR_WELCOME
from audiocrib.server import past_matches, ratings
from audiocrib.server.accounts import SIGNED_OUT, Accounts
from audiocrib.server.application import FULL_COLLECTION_EVERY, PATH, make_app
from audiocrib.server.connections import Address, Connection
from audiocrib.server.desk import Answers, TableDesk
from audiocrib.server.limits import LatelyCount, Limits, TokenBucket, per_hour
from audiocrib.server.lobby import TOO_MANY_NAMES, TOO_MANY_TABLES, Board, wait_words
from audiocrib.server.moderating import Moderation, Online
from audiocrib.server.outbox import Carried, Mailbox, Outbox, ServerSocket, store_failed
from audiocrib.server.past_matches import TOO_MANY_LOGS
from audiocrib.server.proxy import NO_PROXIES, Proxies, client_address, origin_allowed
from audiocrib.server.records import Player, StoreError
from audiocrib.server.room import Outgoing
from audiocrib.server.store import Store
from audiocrib.server.tables import NO_TABLE, Tables
from audiocrib.server.watching import Watching

__all__ = ["CHAT_TOO_FAST", "FULL_COLLECTION_EVERY", "NO_TABLE", "PATH", "Pages", "Server", "make_app"]

CHAT_TOO_FAST = "You are chatting too fast; wait a few seconds before the next line."
HELLO_FIRST = "Say hello first: the first message on a connection is hello."
ADDRESS_TOO_FAST = "Too many messages from your address; slow down."
TEXT_ONLY = "A message must be sent as text, not as binary data."
PLAY_MESSAGES = (m.Start, m.Move, m.Leave, m.GiveSeat, m.TakeSeatBack)
_log = logging.getLogger(__name__)


Pages = Callable[[web.Application, "Server"], None]
"""Adds the browser's page and its socket to the application (the web layer's, given by the command line)."""


class _Disconnect(Exception):
    """Close this connection with the message as its reason."""


class Server(TableDesk):
    """The lobby's side of the server: the store, the password (None for none), the limits, the reverse proxies
    whose X-Forwarded-For is believed, and who is connected."""

    def __init__(self, store: Store, password: str | None = None, limits: Limits | None = None, *,
                 proxies: Proxies = NO_PROXIES, moderators: Iterable[str] = ()) -> None:
        self.store = store
        self.password = password
        self.limits = limits or Limits()
        self.proxies = proxies
        self._addresses: dict[str, Address] = {}
        self._connections: set[Connection] = set()
        self._by_player: dict[int, Connection] = {}
        self._closing: set[asyncio.Task[bool]] = set()
        self.outbox = Outbox(store, store_failed)
        self.board = Board(store)
        self.local_only = False
        """True when only this computer can reach the server (it listens on loopback with no proxy in front):
        then there are no strangers, and new names and tables are not limited per hour."""
        self.accounts = Accounts(store, self.limits)
        self.tables = Tables(store, self.limits, self._send_out, lambda player: player in self._by_player,
                             self._after_sent)
        self.moderation = Moderation(store, moderators, self)
        self.watching = Watching(store, self.tables, self._send_out, self._lobby, self._answer, self._by_player.get,
                                 self.moderation.chat_refusal)

    # ----------------------------------------------------------------- connections
    def _address(self, remote: str) -> Address:
        found = self._addresses.get(remote)
        if found is None:
            if len(self._addresses) > 10_000:  # forget the addresses that have gone quiet
                for key in [k for k, a in self._addresses.items() if a.idle()]:
                    del self._addresses[key]
            lim = self.limits
            found = Address(TokenBucket(lim.address_rate, lim.address_burst),
                             TokenBucket(lim.connects_rate, lim.connects_burst),
                             TokenBucket(lim.wrong_passwords_rate, lim.wrong_passwords_burst),
                             per_hour(lim.new_names_per_hour), per_hour(lim.new_tables_per_hour),
                             TokenBucket(lim.sign_ins_rate, lim.sign_ins_burst),
                             TokenBucket(lim.match_logs_rate, lim.match_logs_burst))
            self._addresses[remote] = found
        return found

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """One WebSocket connection, from its upgrade to its close. Its address's limits are those of the
        connection's own address, or the player's behind a trusted proxy (`audiocrib.server.proxy`): a gateway
        process of the browser's page (``audiocrib web``) is such a proxy."""
        if not origin_allowed(request):
            return web.Response(status=403, text="This server takes connections from its own page, not another"
                                " site's.\n")
        remote = client_address(request, self.proxies)
        refused = self.admit(remote)
        if refused is not None:
            return web.Response(status=429, text=refused + "\n")
        socket = web.WebSocketResponse(max_msg_size=m.MAX_MESSAGE_BYTES, heartbeat=30.0, timeout=5.0)
        try:
            await socket.prepare(request)
        except ConnectionError:  # the client gave up during the upgrade: aiohttp finds this answer unsendable, quietly
            return web.Response(status=400, text="The connection closed during the upgrade.\n")
        await self.serve_socket(socket, remote)
        return socket

    def admit(self, remote: str) -> str | None:
        """Why a new connection from ``remote`` is refused (too many open, or opened too fast), or None (and it
        is counted as opened)."""
        address = self._address(remote)
        if address.open >= self.limits.connections_per_address:
            return "Too many connections from your address at once."
        if not address.connects.take():
            return "Too many new connections from your address; wait a little."
        return None

    async def serve_socket(self, socket: ServerSocket, remote: str) -> None:
        """Serve one connection from ``remote`` (admitted by `admit`) until it closes: a WebSocket, or a
        connection inside this process (`audiocrib.web.local`, the browser page's sessions)."""
        address = self._address(remote)
        lim = self.limits
        connection = Connection(socket, address, TokenBucket(lim.messages_rate, lim.messages_burst),
                                 TokenBucket(lim.refusals_rate, lim.refusals_burst),
                                 TokenBucket(lim.chat_rate, lim.chat_burst),
                                 Mailbox(socket, local=hasattr(socket, "send_message")),
                                 LatelyCount(lim.heaviest_seconds))
        connection.remote = remote
        address.open += 1
        address.connections.add(connection)
        self._connections.add(connection)
        try:
            await self._serve(connection)
        finally:
            address.open -= 1
            address.connections.discard(connection)
            self._connections.discard(connection)
            if connection.player is not None and self._by_player.get(connection.player.id) is connection:
                del self._by_player[connection.player.id]
                self.watching.gone(connection.player.id)
                self.moderation.gone(connection.player.id)
                self.board.people_changed()
                await self.tables.connected(connection.player.id, False)

    async def _serve(self, connection: Connection) -> None:
        socket = connection.socket
        while not socket.closed:
            timeout = None if connection.player else self.limits.hello_seconds
            try:
                message = await socket.receive(timeout=timeout)
            except TimeoutError:
                await socket.close(code=WSCloseCode.POLICY_VIOLATION, message=b"No hello came in time.")
                return
            if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                return
            if message.type is WSMsgType.ERROR:  # a frame over the size limit, or one that breaks WebSocket
                if not socket.closed:
                    await socket.close(code=WSCloseCode.MESSAGE_TOO_BIG, message=b"That message was too big.")
                return
            try:
                await self._one(connection, message)
            except _Disconnect as reason:
                await self.outbox.settle(connection.box)  # its refusals first
                await socket.close(code=WSCloseCode.POLICY_VIOLATION, message=str(reason).encode("ascii"))
                return
            except Exception:  # a fault of the server's: this connection ends, the others go on
                _log.exception("A message could not be answered.")
                await socket.close(code=WSCloseCode.INTERNAL_ERROR, message=b"The server failed on that message.")
                return

    async def _one(self, connection: Connection, frame: WSMessage) -> None:
        """Answer one frame (or refuse it, or close the connection by raising `_Disconnect`)."""
        connection.lately.add()
        if connection.cut:
            raise _Disconnect(ADDRESS_TOO_FAST)
        address = connection.address
        if not address.messages.take() and time.monotonic() - address.cut_at >= self.limits.cut_grace:
            # one cut at a time: the bucket is still empty just after one, though the address is under its limit
            address.cut_at = time.monotonic()
            heaviest = address.heaviest()
            if heaviest is None or heaviest is connection:
                raise _Disconnect(ADDRESS_TOO_FAST)
            self._cut(heaviest)  # this one's message goes on: the address is under its limit again without it
        if not connection.messages.take():
            raise _Disconnect("Too many messages; slow down.")
        message: m.Message | None = None
        try:
            if frame.type is not WSMsgType.TEXT:
                raise ProtocolError(TEXT_ONLY)
            message = m.decode_from_client(frame.data)
            if self.watching.routes(connection, message):  # watching, and what a watcher sends at the table
                answers = await self.watching.answer(connection, message)
            elif isinstance(message, (*PLAY_MESSAGES, m.Chat)):
                answers = await self._at_table(connection, message)
            elif isinstance(message, m.ACCOUNT_MESSAGES):
                answers = await self._account(connection, message)
            elif isinstance(message, (m.Moderate, m.Mute, m.Unmute)) and connection.player is not None:
                answers = [(None, m.Notice(await self._moderate(connection.player, message)))]
            else:
                answers = self._answer(connection, message)
        except (ProtocolError, StoreError) as error:
            if not connection.refusals.take():
                raise _Disconnect("Too many refused messages.") from None
            answers = [(None, m.Refused(str(error)))]
        await self._send(connection, answers)
        if isinstance(message, m.Hello) and connection.player is not None:
            if connection.ended:  # written as told once sent (not before: a kill may come between)
                self.outbox.put(connection.box, partial(self.tables.told_end, connection.player.id, connection.ended))
            self.tables.wake(connection.player.id)

    async def _at_table(self, connection: Connection, message: m.Message) -> Answers:
        """What is done at the player's table, through `Tables`: the room's answers go out from there; leaving
        is answered with the lobby."""
        player = connection.player
        if player is None:
            raise ProtocolError(HELLO_FIRST)
        if isinstance(message, m.Chat):
            if connection.table is not None and not connection.chats.take():
                raise ProtocolError(CHAT_TOO_FAST)
            muted = self.moderation.chat_refusal(player.name)
            if muted is not None:
                raise ProtocolError(muted)
            await self.tables.chat(player.id, player.name, connection.table, message.text)
            return []
        if await self.tables.act(player.id, connection.table, message):
            connection.table = None
            return [(None, self._lobby())]
        return []

    def _cut(self, connection: Connection) -> None:
        """Close ``connection``, the one that sent most from an address over its limit."""
        connection.cut = True
        self._close_later(connection, ADDRESS_TOO_FAST)

    def _after_sent(self, player: int, then: Callable[[], None]) -> None:
        target = self._by_player.get(player)
        if target is not None:
            self.outbox.put(target.box, then)

    async def _send_out(self, answers: Outgoing) -> None:
        await self._send(None, answers)

    async def _send(self, connection: Connection | None, answers: Answers | Outgoing) -> None:
        """Send each answer to its player's live connection (``connection`` for None), through the outbox (so
        once what it follows is on disk, and in order); a player not connected misses it (they catch up when
        back), and a connection that breaks on the way is left to its own close. Each answer goes to the
        connection its player has now, when it is made: a player back on a new connection later has it in their
        hello's catch-up, which that connection gets first."""
        texts: dict[int, str] = {}  # a message sent to many (a move's news to its watchers) is written once
        for player_id, message in answers:
            target = connection if player_id is None else self._by_player.get(player_id)
            if target is None or target.socket.closed:
                continue
            if isinstance(message, m.ChatFrom) and target.player and not self.moderation.hears(target.player.id,
                                                                                               message.sender):
                continue
            if not target.box.local and id(message) not in texts:  # (inside this process: the message itself)
                texts[id(message)] = self.board.text(message) if isinstance(message, m.Lobby) else m.encode(message)
            self.outbox.put(target.box, Carried(message) if target.box.local else texts[id(message)])

    def _answer(self, connection: Connection, message: m.Message) -> Answers:
        """The answers to one message; a refusal raises `ProtocolError` or `StoreError` with its sentence."""
        if isinstance(message, m.Hello):
            return self._welcome_back(connection, self._hello(connection, message))
        if connection.player is None:
            raise ProtocolError(HELLO_FIRST)
        player = connection.player
        if isinstance(message, m.Ping):
            return [(None, m.Pong(message.number))]
        if isinstance(message, m.AskLobby):
            return [(None, self._lobby(message.page))]
        if isinstance(message, m.CreateTable):
            if not self.local_only and not connection.address.tables.take():
                raise ProtocolError(TOO_MANY_TABLES.format(wait_words(connection.address.tables.wait())))
            table = self._create(player, message)
            connection.table = table.id
            return [(None, self._table_state(table.id, player))]
        if isinstance(message, m.Join):
            table, others = self._join(player, message.table)
            connection.table = table.id
            if others is None:  # at this table already: the table and the whole game again, to resynchronise
                room = self.tables.room(table.id)
                caught = room.catch_up(player.id, since=0)
                if isinstance(caught, str):
                    raise ProtocolError(caught)
                back = room.connected(player.id, True)  # after leaving for now: the others hear they are back
                return [(None, said) for _, said in caught] + [(to, said) for to, said in back if to != player.id]
            return [(None, self._table_state(table.id, player)), *others]
        if isinstance(message, m.LookBack):
            if connection.table is None:
                raise ProtocolError(NO_TABLE)
            past = self.tables.room(connection.table).look_back(player.id, message.told, message.early,
                                                                message.light)
            if isinstance(past, str):
                raise ProtocolError(past)
            return [(None, past)]
        if isinstance(message, m.Who):
            if connection.table is None:
                return [(None, self._lobby())]
            return [(None, self._table_state(connection.table, player))]
        if isinstance(message, (*ratings.ASKED, *past_matches.ASKED)):  # the room's life: modules of their own
            if isinstance(message, AskMatchLog) and not connection.address.match_logs.take():
                raise ProtocolError(TOO_MANY_LOGS)
            answering = ratings.answer if isinstance(message, ratings.ASKED) else past_matches.answer
            return [(None, answering(self.store.reading, player.id, message))]
        raise ProtocolError("That type of message is not part of the protocol.")  # pragma: no cover

    def _welcome_back(self, connection: Connection, welcome: m.Message) -> Answers:
        """The welcome, then the catch-up of the tables the player sits at."""
        out, at, connection.ended = self.tables.back(connection.player.id) if connection.player else ([], None, [])
        connection.table = at if at is not None else connection.table
        if connection.player is not None and self.moderation.is_moderator(connection.player.name):
            out.insert(0, (connection.player.id, m.Notice(MODERATOR_WELCOME)))
        return [(None, welcome), *out]

    async def _account(self, connection: Connection, message: m.Message) -> Answers:
        """Signing in with a name's password, and the account's messages (`audiocrib.server.accounts`)."""
        if isinstance(message, m.SignIn):
            self._hello_checks(connection, message)
            player, token = await self.accounts.sign_in(connection.address.sign_ins, message)
            return self._welcome_back(connection, self._welcome(connection, player, token))
        if connection.player is None:
            raise ProtocolError(HELLO_FIRST)
        state = await self.accounts.answer(connection.address.sign_ins, connection.player, message)
        if state.token is not None:  # signed out everywhere: this connection has the new token, the others go
            connection.token = state.token
            for other in [c for c in self._connections if c is not connection and c.player == connection.player]:
                self._close_later(other, SIGNED_OUT)
        return [(None, state)]

    def _close_later(self, connection: Connection, reason: str) -> None:
        task = asyncio.get_running_loop().create_task(connection.socket.close(
            code=WSCloseCode.POLICY_VIOLATION, message=reason.encode("ascii")))
        self._closing.add(task)  # kept until done: the loop holds only a weak reference to a task
        task.add_done_callback(self._closing.discard)

    # ----------------------------------------------------------------- hello
    def _hello_checks(self, connection: Connection, hello: m.Hello) -> None:
        """Refuse a second hello, another protocol version, a missing or wrong server password, or a banned address
        or name (`audiocrib.server.moderating`)."""
        if connection.player is not None:
            raise ProtocolError("You have said hello already on this connection.")
        if hello.version != m.PROTOCOL_VERSION:
            raise ProtocolError(f"This server speaks version {number_words(m.PROTOCOL_VERSION)} of the protocol, not"
                                f" {number_words(hello.version)}; use a matching audiocrib.")
        if self.password is not None and not self._password_ok(connection, hello.password):
            raise ProtocolError("That is not this server's password." if hello.password else
                                "This server has a password; ask whoever runs it.")
        banned = self.moderation.hello_refusal(None if hello.token else hello.name, connection.remote)
        if banned is not None:
            raise ProtocolError(banned)

    def _hello(self, connection: Connection, hello: m.Hello) -> m.Message:
        self._hello_checks(connection, hello)
        if hello.token is not None:
            player = self.store.player_by_token(hello.token)
            if player is None:
                raise ProtocolError("This server does not know your token; connect without one to choose a name.")
            token = hello.token
        else:
            if not self.local_only and not connection.address.names.take():
                raise ProtocolError(TOO_MANY_NAMES.format(wait_words(connection.address.names.wait())))
            player, token = self.store.add_player(hello.name)
        return self._welcome(connection, player, token)

    def _welcome(self, connection: Connection, player: Player, token: str) -> m.Message:
        """Make this connection the player's (closing the one they had before, if any); a banned name, found by its
        token, is refused."""
        banned = self.moderation.hello_refusal(player.name, "")
        if banned is not None:
            raise ProtocolError(banned)
        earlier = self._by_player.get(player.id)
        if earlier is not None:  # the player is back on a new connection (the old one may be dead): that one goes
            self._close_later(earlier, "You connected again from elsewhere.")
        self._by_player[player.id] = connection
        connection.player, connection.token = player, token
        self.moderation.welcome(player.id)
        self.board.people_changed()
        return m.Welcome(player.name, token, m.PROTOCOL_VERSION, light=True)

    def _password_ok(self, connection: Connection, given: str | None) -> bool:
        assert self.password is not None
        if given is not None and hmac.compare_digest(given.encode("utf-8"), self.password.encode("utf-8")):
            return True
        if given is not None and not connection.address.wrong_passwords.take():
            raise _Disconnect("Too many wrong passwords from your address; wait a minute.")
        return False

    # ----------------------------------------------------------------- moderation (`Live`)
    async def _moderate(self, player: Player, message: m.Moderate | m.Mute | m.Unmute) -> str:
        if isinstance(message, m.Moderate):
            return await self.moderation.moderate(player, message)
        return self.moderation.own_mute(player, message.name, isinstance(message, m.Mute))

    def online(self) -> list[Online]:
        return [Online(c.player.id, c.player.name, c.remote, c.table) for c in self._by_player.values()
                if c.player is not None]

    async def tell(self, player: int, said: str) -> None:
        told: Answers = [(player, m.Notice(said))]
        await self._send(None, told)

    async def remove(self, player: int, said: str) -> None:
        connection = self._by_player.get(player)
        if connection is None:
            return
        self.outbox.put(connection.box, m.encode(m.Notice(said)))

        async def closing() -> bool:  # a task: a client that reads nothing holds up nobody's act for seconds
            await self.outbox.settle(connection.box)
            return await connection.socket.close(code=WSCloseCode.POLICY_VIOLATION, message=b"Removed from the server.")
        task = asyncio.get_running_loop().create_task(closing())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def close_table(self, table: int, said: str) -> None:
        for person in await self.tables.close_table(table, said):
            connection = self._by_player.get(person)
            if connection is not None and connection.table == table:
                connection.table = None
                lobby: Answers = [(None, self._lobby())]
                await self._send(connection, lobby)

    # ----------------------------------------------------------------- lobby and tables
    def _lobby(self, page: int = 1) -> m.Lobby:
        """A page of the lobby, from the board (`audiocrib.server.lobby`): made once until something on it
        changes, however often it is asked."""
        return self.board.page(page, self._people_here)

    def _people_here(self) -> list[str]:
        return [c.player.name for c in self._by_player.values() if c.player is not None]

    async def close_all(self) -> None:
        """Stop the computer players, send what is held, and close every connection, saying the server is
        stopping (on shutdown)."""
        self.tables.close()
        self.accounts.close()
        self.outbox.flush()
        await asyncio.gather(*(c.box.writer for c in list(self._connections) if c.box.writer is not None),
                             return_exceptions=True)
        self.outbox.stop()
        await asyncio.gather(*(c.socket.close(code=WSCloseCode.GOING_AWAY, message=b"The server is stopping.")
                               for c in list(self._connections)))


"""``audiocrib serve``: the server process, from its lock on the data folder to its last connection closed.

It takes the data folder's lock (so two servers never share one store), opens the store, listens (with TLS when
given a certificate), says in plain lines where it listens and how a friend connects, and runs until Ctrl+C or a
termination request, when it closes every connection and the store. Whatever stops it from starting is one
sentence in a `ServeError`.
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import os
import signal
import socket
import sqlite3
import ssl
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from filelock import FileLock, Timeout

from audiocrib.engine.text import printable
from audiocrib.online.fields import NAME, ProtocolError
from audiocrib.server.app import PATH, Pages, Server, make_app
from audiocrib.server.gate import GatedSite, gated_runner, open_files
from audiocrib.server.limits import Limits
from audiocrib.server.proxy import NO_PROXIES, Proxies
from audiocrib.server.records import StoreError
from audiocrib.server.store import Store

__all__ = ["LOCK_FILE", "STORE_FILE", "ServeError", "Settings", "check_file", "check_host", "check_moderator",
           "listening_tls", "read_moderators", "read_password", "serve"]

STORE_FILE = "server.sqlite3"
LOCK_FILE = "server.lock"
"""Held by the running server for its whole run (the system's lock: it goes with the process however it ends)."""


class ServeError(Exception):
    """What stops the server from starting, in one sentence."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What ``audiocrib serve`` was told, checked by the command line."""

    host: str
    port: int
    folder: Path
    certfile: Path | None = None
    keyfile: Path | None = None
    password: str | None = None
    limits: Limits = field(default_factory=Limits)
    proxies: Proxies = NO_PROXIES
    """The reverse proxies whose X-Forwarded-For is believed (``--trust-proxy``)."""
    moderators: tuple[str, ...] = ()
    """The moderators' names (``--moderator``, ``--moderators``)."""


MOST_PASSWORD_BYTES = 1024
"""A password file longer than this is not a password (the protocol's passwords are at most 128 characters)."""


def check_file(option: str, value: str) -> None:
    """An existing file that can be read, or a `ServeError` naming ``option``."""
    if value == "" or "\0" in value:
        raise ServeError(f"{option} takes the name of a file, not {'an empty value' if not value else 'that'}.")
    if os.path.isdir(value):
        raise ServeError(f"{option} names a folder; give a file.")
    if not os.path.exists(value):
        raise ServeError(f"{option} names a file that does not exist: {value}.")
    if not os.path.isfile(value):
        raise ServeError(f"{option} names something that is not an ordinary file (a device or a pipe); give a file.")
    if not os.access(value, os.R_OK):
        raise ServeError(f"{option} names a file that audiocrib may not read.")


def read_password(path: str) -> str:
    """The server's password: the file's one line (its line ending dropped), 1 to 128 printable characters."""
    check_file("--password-file", path)
    if os.path.getsize(path) > MOST_PASSWORD_BYTES:
        raise ServeError("--password-file is too big for a password; it must hold one line of at most 128"
                         " characters.")
    try:
        with open(path, "rb") as handle:
            text = handle.read(MOST_PASSWORD_BYTES + 1).decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise ServeError("--password-file must be text in UTF-8.") from None
    except OSError as error:
        raise ServeError(f"--password-file cannot be read: {_reason(error)}.") from None
    password = text.removesuffix("\n").removesuffix("\r")
    if not 1 <= len(password) <= 128 or not printable(password):
        raise ServeError("--password-file must hold the password on one line: 1 to 128 printable characters.")
    return password


MOST_MODERATORS = 1000


def check_moderator(option: str, name: str) -> str:
    """A moderator's name as a player's name must be (`audiocrib.online.fields.NAME`), or a `ServeError`."""
    try:
        return NAME.read(name, "a moderator's name")
    except ProtocolError as error:
        shown = name if len(name) <= 30 and name.isascii() and printable(name) else "that one"
        raise ServeError(f"{option} {shown}: {error}") from None


def read_moderators(path: str) -> list[str]:
    """The moderators' names in a file: one a line (blank lines and lines starting with # passed over)."""
    check_file("--moderators", path)
    if os.path.getsize(path) > MOST_MODERATORS * 100:
        raise ServeError("--moderators is too big; it must hold at most a thousand names, one a line.")
    try:
        with open(path, encoding="utf-8-sig") as handle:
            lines = handle.read().splitlines()
    except UnicodeDecodeError:
        raise ServeError("--moderators must be text in UTF-8.") from None
    except OSError as error:
        raise ServeError(f"--moderators cannot be read: {_reason(error)}.") from None
    names = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    if len(names) > MOST_MODERATORS:
        raise ServeError("--moderators must hold at most a thousand names, one a line.")
    return [check_moderator("--moderators: the line", name) for name in names]


def serve(settings: Settings, say: Callable[[str], None], pages: Pages | None = None) -> int:
    """Run the server until it is stopped; ``say`` prints a line; ``pages`` adds the browser's page (see
    `make_app`). Returns the exit status (0 once stopped)."""
    tls = listening_tls(settings.certfile, settings.keyfile)
    check_host(settings.host, settings.port)  # before the data folder is made: a start refused leaves nothing
    try:
        settings.folder.mkdir(parents=True, exist_ok=True)
        lock = FileLock(settings.folder / LOCK_FILE, thread_local=False)
        lock.acquire(blocking=False)
    except Timeout:
        raise ServeError("Another audiocrib server is using this data folder; give each server its own"
                         " --data-dir.") from None
    except OSError as error:
        raise ServeError(f"The data folder cannot be used: {_reason(error)}.") from None
    try:
        try:
            store = Store(settings.folder / STORE_FILE, later=True)
        except (StoreError, sqlite3.DatabaseError) as error:
            sentence = str(error) if isinstance(error, StoreError) else "It is not an audiocrib server's data."
            raise ServeError(f"The server's file in the data folder cannot be used. {sentence}") from None
        with store:
            try:
                server = Server(store, settings.password, settings.limits, proxies=settings.proxies,
                                moderators=settings.moderators)
                server.local_only = loopback(settings.host) and not settings.proxies.networks
                asyncio.run(_run(server, settings, tls, say, pages))
            except KeyboardInterrupt:  # Ctrl+C where the event loop cannot catch it itself (Windows)
                pass
        say("The server has stopped.")
        return 0
    finally:
        lock.release(force=True)


def check_host(host: str, port: int) -> None:
    """A `ServeError` if the server could not listen on ``host`` at ``port``: a name that is no address, or an
    address that is not this computer's, or a port in use. The sockets are only tried, and closed at once."""
    try:
        addresses = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError):
        raise ServeError(f"--host names no address of this computer: {host}. Give one like 127.0.0.1, or 0.0.0.0"
                         " for every address.") from None
    usable = False
    for family, kind, protocol, _, address in addresses:
        try:
            with socket.socket(family, kind, protocol) as trial:
                if os.name == "posix":  # as asyncio listens there: an old connection's port is free again
                    trial.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                trial.bind(address)
        except OSError as error:
            if error.errno != errno.EADDRNOTAVAIL:
                raise ServeError(f"The server cannot listen on {host} port {port}: {_reason(error)}.") from None
            continue  # asyncio passes over such an address too (localhost's ::1 where IPv6 is off)
        usable = True
    if not usable:
        raise ServeError(f"--host names an address that is not this computer's: {host}. Give one like 127.0.0.1,"
                         " or 0.0.0.0 for every address.")


def listening_tls(certfile: Path | None, keyfile: Path | None) -> ssl.SSLContext | None:
    """The TLS of a server (or gateway) listening with ``certfile`` and ``keyfile`` (None without them); a
    `ServeError` if they cannot be read."""
    if certfile is None or keyfile is None:
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(certfile, keyfile)
    except (ssl.SSLError, OSError, ValueError):
        raise ServeError("--certfile and --keyfile could not be read as a certificate and its private key"
                         " (PEM files, the key without a passphrase).") from None
    return context


def _reason(error: OSError) -> str:
    """The system's words for ``error`` (asyncio rewrites a failed bind's strerror into a longer sentence)."""
    words = os.strerror(error.errno) if error.errno else error.strerror
    return (words or "an error of the system").lower()


def loopback(host: str) -> bool:
    """True when ``host`` can be reached only from this computer."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


async def _run(server: Server, settings: Settings, tls: ssl.SSLContext | None, say: Callable[[str], None],
               pages: Pages | None = None) -> None:
    limits = settings.limits
    _, most = open_files(limits.files_reserve)
    runner, gate = await gated_runner(make_app(server, pages), limits, most, tls, settings.proxies)
    loop = asyncio.get_running_loop()
    try:
        site = GatedSite(runner, gate, settings.host, settings.port)
        try:
            await site.start()
        except OSError as error:
            raise ServeError(f"The server cannot listen on {settings.host} port {settings.port}:"
                             f" {_reason(error)}.") from None
        port = runner.addresses[0][1]
        for line in _greeting(settings, port, tls is not None, pages is not None):
            say(line)
        stop = asyncio.Event()
        for number in (signal.SIGINT, signal.SIGTERM):
            with suppress(NotImplementedError, RuntimeError, ValueError):  # no such handler where asyncio has none
                loop.add_signal_handler(number, stop.set)
        await stop.wait()
        say("Stopping: closing the connections.")
    finally:
        await runner.cleanup()
        gate.close()


def _greeting(settings: Settings, port: int, tls: bool, page: bool = False) -> list[str]:
    """The lines said on start: where the server listens, how a friend connects, and any warning."""
    host = settings.host
    scheme = "wss" if tls else "ws"
    everywhere = host in ("0.0.0.0", "::", "")
    lines = [f"audiocrib server listening on {'every address of this computer' if everywhere else host},"
             f" port {port}."]
    shown = f"[{host}]" if ":" in host else host
    if everywhere:
        lines.append(f"Friends connect to {scheme}://{socket.gethostname()}:{port}{PATH}, or the same with this"
                     " computer's address on your network in place of its name.")
    else:
        lines.append(f"Friends connect to {scheme}://{shown}:{port}{PATH}.")
    if loopback(host) and settings.proxies.networks:
        lines.append("Only this computer can connect: players come in through the proxy.")
    elif loopback(host):
        lines.append("Only this computer can connect; give --host 0.0.0.0 to let others in.")
    elif not tls:
        lines.append("Warning: without --certfile and --keyfile nothing is encrypted: names, tokens and the"
                     " server's password can be read on the way. Give a certificate, or put a proxy with TLS in"
                     " front.")
    if page:
        web = "https" if tls else "http"
        where = socket.gethostname() if everywhere else shown
        lines.append(f"In a web browser, friends open {web}://{where}:{port}/ and play there.")
    if settings.password is not None:
        lines.append("Friends need the server's password to connect.")
    if settings.proxies.networks:
        trusted = ", ".join(str(net.network_address) if net.num_addresses == 1 else str(net)
                            for net in settings.proxies.networks)
        lines.append(f"Trusting the proxy at {trusted}: each player's address is read from its X-Forwarded-For.")
    if settings.moderators:
        lines.append(f"Moderators: {', '.join(settings.moderators)}.")
    lines.append(f"The server's data is in {settings.folder}.")
    lines.append("Stop the server with Ctrl+C.")
    return lines

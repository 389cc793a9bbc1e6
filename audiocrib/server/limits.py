"""How much one connection, and one address, may ask of the server: token buckets and their sizes.

A bucket holds up to ``burst`` tokens and gains ``rate`` a second; each message (or connection, or refusal) takes
one, and one that finds the bucket empty is over the limit. A player at a table sends a message every few seconds;
the limits are far above that and far below what would slow the server for everyone else.

>>> clock = iter([0.0, 0.0, 0.0, 0.0, 0.5]).__next__
>>> bucket = TokenBucket(rate=2.0, burst=2, clock=clock)
>>> bucket.take(), bucket.take(), bucket.take()
(True, True, False)
>>> bucket.take()  # half a second later: one token more
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["LatelyCount", "Limits", "TokenBucket", "per_hour"]


class TokenBucket:
    """``burst`` tokens at most, ``rate`` more each second (read from ``clock``, in seconds)."""

    __slots__ = ("_clock", "_last", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self._clock = rate, burst, clock
        self._tokens = float(burst)
        self._last = clock()

    def take(self) -> bool:
        """Take a token: True if there was one, False if the bucket is empty (over the limit)."""
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True

    def wait(self) -> float:
        """Seconds until the next token (0 if there is one now)."""
        tokens = min(float(self.burst), self._tokens + (self._clock() - self._last) * self.rate)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate

    @property
    def full(self) -> bool:
        """True once the bucket has filled again (nothing taken lately): it can be forgotten."""
        return self._tokens + (self._clock() - self._last) * self.rate >= self.burst


class LatelyCount:
    """How many messages were sent lately: each adds one, and the count fades by half about every ``seconds``
    times ln 2 (read from ``clock``).

    >>> clock = iter([0.0, 0.0, 0.0, 10.0]).__next__
    >>> lately = LatelyCount(seconds=10.0, clock=clock)
    >>> lately.add(), lately.add()
    (1.0, 2.0)
    >>> round(lately.now(), 2)  # ten seconds later: faded by e
    0.74
    """

    __slots__ = ("_clock", "_last", "_value", "seconds")

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds, self._clock = seconds, clock
        self._value = 0.0
        self._last = clock()

    def now(self) -> float:
        """The count now."""
        moment = self._clock()
        self._value *= math.exp(-(moment - self._last) / self.seconds)
        self._last = moment
        return self._value

    def add(self) -> float:
        """Count one message more; the count now."""
        self._value = self.now() + 1.0
        return self._value


def per_hour(most: int) -> TokenBucket:
    """A bucket of ``most`` at once that fills again over an hour."""
    return TokenBucket(most / 3600.0, most)


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's limits (each a bucket's rate a second and burst, or a plain most)."""

    messages_rate: float = 20.0
    """Messages a second one connection may send, on average..."""
    messages_burst: int = 40
    """...and at once."""
    address_rate: float = 100.0
    """Messages a second all the connections from one address may send, on average..."""
    address_burst: int = 200
    """...and at once."""
    refusals_rate: float = 0.2
    """Refused messages a second one connection may send (one every five seconds) on average..."""
    refusals_burst: int = 10
    """...and at once, before it is disconnected."""
    connects_rate: float = 5.0
    """New connections a second from one address, on average..."""
    connects_burst: int = 30
    """...and at once."""
    wrong_passwords_rate: float = 0.1
    """Wrong server passwords a second from one address (one every ten seconds), on average..."""
    wrong_passwords_burst: int = 5
    """...and at once."""
    connections_per_address: int = 20
    """Connections open at once from one address."""
    open_tables_per_player: int = 3
    """Tables not yet begun that one player may be the host of."""
    hello_seconds: float = 30.0
    """Time a new connection has to say hello before it is closed."""
    chat_rate: float = 0.5
    """Chat lines a second one connection may send (one every two seconds), on average..."""
    chat_burst: int = 5
    """...and at once; a line over the limit is refused with a sentence (and counts as a refused message)."""
    computer_pace: float = 0.5
    """Seconds a computer player waits before each move, so people hear one move before the next (0 in tests)."""
    sockets_per_address: int = 60
    """Sockets open at once from one address, counted from the moment each is accepted (before any request:
    a browser's page requests and sockets, and a terminal's connection); more are closed at once."""
    sockets_per_proxy: int = 5000
    """The same for the address of a trusted proxy, whose sockets are all its players' until their requests are
    read."""
    request_seconds: float = 10.0
    """Time a new socket has to send a whole request (and finish TLS first), and an idle keep-alive connection
    to send its next one, before it is closed."""
    files_reserve: int = 100
    """Open files kept back from the sockets for the store, the logs and the players already in: new sockets are
    refused once the open-file limit less this many are open (`audiocrib.server.gate.open_files`)."""
    new_names_per_hour: int = 30
    """New names (players) one address may make in an hour (as a bucket: that many at once, then one every
    120 seconds); not counted on a server only this computer can reach (`Server.local_only`)."""
    new_tables_per_hour: int = 30
    """New tables one address may open in an hour, the same way."""
    heaviest_seconds: float = 5.0
    """How quickly a connection's count of messages sent lately forgets (its half-life is this many seconds
    times ln 2): when an address sends over its limit, the connection that sent most lately is the one closed."""
    sign_ins_rate: float = 0.2
    """Password hashes a second one address may cost the server (signing in, setting or changing a password: each
    is an Argon2id hash, tens of milliseconds of CPU), on average..."""
    sign_ins_burst: int = 10
    """...and at once."""
    match_logs_rate: float = 0.2
    """Whole logs of past matches a second one address may ask for (each is read from the store, checked and sent
    whole: up to some megabytes for a long match of six), on average..."""
    match_logs_burst: int = 5
    """...and at once; one over the limit is refused with a sentence (`TOO_MANY_LOGS`)."""
    name_sign_ins_rate: float = 1 / 30
    """Password tries a second for one name, from any address (one every thirty seconds), on average..."""
    name_sign_ins_burst: int = 5
    """...and at once: guessing a name's password from many addresses is as slow as from one."""
    cut_grace: float = 1.0
    """Seconds after a connection is cut for sending the most from an address in which its messages are let
    through though the address's bucket is empty: it fills again only as fast as its rate, and the address may
    be under its limit already without the one cut (so one cut at a time, not one for each message meanwhile)."""

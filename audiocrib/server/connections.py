"""What the server holds of each connection and of each busy address: `Connection` (who it is once it said
hello, its table, its buckets and mailbox) and `Address` (the buckets all its connections share, and which of them
sent the most lately)."""

from __future__ import annotations

from dataclasses import dataclass, field

from audiocrib.server.limits import LatelyCount, TokenBucket
from audiocrib.server.outbox import Mailbox, ServerSocket
from audiocrib.server.records import Player

__all__ = ["Address", "Connection"]


@dataclass(slots=True)
class Address:
    """What the server remembers of one address while it is busy: its buckets and its open connections."""

    messages: TokenBucket
    connects: TokenBucket
    wrong_passwords: TokenBucket
    names: TokenBucket
    tables: TokenBucket
    sign_ins: TokenBucket
    match_logs: TokenBucket
    open: int = 0
    connections: set[Connection] = field(default_factory=set)
    cut_at: float = -1e9
    """When the last connection from here was cut for sending the most (`time.monotonic`)."""

    def idle(self) -> bool:
        return self.open == 0 and all(b.full for b in (self.messages, self.connects, self.wrong_passwords,
                                                         self.names, self.tables, self.sign_ins,
                                                         self.match_logs))

    def heaviest(self) -> Connection | None:
        """The connection from here that sent the most lately and is not being closed already."""
        going = [c for c in self.connections if not c.cut]
        return max(going, key=lambda c: c.lately.now()) if going else None


@dataclass(eq=False, slots=True)
class Connection:
    """One client's connection: who it is once it has said hello, and at which table it sits."""

    socket: ServerSocket
    address: Address
    messages: TokenBucket
    refusals: TokenBucket
    chats: TokenBucket
    box: Mailbox
    lately: LatelyCount
    player: Player | None = None
    cut: bool = False
    """True once it is being closed for sending the most from an address over its limit."""
    token: str | None = None
    table: int | None = None
    remote: str = ""
    ended: list[int] = field(default_factory=list)
    """The tables whose end its hello's catch-up told (written as told once sent)."""

"""The browser's table: the page ``audiocrib serve`` serves at ``/`` and the gateway behind its socket at ``/web``.

Each browser tab gets a real shell `Session` (`audiocrib.shell`) that plays online through this same server over
a loopback connection, exactly as the terminal client does; the browser is only its keyboard, its speaker and a
screen for it (docs/protocol.md, "The browser page's socket"). `routes` adds the pages, the sounds and the
socket to the server's application; `gateway` answers the socket; `websession` runs one tab's session on a
thread of its own; `screen` describes what is on that session's screen.
"""

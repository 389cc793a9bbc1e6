"""The browser's table: the page ``audiocrib serve`` (or a gateway, ``audiocrib web``) serves at ``/`` and the
gateway behind its socket at ``/web``.

Each browser tab gets a real shell `Session` (`audiocrib.shell`) that plays online as the terminal client does,
connected to the tables inside the server's process (`local`) or, from a gateway process (`standalone`), to the
server's ``/play``; the browser is only its keyboard, its speaker and a screen for it (docs/protocol.md, "The
browser page's socket"). `routes` adds the pages, the sounds and the socket to an application; `gateway` answers
the socket; `websession` runs one tab's session as a task of the event loop; `screen` describes what is on that
session's screen.
"""

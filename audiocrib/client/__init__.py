"""The terminal client's side of online play: the connection to an audiocrib server (kept in a thread of its own,
reconnected by itself), what the server has told this player, and the table it plays at (`RemoteTable`).

It imports the engine and the protocol (`audiocrib.online`), and aiohttp for the network; nothing of the shell,
speech or sound: the shell plays a `RemoteTable` exactly as it plays a table in this process.
"""

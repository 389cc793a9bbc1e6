"""The audiocrib server (`audiocrib serve`): people and computer players at shared tables.

Its parts, each in a module of its own: `store` keeps players, tables and every game's log in SQLite, so that a
server killed at any moment loses nothing it has answered. (The network, the lobby and the protocol follow.)
"""

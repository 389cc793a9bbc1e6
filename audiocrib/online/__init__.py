"""Online play: what a client and an audiocrib server say to each other (`messages`), checked field by field.

Pure like the engine (the standard library and the engine only), so that the server and the terminal client share
it. docs/protocol.md describes the messages for whoever writes a client or a computer player.
"""

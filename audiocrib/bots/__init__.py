"""Computer players, from beginner to expert, and what they think with: the player protocol (`player`), one
module a level (`levels` names them), the discard and crib analysis and the arena. Each player works from its
own view only (see `audiocrib.bots.player`).

The package imports nothing when it is imported, so ``python -m audiocrib.bots.crib`` runs its module once.
"""

"""Sound cues: the mixer and the player that plays them, or a silent player when no device plays."""
